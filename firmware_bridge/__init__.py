"""The daemon: sensor link, move recognition, the referee session, screens, journal, CLI."""
