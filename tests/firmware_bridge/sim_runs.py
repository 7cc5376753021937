"""Simulated games in the test's process.

:func:`play` plays one as ``tabletop sim`` does and hands back what the table did as
the project's types (:class:`SimRun`: the finished :class:`~games.core.Game`, each
accepted action's :class:`~firmware_bridge.referees.decisions.Played`, every state the
table reported as a :class:`~firmware_bridge.runtime.session_state.TableState`).

:func:`run_sim` runs ``tabletop sim --json`` itself and reads its lines back: for the
tests whose subject is the command line or the JSON stream.
"""

from __future__ import annotations

import copy
import io
import json
from argparse import Namespace
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from firmware_bridge.apps.checks import check_sim
from firmware_bridge.apps.cli import main
from firmware_bridge.apps.commands.sim import _check_lobby, _humans, _prepare_frames
from firmware_bridge.apps.setup_file import game_options
from firmware_bridge.referees.decisions import Played
from firmware_bridge.runtime.live import LiveFile
from firmware_bridge.runtime.session_state import TableState
from firmware_bridge.sim.dry_run import check_script
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line, parse_all, with_board_cells
from games.core import Game, Outcome

_TABLE_FIELDS = frozenset(f.name for f in msgspec.structs.fields(TableState))


@dataclass(frozen=True)
class MenuShown:
    """What the open start menu showed: its stage and the OLED's lines."""

    stage: str
    oled: list[str]


@dataclass
class SimRun:
    """One simulated game as the table played it."""

    sim: Simulation
    """The closed simulation (its session, kit and profile stay readable)."""
    played: list[Played] = field(default_factory=list)
    """Every accepted action, in order, automatic passes included."""
    states: list[TableState] = field(default_factory=list)
    """Every state the table reported, in order (each differs from the one before)."""
    menus: list[MenuShown] = field(default_factory=list)
    """What the start menu showed, in order, while it was open."""
    refusals: list[str] = field(default_factory=list)
    """Why each refused press or move was refused, in order (the session of the game
    the run began with; none when it began at the start menu)."""

    @property
    def game(self) -> Game:
        """The game on the table at the end, as it stands (``SimError`` when the start
        menu is open instead: see ``sim.on_table``)."""
        game: Game = self.sim.session.game
        return game

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome

    @property
    def last(self) -> TableState:
        """The last state the table reported."""
        return self.states[-1]

    @property
    def scores(self) -> dict[str, int]:
        """The final scores by seat name, as the table reports them."""
        return {self.game.seat_name(p): s for p, s in enumerate(self.game.scores())}

    @property
    def moves(self) -> list[tuple[str, str]]:
        """The accepted actions as (player, text), in order."""
        return [(p.player, p.text) for p in self.played]

    @property
    def journal_game(self) -> int:
        """The journal's id of the game at the table."""
        return self.sim.session.game_id

    @property
    def summary(self) -> tuple[str, dict[str, int], Outcome | None, int, int]:
        """How the run ended: the game, its scores, outcome and number of moves, and the
        journal's id of it."""
        game = self.game
        return game.name, self.scores, game.outcome, len(game.history), self.journal_game

    def refused(self) -> list[TableState]:
        """The states that report a refusal (a verdict not accepted)."""
        return [s for s in self.states if s.verdict and not s.verdict["accepted"]]


def reason(state: TableState) -> str:
    """The reason ``state``'s verdict gives (it has one)."""
    assert state.verdict is not None, "the state reports no verdict"
    reason: str = state.verdict["reason"]
    return reason


def _state(shown: dict[str, Any]) -> TableState | MenuShown:
    """A state the simulation told its listeners, as the type it was made from."""
    if "lobby" in shown:
        return MenuShown(shown["lobby"], list(shown["oled"]))
    told = copy.deepcopy(shown)
    extra = {k: v for k, v in told.items() if k not in _TABLE_FIELDS and k != "t"}
    return msgspec.convert(
        {**{k: v for k, v in told.items() if k in _TABLE_FIELDS}, "extra": extra}, TableState
    )


def play(
    game: str | None,
    *,
    script: Path | str | None = None,
    seed: int = 1,
    players: int = 2,
    profile: str | None = None,
    options: Sequence[str] = (),
    setup: Path | None = None,
    words: Path | None = None,
    humans: str | None = None,
    journal: Path | None = None,
    frames: Path | None = None,
    resume: int | None = None,
    lobby: bool = False,
) -> SimRun:
    """Play ``game`` in simulation as ``tabletop sim`` does: the script's lines (a file,
    or the script's text), else the computer for every seat.

    ``options`` are ``--option`` pairs (``"balls=8"``) and ``humans`` the ``--humans``
    seats; they are checked as the command line checks them (its errors are raised).
    ``lobby``: start at the start menu (``--lobby``; ``game`` is then its first choice).
    """
    lines: list[Line] | None = None
    if isinstance(script, Path):
        lines = parse_all(script.read_text(encoding="utf-8"), str(script))
    elif script is not None:
        lines = parse_all(script)
    chosen: dict[str, Any] = {}
    if lobby:
        flags = {"option": list(options), "setup": setup, "humans": humans}
        _check_lobby(Namespace(**flags, profile=profile, game=game), lines is not None)
    else:
        assert game is not None, "give a game, or lobby=True"
        check_sim(game, profile, computer=lines is None)
        chosen = game_options(game, options, setup, players, words)
    seats = _humans(humans, players, lines is not None)
    if frames is not None:
        _prepare_frames(frames)
    opts = SimOptions(
        game=game,
        players=players,
        seed=seed,
        profile=profile,
        journal=journal,
        frames=frames,
        options=chosen,
        resume=resume,
        humans=seats,
        lobby=lobby,
    )
    if lines is not None and journal is not None and not lobby:
        check_script(opts, lines)
    sim = Simulation(opts)
    run = SimRun(sim)

    def told(shown: dict[str, Any]) -> None:
        state = _state(shown)
        if isinstance(state, MenuShown):
            run.menus.append(state)
        else:
            run.states.append(state)

    try:
        if journal is not None and not lobby:
            sim.listeners.append(LiveFile(journal, sim.session.game_id))
        sim.listeners.append(told)
        sim.commits.append(run.played.append)
        if sim.on_table is not None:
            sim.on_table.refused.append(run.refusals.append)
        sim.start()
        if lines is not None:
            sim.run_script(with_board_cells(lines, sim.profile.cells))
        else:
            sim.play_computer()
    finally:
        sim.close()
    return run


class Play(Protocol):
    def __call__(
        self,
        game: str | None,
        *,
        script: Path | str | None = None,
        seed: int = 1,
        players: int = 2,
        profile: str | None = None,
        options: Sequence[str] = (),
        setup: Path | None = None,
        words: Path | None = None,
        humans: str | None = None,
        journal: Path | None = None,
        frames: Path | None = None,
        resume: int | None = None,
        lobby: bool = False,
    ) -> SimRun: ...


class RunSim(Protocol):
    def __call__(self, game: str, *args: str, code: int | None = 0) -> list[dict[str, Any]]: ...


def run_sim(game: str, *args: str, code: int | None = 0) -> list[dict[str, Any]]:
    """The JSON states of ``tabletop sim --game game --json *args``.

    The command must exit with ``code`` (unless it is None).
    """
    out = io.StringIO()
    returned = main(["sim", "--game", game, "--json", *args], out=out)
    if code is not None:
        assert returned == code
    return [json.loads(line) for line in out.getvalue().splitlines()]
