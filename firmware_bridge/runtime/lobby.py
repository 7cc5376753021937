"""The start menu at the station: the game, the number of players, who plays each
seat (a person, the computer, or a board of the club on line, invited when the game
starts) and the game's options, the last choices remembered; and another board's
invitation, offered until it is answered (:class:`.lobby_levels.Offer`).

Shown when the daemon starts with no unfinished game and no game in its config, and
after a game ends (ok). Left and right change the choice, ok takes it and goes on,
back goes one step back. The choices made are kept in a small JSON file next to the
journal, so the menu opens on them after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from msgspec import Struct, field

from games.errors import GameError
from games.options import OptionSpec
from games.registry import find_game, find_listed

from ..kits import find_kit
from ..kits.options import options_of
from ..referees.events import ButtonEvent, Event
from ..screen.layout import render
from ..screen.screens import Screen
from . import lobby_levels
from .lobby_memory import Memory

if TYPE_CHECKING:
    from wiring.profile import Profile

log = logging.getLogger("tabletop")

HUMAN = "person"
COMPUTER = "computer"


class Display(Protocol):
    def show(self, image: Any) -> None: ...


class Choice(Struct, frozen=True):
    """One game the board can referee, with the player counts it allows."""

    name: str
    title: str
    min_players: int
    max_players: int
    seat_names: tuple[str, ...] = ()
    table_options: Mapping[str, Any] = field(default_factory=dict)
    """The options the game takes at a real table unless the menu changes them."""

    def seat(self, index: int) -> str:
        if index < len(self.seat_names):
            return self.seat_names[index].capitalize()
        return f"Player {index + 1}"


class Start(Struct, frozen=True):
    """What the start menu chose: the game, its players, the computer's seats, options."""

    game: str
    players: int
    computer: frozenset[int] = frozenset()
    options: Mapping[str, Any] = field(default_factory=dict)
    levels: Mapping[int, int] = field(default_factory=dict)  # computer seats' (lobby_levels)
    remote: Mapping[int, str] = field(default_factory=dict)
    """The seats other boards hold, invited (:mod:`.lobby_levels`): not remembered."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "computer": sorted(self.computer),
            "options": dict(self.options),
            **lobby_levels.stored(self.levels),
        }


def menu_options(game: str) -> tuple[OptionSpec, ...]:
    """The options the menu offers: those chosen from a short list (not files or tiles)."""
    return tuple(s for s in options_of(game) or () if s.kind in ("choice", "number"))


UNBOUNDED_STEPS = 10
"""How many values the menu offers for an option with no top (from its least)."""


def option_values(spec: OptionSpec, players: int) -> list[tuple[str, Any]]:
    """The values the menu cycles through for ``spec``, as (label, value); None is the
    game's own default."""
    if spec.kind == "choice":
        return [(c, c) for c in spec.choices]
    lo = spec.lo or 0
    hi = spec._last_seat(players) if spec.seat else spec.hi
    if hi is None:
        hi = lo + UNBOUNDED_STEPS - 1
    values: list[tuple[str, Any]] = [("default", None)]
    # A seat is named from 1, whether the option counts from 0 or from 1.
    values += [(f"seat {v + 1 - lo}" if spec.seat else str(v), v) for v in range(lo, hi + 1)]
    return values


