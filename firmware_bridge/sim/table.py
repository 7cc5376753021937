"""The simulator's table: set up as the daemon's is, with a game resumed from the
journal or a new one (its settings and board checked first), the computer's seats
taken, the start menu before and after a game, and simulated time passing as the
daemon's loop would let it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from games.core import Game, GameError
from hardware.board import SensorBoard
from hardware.buttons import ButtonStation, SimButtons
from hardware.clock import FakeClock
from hardware.dice import DiceSource
from hardware.oled import dummy_oled
from wiring.loader import check_fits, load_profile
from wiring.profile import Profile

from ..journal import GameRecord, Journal
from ..kits import Kit, find_kit
from ..referees.decisions import Played
from ..runtime.host import TableHost
from ..runtime.lightsink import LightSink
from ..runtime.loop import Loop
from ..runtime.session import Session
from ..runtime.table import open_display, open_inputs
from ..runtime.tags import TagTable
from .devices import simulated_sensors
from .light_frames import LightFrames
from .world import World

if TYPE_CHECKING:
    from hardware.buttons import ButtonStation, SimButtons

    from ..kits.hand import Hand
    from ..runtime.lobby import Lobby, Start
    from .pico.simboard import SimulatedSerialBoard

# What the first frame does not need is imported once it is shown: gpiozero (the
# pins, buttons, buzzer and LED), the serial link and the simulated Pico, the start
# menu and the simulated hands.

DEFAULT_PACE_S = 0.25
"""How long a hand takes between two actions, unless the script says otherwise."""
LOOK_S = 30.0
"""The longest a hand waits for the OLED's answer (a press judged, a question asked)
before it goes on regardless."""


class SimError(RuntimeError):
    """The simulation cannot be set up as asked."""


class SimOptions(Struct):
    game: str | None
    """The game (None: the start menu chooses it)."""
    players: int = 2
    seed: int = 1
    profile: str | None = None
    journal: Path | None = None
    frames: Path | None = None
    options: dict[str, Any] | None = None
    resume: int | None = None
    """The id of the journal's game to play on (default: its newest unfinished one)."""
    lobby: bool = False
    """Start at the start menu (``--lobby``); ``game`` is then only its first choice."""
    humans: frozenset[int] | None = None
    """The seats people play (from 0), the script moving for them; the computer plays
    the others, its moves shown on the OLED and carried out by the simulated hand.
    None: no seat is the computer's at the table (the script, or else the simulated
    players, move for every seat)."""
    firmware: str = "python"
    """What runs a serial board's firmware: ``"python"`` (in this process) or
    ``"micropython"`` (the MicroPython unix port, with a Pico-sized heap)."""


class _NewGame(Struct, frozen=True):
    """A new game given on the command line (the start menu gives a ``Start``)."""

    players: int
    options: dict[str, Any]
    computer: frozenset[int] = frozenset()


class _Idle:
    """The table before its game is put on it."""

    now = 0.0

    def handle(self, event: Any) -> None:
        pass

    def wants_ticks(self) -> bool:
        return False

    def waits_for_board(self, event: Any) -> bool:
        return False


