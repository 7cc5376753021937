"""The lobby: choosing the next game and the number of players at the station.

Shown when the daemon starts with no unfinished game and no game in its config,
and after a game ends. Left and right change the choice, ok takes it, back goes
one step back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .events import ButtonEvent, Event
from .layout import render
from .screens import Screen


class Display(Protocol):
    def show(self, image: Any) -> None: ...


@dataclass(frozen=True)
class Choice:
    """One game the board can referee, with the player counts it allows."""

    name: str
    title: str
    min_players: int
    max_players: int


class Lobby:
    """Asks which game to play and for how many players."""

    def __init__(
        self,
        games: Sequence[Choice],
        display: Display | None = None,
        preselect: str | None = None,
    ) -> None:
        if not games:
            raise ValueError("the board's profile lists no game that can be played on it")
        self.games = list(games)
        self.display = display
        self.index = next((i for i, g in enumerate(self.games) if g.name == preselect), 0)
        self.players = max(2, self.games[self.index].min_players)
        self.stage = "game"
        self.chosen: tuple[str, int] | None = None
        """(game name, players) once both are chosen."""
        self.now = 0.0
        self._shown: Screen | None = None

    @property
    def game(self) -> Choice:
        return self.games[self.index]

    def wants_ticks(self) -> bool:
        return False

    def handle(self, event: Event) -> None:
        if isinstance(event, ButtonEvent) and self.chosen is None:
            self._button(event.name)
        self.refresh()

    def _button(self, name: str) -> None:
        game = self.game
        if self.stage == "game":
            if name in ("left", "right"):
                step = -1 if name == "left" else 1
                self.index = (self.index + step) % len(self.games)
                self.players = max(2, self.game.min_players)
            elif name == "ok":
                if game.min_players == game.max_players:
                    self.chosen = (game.name, game.min_players)
                else:
                    self.stage = "players"
        elif self.stage == "players":
            if name == "left":
                self.players = max(game.min_players, self.players - 1)
            elif name == "right":
                self.players = min(game.max_players, self.players + 1)
            elif name == "ok":
                self.chosen = (game.name, self.players)
            elif name == "back":
                self.stage = "game"

    def screen(self) -> Screen:
        game = self.game
        if self.chosen is not None:
            return Screen("New game", "", (f"{game.title}, {self.chosen[1]} players", "Starting…"))
        if self.stage == "game":
            where = f"{self.index + 1}/{len(self.games)}"
            return Screen("New game", where, (f"< {game.title} >", "ok: choose"))
        return Screen(
            game.title,
            "",
            (
                f"Players: < {self.players} >",
                f"{game.min_players} to {game.max_players}",
                "ok: start  back: game",
            ),
        )

    def refresh(self) -> None:
        screen = self.screen()
        if screen != self._shown:
            self._shown = screen
            if self.display is not None:
                self.display.show(render(screen))
