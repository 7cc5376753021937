"""A game as the journal records it: what it is, its seed and options, the profile it
was started on and how it ended. Plain data, so that a referee may read it without
importing the journal."""

from __future__ import annotations

from typing import Any

from msgspec import Struct


class GameRecord(Struct, frozen=True):
    id: int
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    profile: str
    started: str
    finished: str | None
    outcome: dict[str, Any] | None