class Lobby:
    """Asks which game to play, for how many, who plays each seat, and the options."""

    def __init__(
        self,
        games: Sequence[Choice],
        display: Display | None = None,
        preselect: str | None = None,
        memory: Memory | None = None,
    ) -> None:
        if not games:
            raise ValueError("the board's profile lists no game that can be played on it")
        self.games = list(games)
        self.display = display
        self.memory = memory or Memory(None)
        self.remembered = self.memory.load()
        last = preselect or self.remembered.get("last")
        self.index = next((i for i, g in enumerate(self.games) if g.name == last), 0)
        self._load_game()
        self.stage = "game"
        self.chosen: Start | None = None
        """The start menu's answer, once ok is pressed on the last page."""
        self.problem = ""
        """Why the chosen game could not start (shown on the last page until changed)."""
        self.now = 0.0
        self._shown: Screen | None = None
        self.online: list[str] = []
        """The club's boards on line that a seat may invite (set by the board's link)."""
        self.offer: lobby_levels.Offer | None = None
        """Another board's invitation, shown until ok or back answers it."""
        self.waiting = ""
        """What the chosen game waits for before it starts (an invited board's answer)."""

    @property
    def game(self) -> Choice:
        return self.games[self.index]

    def _load_game(self) -> None:
        """Set the choices to what was chosen for this game last time, or its defaults."""
        game = self.game
        saved = self.remembered.get("games", {}).get(game.name, {})
        if not isinstance(saved, dict):
            saved = {}
        players = saved.get("players")
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            players = max(2, game.min_players)
        self.players = players
        computer = saved.get("computer", [])
        self.computer = {s for s in computer if isinstance(s, int) and 0 <= s < players}
        self.remote: dict[int, str] = {}
        self.levels = lobby_levels.saved_levels(saved.get("levels"), self.computer)
        self.seat = 0
        self.option = 0
        options = dict(game.table_options)
        remembered = saved.get("options", {})
        specs = {s.name: s for s in menu_options(game.name)}
        for name, value in remembered.items() if isinstance(remembered, dict) else ():
            spec = specs.get(name)
            if spec is not None and (value is None or spec.problem(value, players) is None):
                options[name] = value
        self.options: dict[str, Any] = options

    def wants_ticks(self) -> bool:
        return False

    def waits_for_board(self, event: ButtonEvent) -> bool:
        """The menu's choices do not depend on the board."""
        return False

    def handle(self, event: Event) -> None:
        if isinstance(event, ButtonEvent) and self.offer is not None:
            self.offer.answer(event.name)
            if self.offer.closed:
                self.offer = None
        elif isinstance(event, ButtonEvent) and self.chosen is None:
            self.problem = ""
            self._button(event.name)
        self.refresh()

    def refused(self, why: str) -> None:
        """The chosen game cannot start on this board (``why``): back to the last page."""
        self.chosen = None
        self.problem = why
        self.stage = "ready"
        self.refresh()

    # -- the pages ------------------------------------------------------------------
    def _pages(self) -> list[str]:
        game = self.game
        pages = ["game"]
        if game.min_players != game.max_players:
            pages.append("players")
        pages.append("seats")
        pages += [f"option:{s.name}" for s in menu_options(game.name)]
        pages.append("ready")
        return pages

    def _go(self, step: int) -> None:
        pages = self._pages()
        at = pages.index(self.stage) if self.stage in pages else 0
        self.stage = pages[max(0, min(len(pages) - 1, at + step))]
        self.seat = 0

    def _button(self, name: str) -> None:
        if name not in ("left", "right", "ok", "back"):
            return
        step = -1 if name == "left" else 1
        stage = self.stage
        if stage == "game":
            if name in ("left", "right"):
                self.index = (self.index + step) % len(self.games)
                self._load_game()
            elif name == "ok":
                self._go(1)
        elif stage == "players":
            game = self.game
            if name in ("left", "right"):
                self.players = max(game.min_players, min(game.max_players, self.players + step))
                self.computer = {s for s in self.computer if s < self.players}
                self.remote = {s: b for s, b in self.remote.items() if s < self.players}
                self.levels = {s: lv for s, lv in self.levels.items() if s in self.computer}
            else:
                self._go(1 if name == "ok" else -1)
        elif stage == "seats":
            if name in ("left", "right"):
                seats = lobby_levels.Seats(self.computer, self.levels, self.remote, self.online)
                seats.change(self.seat, step)
            elif name == "ok" and self.seat + 1 < self.players:
                self.seat += 1
            elif name == "back" and self.seat > 0:
                self.seat -= 1
            else:
                self._go(1 if name == "ok" else -1)
        elif stage.startswith("option:"):
            if name in ("left", "right"):
                self._change_option(stage.partition(":")[2], step)
            else:
                self._go(1 if name == "ok" else -1)
        elif stage == "ready":
            if name == "ok":
                computer, levels = frozenset(self.computer), dict(self.levels)
                given, remote = self._given(), dict(self.remote)
                self.chosen = Start(self.game.name, self.players, computer, given, levels, remote)
                self.memory.save(self.chosen)
            elif name == "back":
                self._go(-1)

    def _spec(self, name: str) -> OptionSpec:
        return next(s for s in menu_options(self.game.name) if s.name == name)

    def _change_option(self, name: str, step: int) -> None:
        values = [v for _, v in option_values(self._spec(name), self.players)]
        now = self.options.get(name)
        at = values.index(now) if now in values else 0
        self.options[name] = values[(at + step) % len(values)]

    def _given(self) -> dict[str, Any]:
        """The options to start the game with (the game's defaults left out)."""
        return {k: v for k, v in self.options.items() if v is not None}

    def _option_label(self, name: str) -> str:
        spec = self._spec(name)
        values = option_values(spec, self.players)
        now = self.options.get(name)
        if spec.kind == "choice" and now is None:
            now = spec.default.strip("'")
        return next((label for label, v in values if v == now), str(now))

    # -- the screen -----------------------------------------------------------------
    def _seat_line(self, seat: int) -> str:
        return f"{self.game.seat(seat)}: {self._who(seat)}"

    def _who(self, seat: int) -> str:
        board = self.remote.get(seat)
        return f"{board}'s board" if board else lobby_levels.who(self.computer, self.levels, seat)

    def screen(self) -> Screen:
        game = self.game
        stage = self.stage
        if self.offer is not None:
            return self.offer.screen()
        if self.chosen is not None:
            said = self.waiting or "Starting..."
            return Screen("New game", "", (f"{game.title}, {self.players} players", said))
        if stage == "game":
            where = f"{self.index + 1}/{len(self.games)}"
            return Screen("New game", where, (f"< {game.title} >", "ok: choose"))
        if stage == "players":
            return Screen(
                game.title,
                "",
                (f"Players: < {self.players} >", f"{game.min_players} to {game.max_players}"),
                prompt="ok: next  back: game",
            )
        if stage == "seats":
            who = self._who(self.seat)
            keys = lobby_levels.keys(self.computer, self.levels, self.seat)
            return Screen(
                game.title,
                f"seat {self.seat + 1}/{self.players}",
                (f"{game.seat(self.seat)}: < {who} >", *keys),
            )
        if stage.startswith("option:"):
            name = stage.partition(":")[2]
            spec = self._spec(name)
            return Screen(
                game.title,
                "option",
                (f"{name}: < {self._option_label(name)} >", spec.help),
                prompt="ok: next  back: before",
            )
        seats = [self._seat_line(s) for s in range(self.players)]
        chosen = ", ".join(
            f"{s.name} {self._option_label(s.name)}" for s in menu_options(game.name)
        )
        lines = [f"{game.title}, {self.players} players", *seats]
        if chosen:
            lines.append(chosen)
        if self.problem:
            return Screen("Cannot start", "", (self.problem,), prompt="back: change")
        # The keys are the prompt, on every page of a long summary.
        return Screen("Ready?", "", tuple(lines), prompt="ok: start  back: change")

    def refresh(self) -> None:
        screen = self.screen()
        if screen != self._shown:
            self._shown = screen
            if self.display is not None:
                self.display.show(render(screen))


def lobby_choices(profile: Profile, table: bool = True) -> list[Choice]:
    """The games the board's profile is made for, as the start menu offers them.

    ``table``: the options a game takes at a real table (Crosslet's tiles from the
    table's bag); the simulation's own defaults otherwise.
    """
    out = []
    for name in profile.games:
        try:
            listed = find_listed(name)
            kit = find_kit(name)
            seats = find_game(name).seat_names
        except GameError:
            continue
        options = dict(kit.table_options) if table else {}
        out.append(
            Choice(name, listed.title, listed.min_players, listed.max_players, seats, options)
        )
    return out


def menu_file(journal: Path | None) -> Path | None:
    """Where the start menu keeps its last choices: beside the journal."""
    if journal is None or str(journal) == ":memory:":
        return None
    return journal.with_suffix(".lobby.json")
