"""Two boards, one game: a game hosted at one board with seats played at another,
through the club's MQTT broker (``docs/remote.md``)."""