class SimTable(TableHost):
    """The simulated table: board, station, OLED, session and loop on a fake clock; what
    is on it is put there as on the daemon's (:class:`..runtime.host.TableHost`)."""

    loop: Loop
    """The one loop, from the moment the simulated board is open."""

    def __init__(self, opts: SimOptions) -> None:
        self.opts = opts
        kit = find_kit(opts.game) if opts.game else None
        self.profile: Profile = load_profile(
            opts.profile or (kit.default_profile if kit is not None else "sim")
        )
        self.clock = FakeClock()
        self.pace = DEFAULT_PACE_S
        self.watch_board = False
        """The computer's quick hand: after each piece it moves, it waits until the board
        has read the piece (the OLED shows it) before the next step."""
        self.rng = random.Random(opts.seed)
        self.dice = DiceSource.seeded(opts.seed)
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.commits: list[Callable[[Played], None]] = []
        """Called with every accepted action, in order, automatic passes included."""
        self.lights: LightSink | None = None
        """The simulated Pico's LED chain, once the devices are open."""
        self._lobby_text: list[str] | None = None
        self.signals: Any = None
        """The buzzer and LED, once the table's inputs are open."""
        self._build(kit)

    # -- set-up ---------------------------------------------------------------------
    def _build(self, kit: Kit | None) -> None:
        """Set the table up as the daemon does: the game first, shown on the OLED, then
        the board, the buttons, the buzzer and the LED."""
        profile = self.profile
        journal_path = self.opts.journal
        options = dict(self.opts.options or {})
        self._fresh: Game | None = None
        if (
            kit is not None
            and not self.opts.lobby
            and (journal_path is None or not journal_path.exists())
        ):
            # A new journal: settings the game refuses, or a board it does not fit,
            # stop before the journal file is made.
            self.kit = kit
            self._fresh = kit.new_game(self.opts.players, random.Random(self.opts.seed), options)
            self._check_fits(self._fresh)
        self.journal = Journal(journal_path if journal_path else ":memory:")
        record: GameRecord | None
        if journal_path and self.opts.resume is not None:
            record = self.journal.game(self.opts.resume)
        else:
            record = self.journal.unfinished() if journal_path else None
        if record is not None and kit is not None and record.game != kit.name:
            raise SimError(
                f"the journal {journal_path} holds an unfinished game of {record.game}; "
                f"use another --journal or --game {record.game}"
            )
        if record is not None:
            kit = find_kit(record.game)
        self.resumed = record is not None
        """Whether the game was resumed from the journal (its seed and options are its own)."""
        self.save_to = journal_path.with_suffix(".board.json") if journal_path else None
        self.tags = TagTable()
        self.oled = open_display(
            profile, oled_device=dummy_oled(profile.oled), frames_dir=self.opts.frames
        )
        devices = {
            "display": self.oled,
            "signals": None,
            "labels": self.tags.lookup,
            "dice": self.dice,
            "lights": None,
        }
        super().__init__(
            self.journal,
            profile,
            devices,
            misfit=SimError,
            refusals=(GameError, SimError),
            menu_at=self.opts.journal,
            table_options=False,
        )
        begin: GameRecord | _NewGame | None = None
        if record is not None:
            begin = record
        elif not self.opts.lobby:
            begin = _NewGame(self.opts.players, dict(self.opts.options or {}))
        session = None
        if begin is not None:
            assert kit is not None
            session = self._new_session(kit, begin)
            if not session.restoring:
                # A resumed game's screen waits for the board: it asks for fixes.
                session.show_first()
        try:
            self._open_inputs()
        except BaseException:
            self.oled.close()
            raise
        if session is not None:
            assert begin is not None
            self.put(session, begin)

    def _open_inputs(self) -> None:
        """The simulated board and its sensor board, the buttons, the buzzer and the LED."""
        profile = self.profile
        cells = tuple(profile.cells)
        sensors = simulated_sensors(profile, self.clock, self.tags, self.opts.firmware)
        self.factory = sensors.factory
        self.serial_sim: SimulatedSerialBoard | None = sensors.serial_sim
        if sensors.matrix is not None:
            self.matrix = sensors.matrix
        self.interval = sensors.interval
        port = sensors.port
        surface = sensors.surface
        devices = open_inputs(profile, self.clock, self.oled, pin_factory=self.factory, port=port)
        self.board: SensorBoard = devices.board
        self.signals = devices.signals
        self.lights = devices.lights
        if self.opts.frames is not None:
            self.lights = LightFrames(self.opts.frames, lambda: self.session.game, self.lights)
        self.devices["signals"] = self.signals
        self.devices["lights"] = self.lights
        if self.on_table is not None:
            self.on_table.signals = self.signals
            self.on_table.lights = self.lights
        self.world = World(cells, surface, self.save_to)
        self.step_s = self.interval
        """Simulated time between two scans: the board's own scan interval."""
        first: Any = self.open_menu(self.opts.game) if self.opts.lobby else _Idle()
        self.loop = Loop(first, self.board)
        self.station: ButtonStation = ButtonStation(
            profile.buttons, pin_factory=self.factory, clock=self.clock, on_event=self.loop.put
        )
        self.buttons: SimButtons = SimButtons(self.factory, profile.buttons, self.clock)

    def menu_opened(self, lobby: Lobby) -> None:
        self._lobby_text = None

    def begin(self, chosen: Start) -> None:
        """Put the game the start menu chose on the table."""
        self.put(self._new_session(find_kit(chosen.game), chosen), chosen)

    def _new_session(self, kit: Kit, begin: GameRecord | Start | _NewGame) -> Session[Any]:
        """The session of the game ``begin`` names (journaled, if it is new), its
        computer seats taken."""
        self.kit = kit
        session: Session[Any]
        if isinstance(begin, GameRecord):
            session = self.resume(begin)
            self.on_table = session
            return session
        computer = begin.computer
        if self.opts.humans is not None:
            computer = frozenset(range(begin.players)) - self.opts.humans
        game, self._fresh = self._fresh, None
        session = self.start_game(
            kit, begin.players, self.opts.seed, dict(begin.options), computer=computer, game=game
        )
        self.on_table = session
        # The simulated hand sets a new game's board up as it starts; one started
        # from the menu waits for it, as the daemon's does.
        session.restoring = self.lobby is not None
        return session

    def seated(self, session: Session[Any], begin: Any) -> None:
        """The session is on the table: the hand that plays it, its listeners, the
        pieces on the board, and the loop's events."""
        game = session.game
        # The hand's module is imported here, after the first frame (test_first_frame).
        self._hand: Hand[Any] = find_kit(game.name).hand_for(session.referee)
        session.played.append(self._on_played)
        if self.listeners:
            session.listeners.append(self._on_state)
        if isinstance(begin, GameRecord):
            saved = World.saved(self.save_to) if self.save_to else None
            if saved is None:
                saved = {c: p.label for c, p in game.layout().items()}
            self.world.save_to = None
            self.world.load(saved)
            self.world.save_to = self.save_to
        else:
            self.world.load({c: p.label for c, p in game.layout().items()})
        self.loop.switch(session)

    @property
    def session(self) -> Session[Any]:
        """The game's session (the last game's, while the start menu is open after it)."""
        if self.on_table is None:
            raise SimError("no game is on the table yet: the start menu is open")
        return self.on_table

    def _check_fits(self, game: Game) -> None:
        problems = check_fits(self.profile, self.kit.name, game.cells())
        if problems:
            raise SimError("; ".join(problems))

    def close(self) -> None:
        self.station.close()
        self.signals.close()
        self.board.close()
        if self.serial_sim is not None:
            self.serial_sim.close()
        self.oled.close()
        self.journal.close()
        self.factory.reset()

    def _after_step(self) -> None:
        """As the daemon's table: start the game the menu chose, or open the menu when
        ok is pressed after a game; else tell the listeners what the open menu shows."""
        moved_on = self.after_step()
        lobby = self.lobby
        if not moved_on and lobby is not None and self.listeners:
            text = lobby.screen().text()
            if text != self._lobby_text:
                self._lobby_text = text
                self._emit_lobby(lobby, text)

    def _emit_lobby(self, lobby: Lobby, text: list[str]) -> None:
        state = {"t": round(self.clock.now(), 3), "lobby": lobby.stage, "oled": text}
        for listener in self.listeners:
            listener(state)

    # -- time ---------------------------------------------------------------------
    def advance(self, seconds_: float) -> None:
        """Let simulated time pass, scanning and handling events as the daemon would."""
        dt = self.step_s
        end = self.clock.now() + seconds_
        self._step()
        while self.clock.now() < end - 1e-9:
            self.clock.advance(min(dt, end - self.clock.now()))
            self._step()

    def _step(self) -> None:
        now = self.clock.now()
        if self.serial_sim is not None:
            self.serial_sim.step(now)
        self.loop.step(now)
        self._after_step()
        # As in the daemon: sounds start once the step has drawn its frame.
        self.signals.release()

    def _on_state(self, state: dict[str, Any]) -> None:
        stamped = {"t": round(self.clock.now(), 3), **state}
        for listener in self.listeners:
            listener(stamped)

    def _on_played(self, played: Played) -> None:
        for hook in self.commits:
            hook(played)
