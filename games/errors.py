"""The errors the rules raise, in one place: every one a ``GameError`` (a
``ValueError``), but a word list's, which is a ``LexiconError``."""

from __future__ import annotations


class GameError(ValueError):
    """Base of every error the rules raise."""


class IllegalMove(GameError):
    """An action the rules do not allow; ``reason`` is the sentence for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadSettings(GameError):
    """A player count or game option the game cannot be played with."""


class UnknownGame(GameError):
    """No game of that name."""


class MalformedAction(GameError):
    """A journal entry or script line that is not an action of its game."""


class BadCell(GameError):
    """A cell name that is not on the 15×15 board."""


class BadGeneratorData(GameError):
    """Bytes that are not a serialised move generator."""


class LexiconError(ValueError):
    """A word list or a stored index that cannot be used; the message says why."""
