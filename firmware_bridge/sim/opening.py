"""The simulated table opened as the daemon's is: a game resumed from the journal or a
new one (its settings and board checked before the journal is made), shown on the
OLED first, then the board, the buzzer, the LED and the buttons, and the game put on
the table (or the start menu opened)."""

from __future__ import annotations

import random
from typing import Any

from msgspec import Struct

from games.core import Game
from wiring.loader import check_fits, load_profile

from ..journal import GameRecord, Journal
from ..kits import find_kit
from ..runtime.loop import Loop
from ..runtime.session import Session
from ..runtime.session_screen import oled_size
from .errors import SimError
from .options import SimOptions
from .rig import Rig
from .stream import Stream
from .table import SimTable, game_session
from .world import World


class OpenTable(Struct):
    """The parts of a simulated table once it is open."""

    table: SimTable
    rig: Rig
    world: World
    stream: Stream
    resumed: bool
    """Whether the game was resumed from the journal (its seed and options are its own)."""


class _Idle:
    """The table before its game is put on it."""

    now = 0.0

    def handle(self, event: Any) -> None:
        pass

    def wants_ticks(self) -> bool:
        return False

    def waits_for_board(self, event: Any) -> bool:
        return False


def open_table(opts: SimOptions) -> OpenTable:
    """The table ``opts`` describes, its game (or start menu) on it."""
    kit = find_kit(opts.game) if opts.game else None
    profile = load_profile(opts.profile or (kit.default_profile if kit is not None else "sim"))
    journal_path = opts.journal
    fresh: Game | None = None
    if kit is not None and not opts.lobby and (journal_path is None or not journal_path.exists()):
        # A new journal: settings the game refuses, or a board it does not fit,
        # stop before the journal file is made.
        fresh = kit.new_game(opts.players, random.Random(opts.seed), dict(opts.options or {}))
        problems = check_fits(profile, kit.name, fresh.cells())
        if problems:
            raise SimError("; ".join(problems))
    journal = Journal(journal_path if journal_path else ":memory:")
    record: GameRecord | None
    if journal_path and opts.resume is not None:
        record = journal.game(opts.resume)
    else:
        record = journal.unfinished() if journal_path else None
    if record is not None and kit is not None and record.game != kit.name:
        raise SimError(
            f"the journal {journal_path} holds an unfinished game of {record.game}; "
            f"use another --journal or --game {record.game}"
        )
    rig = Rig(profile, opts.seed, opts.frames)
    stream = Stream(rig.clock, oled_size(profile))
    table = SimTable(
        journal,
        profile,
        rig.devices(),
        stream=stream,
        save_to=journal_path.with_suffix(".board.json") if journal_path else None,
        menu_at=journal_path,
        seed=opts.seed,
        humans=opts.humans,
        levels=opts.levels,
        set_up_by_hand=opts.set_up_by_hand,
    )
    table.unseen = opts.unseen
    session: Session[Any] | None = None
    if record is not None:
        session = table.resume(record)
    elif not opts.lobby:
        assert kit is not None
        session = table.new_session(
            kit.name, opts.players, chosen=dict(opts.options or {}), game=fresh
        )
        # The simulated hand sets a new game's board up as it starts.
        session.restoring = False
    if session is not None:
        table.on_table = session
        if not session.restoring:
            # A resumed game's screen waits for the board: it asks for fixes.
            session.show_first()
    try:
        world = _open_board(table, rig, opts)
    except BaseException:
        rig.oled.close()
        raise
    if session is not None:
        table.put(session, record)
    return OpenTable(table, rig, world, stream, resumed=record is not None)


def _open_board(table: SimTable, rig: Rig, opts: SimOptions) -> World:
    """The board, the buzzer, the LED and the buttons, given to the table and the game
    on it; the start menu on the loop, with ``--lobby``."""
    rig.open_board(opts.firmware, lambda: game_session(table).game)
    table.devices["signals"] = rig.signals
    table.devices["lights"] = rig.lights
    if table.on_table is not None:
        table.on_table.signals = rig.signals
        table.on_table.lights = rig.lights
    world = World(tuple(table.profile.cells), rig.surface, table.save_to)
    table.world = world
    first: Any = table.open_menu(opts.game) if opts.lobby else _Idle()
    table.loop = Loop(first, rig.board)
    rig.open_buttons(table.loop.put)
    return world
