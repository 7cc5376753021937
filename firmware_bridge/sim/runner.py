"""``tabletop sim``: a game on simulated hardware, driven by a script or by the computer.

Every layer is the real one: gpiozero devices on mock pins wired as the profile
says, the real matrix scanner and settle filter, the real session and journal,
luma's dummy OLED. Only the hand that moves the pieces and presses the buttons
is simulated, on a fake clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.core import Action, Game, GameError, Player
from hardware.board import SensorBoard
from hardware.clock import FakeClock
from hardware.dice import DiceSource
from hardware.oled import dummy_oled
from wiring.loader import check_fits, load_profile
from wiring.profile import Profile

from ..decisions import Played
from ..fixes import Fix
from ..journal import GameRecord, Journal
from ..kits import Kit, find_kit
from ..lightsink import LightSink
from ..loop import Loop
from ..referee import TAKE_BACK
from ..session import Session
from ..table import new_session, open_display, open_inputs
from ..tags import TagTable
from .light_frames import LightFrames
from .script import GAME_VERBS, Line, ScriptError, seconds
from .world import Surface, World

if TYPE_CHECKING:
    from hardware.buttons import ButtonStation, SimButtons

    from ..link.simboard import SimulatedSerialBoard
    from ..lobby import Lobby, Start
    from .hands import Hand

# What the first frame does not need is imported once it is shown: gpiozero (the
# pins, buttons, buzzer and LED), the serial link and the simulated Pico, the start
# menu and the simulated hands.

DEFAULT_PACE_S = 0.25
"""How long a hand takes between two actions, unless the script says otherwise."""
MAX_PLIES = 2000
MENU_VERBS = ("press", "hold", "wait", "pace", "dice")
"""What a script may do while the start menu is open."""
SERIAL_STEP_S = 0.01
"""How often the simulated Pico runs its loop and the host reads the link."""
FIRMWARE_DEBOUNCE_S = 0.06
"""Margin for the Pico's own debounce before the host's settle window starts."""
LOOK_S = 30.0
"""The longest a hand waits for the OLED's answer (a press judged, a question asked)
before it goes on regardless."""


def _out_of_turn(game: Game, players: dict[int, Player]) -> Action | None:
    """What a seat that is not to move does now, if the rules let it and its player
    chooses to (the last passer ending a DoubleCross game)."""
    for seat in game.out_of_turn_seats():
        player = players.get(seat)
        action = player.out_of_turn(game, seat) if player is not None else None
        if action is not None:
            return action
    return None


class SimError(RuntimeError):
    """The simulation cannot be set up as asked."""


@dataclass
class SimOptions:
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


@dataclass(frozen=True)
class _NewGame:
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


class Simulation:
    """One simulated table: board, station, OLED, session and loop on a fake clock.

    With ``SimOptions.lobby`` it starts at the start menu, as the daemon does with no
    game to resume; after a game, ``ok`` opens the menu again.
    """

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
        self._session: Session[Any] | None = None
        self.lights: LightSink | None = None
        """The simulated Pico's LED chain, once the devices are open."""
        self.lobby: Lobby | None = None
        """The start menu, while it is open."""
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
            self._seat(session, begin)

    def _open_inputs(self) -> None:
        """The simulated board and its sensor board, the buttons, the buzzer and the LED."""
        from hardware.buttons import ButtonStation, SimButtons
        from hardware.pins import mock_pin_factory

        profile = self.profile
        cells = tuple(profile.cells)
        self.factory = mock_pin_factory()
        self.serial_sim: SimulatedSerialBoard | None = None
        port: str | None = None
        surface: Surface
        if profile.matrix is not None:
            from hardware.sim_matrix import SimulatedMatrix

            from .world import MatrixSurface

            self.matrix = SimulatedMatrix(self.factory, profile.matrix, cells)
            surface = MatrixSurface(self.matrix)
            self.interval = 1.0 / profile.matrix.scan_hz
        else:
            # Imported here: a board on GPIO does not need the serial link.
            from ..link.simboard import SimulatedSerialBoard, firmware_sensor
            from .world import SerialSurface

            assert profile.serial is not None
            wiring = profile.serial
            self.serial_sim = SimulatedSerialBoard(
                wiring.rows,
                wiring.columns,
                firmware_sensor(wiring.sensor),
                self.clock,
                cells=cells,
                timing=profile.timing,
                baudrate=wiring.baudrate,
                firmware=self.opts.firmware,
            )
            surface = SerialSurface(self.serial_sim, self.tags, wiring.sensor == "rfid")
            port = self.serial_sim.port_name
            self.interval = SERIAL_STEP_S
        devices = open_inputs(profile, self.clock, self.oled, pin_factory=self.factory, port=port)
        self.board: SensorBoard = devices.board
        self.signals = devices.signals
        self.lights = devices.lights
        if self.opts.frames is not None:
            self.lights = LightFrames(self.opts.frames, lambda: self.session.game, self.lights)
        if self._session is not None:
            self._session.signals = self.signals
            self._session.lights = self.lights
        self.world = World(cells, surface, self.save_to)
        self.step_s = self.interval
        """Simulated time between two scans: the board's own scan interval."""
        self.loop = Loop(self._menu(self.opts.game) if self.opts.lobby else _Idle(), self.board)
        self.station: ButtonStation = ButtonStation(
            profile.buttons, pin_factory=self.factory, clock=self.clock, on_event=self.loop.put
        )
        self.buttons: SimButtons = SimButtons(self.factory, profile.buttons, self.clock)

    def _menu(self, preselect: str | None) -> Lobby:
        from ..lobby import Lobby, Memory, lobby_choices, menu_file

        self.lobby = Lobby(
            lobby_choices(self.profile, table=False),
            self.oled,
            preselect,
            Memory(menu_file(self.opts.journal)),
        )
        self._lobby_text = None
        return self.lobby

    def _play(self, kit: Kit, begin: GameRecord | Start) -> None:
        """Put a game on the table: the journal's unfinished one, or a new one."""
        self._seat(self._new_session(kit, begin), begin)

    def _new_session(self, kit: Kit, begin: GameRecord | Start | _NewGame) -> Session[Any]:
        """The session of the game ``begin`` names (journaled, if it is new), its
        computer seats taken."""
        profile = self.profile
        self.kit = kit
        if isinstance(begin, GameRecord):
            game_id = begin.id
            game, last_played = Session.rebuild(self.journal, game_id, kit.new_game)
            self._check_fits(game)
        else:
            last_played = None
            options = dict(begin.options)
            game = self._fresh or kit.new_game(
                begin.players, random.Random(self.opts.seed), options
            )
            self._fresh = None
            self._check_fits(game)  # before the journal holds a game that cannot start
            game_id = self.journal.new_game(
                kit.name, begin.players, self.opts.seed, options, profile.name
            )
        session = new_session(
            kit,
            game,
            self.journal,
            game_id,
            display=self.oled,
            signals=self.signals,
            profile=profile,
            labels=self.tags.lookup,
            dice=self.dice,
            last_played=last_played,
            lights=self.lights,
        )
        self._session = session
        if not isinstance(begin, GameRecord):
            computer = begin.computer
            if self.opts.humans is not None:
                computer = frozenset(range(game.players)) - self.opts.humans
            if computer:
                session.seat_computer(computer)
            # The simulated hand sets a new game's board up as it starts; one started
            # from the menu waits for it, as the daemon's does.
            session.restoring = self.lobby is not None
        else:
            session.restoring = True
        return session

    def _seat(self, session: Session[Any], begin: GameRecord | Start | _NewGame) -> None:
        """Put the session on the table: the hand that plays it, its listeners, the
        pieces on the board, and the loop's events."""
        from .hands import hand_for

        game = session.game
        self._hand: Hand[Any] = hand_for(session.referee)
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
        self.lobby = None
        self.loop.switch(session)

    @property
    def session(self) -> Session[Any]:
        """The game's session (the last game's, while the start menu is open after it)."""
        if self._session is None:
            raise SimError("no game is on the table yet: the start menu is open")
        return self._session

    def _check_fits(self, game: Game) -> None:
        problems = check_fits(self.profile, self.kit.name, game.cells())
        if problems:
            raise SimError("; ".join(problems))

    @property
    def hand(self) -> Hand[Any]:
        """The hand for the session's referee (a take-back gives the game a new one)."""
        if self._hand.referee is not self.session.referee:
            from .hands import hand_for

            self._hand = hand_for(self.session.referee)
        return self._hand

    def start(self) -> None:
        """Switch on: the first scans settle and the OLED shows the first screen.

        The state is built for the ``--json`` stream only when someone listens by now.
        """
        session = self._session
        if self.listeners and session is not None and self._on_state not in session.listeners:
            session.listeners.append(self._on_state)
        if self.lobby is not None:
            self.lobby.refresh()
        self.advance(0.5)
        # The table reads its board before play starts (the first snapshot of a swept
        # board waits for two sweeps).
        end = self.clock.now() + LOOK_S
        while not self.loop.board_read and self.clock.now() < end:
            self.advance(self.step_s)
        self._watch_board(looks=True)

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
        ok is pressed after a game."""
        lobby = self.lobby
        if lobby is not None:
            if lobby.chosen is not None:
                try:
                    self._play(find_kit(lobby.chosen.game), lobby.chosen)
                except (GameError, SimError) as exc:
                    lobby.refused(str(exc))
            elif self.listeners:
                text = lobby.screen().text()
                if text != self._lobby_text:
                    self._lobby_text = text
                    self._emit_lobby(lobby, text)
            return
        session = self._session
        if (
            session is not None
            and session.game.outcome is not None
            and session.referee.new_game_requested
        ):
            session.listeners.clear()
            self.loop.switch(self._menu(session.game.name))

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

    # -- actions ------------------------------------------------------------------
    def check_line(self, line: Line) -> None:
        """Raise ScriptError if the line names a cell, a piece or a cable this table lacks."""
        try:
            self._check(line)
        except ValueError as exc:
            if isinstance(exc, ScriptError):
                raise
            raise line.error(str(exc)) from None

    def _check(self, line: Line) -> None:
        verb, args = line.verb, line.args
        if self.lobby is not None:
            return  # the game is not chosen yet: its lines are checked as they run
        if verb in ("place", "lift", "tap", "slide"):
            if verb == "place":
                cells = args[0].split(",")
            elif verb == "slide":
                cells = list(args)
            else:
                cells = [args[0]]
            for cell in cells:
                self.world.check(cell)
            if verb == "place":
                self.hand.piece_labels(cells, args[1] if len(args) > 1 else "piece")
        elif verb in ("unplug", "replug") and self.serial_sim is None:
            raise ValueError(f"'{verb}' needs a serial board; {self.profile.name} is on GPIO")
        elif verb in GAME_VERBS:
            from .hands import Hand

            if type(self.hand).script_steps is Hand.script_steps:
                raise ValueError(f"'{verb}' has no meaning in {self.kit.name}")
            self.hand.check_script_line(verb, args)

    def run_line(self, line: Line) -> None:
        """Carry out one script line; refuse one that moves a piece the player to move
        does not hold (unless written ``wrong ...``)."""
        try:
            if self.lobby is not None and line.verb not in MENU_VERBS:
                raise ValueError(
                    "the start menu is open: answer it with press lines (left, right, ok, back)"
                )
            self._check(line)
            self._check_mover(line)
            self._run(line)
        except ValueError as exc:
            if isinstance(exc, ScriptError):
                raise
            raise line.error(str(exc)) from None

    def _check_mover(self, line: Line) -> None:
        if line.deliberate or line.verb not in ("place", "lift", "slide") or self.lobby:
            return
        session = self.session
        if session.game.outcome is not None or session.restoring or session.pending_fixes():
            return
        cells = line.args[0].split(",")
        labels: list[str] = []
        if line.verb == "place":
            labels = self.hand.piece_labels(cells, line.args[1] if len(line.args) > 1 else "piece")
            layout = session.game.layout()
            if all(
                cell in layout and layout[cell].label == label
                for cell, label in zip(cells, labels, strict=True)
            ):
                return  # put back where the game has it: a fix, whether or not shown yet
        why = self.hand.not_the_movers(line.verb, cells, labels, dict(self.world.contents))
        if why is not None:
            raise line.error(
                f"{why}: a script moves the pieces of the player to move "
                f"(write 'wrong {line.text()}' to make that mistake on purpose)"
            )

    def _run(self, line: Line) -> None:
        verb, args = line.verb, line.args
        if verb == "place":
            cells = args[0].split(",")
            piece = args[1] if len(args) > 1 else "piece"
            labels = self.hand.piece_labels(cells, piece)
            fixing = self._fixing()
            for cell, label in zip(cells, labels, strict=True):
                self.world.place(cell, label)
            self.advance(self.pace)
            self._watch_board(self.hand.judged_as_laid or self._fixed(fixing))
        elif verb == "lift":
            fixing = self._fixing()
            self.world.lift(args[0])
            self.advance(self.pace)
            self._watch_board(self._fixed(fixing))
        elif verb == "slide":
            fixing = self._fixing()
            label = self.world.lift(args[0])
            self.advance(0.04)
            for over in args[1:-1]:
                self.world.place(over, label)
                self.advance(0.06)
                self.world.lift(over)
                self.advance(0.02)
            self.world.place(args[-1], label)
            self.advance(self.pace)
            self._watch_board(self.hand.judged_as_laid or self._fixed(fixing))
        elif verb == "tap":
            self.world.place(args[0], "hand")
            self.advance(seconds(line, 1, 0.05))
            self.world.lift(args[0])
            self.advance(self.pace)
        elif verb == "press":
            self.buttons.press(args[0])
            self.advance(self.pace)
            self.look()
        elif verb == "hold":
            self.buttons.hold(args[0], seconds(line, 1, self.profile.buttons.hold_time + 0.2))
            self.advance(self.pace)
            self.look()
        elif verb == "wait":
            self.advance(seconds(line, 0, 0))
        elif verb == "dice":
            self.dice.load(tuple(int(v) for v in args))
        elif verb == "blank":
            menu = self.session.referee.menu
            if len(args) > 1 and menu is not None and menu.subject.upper() != args[1].upper():
                raise ValueError(
                    f"the OLED asks about the blank on {menu.subject}, not on {args[1]}"
                )
            self.choose(args[0].upper())
        elif verb in ("unplug", "replug"):
            assert self.serial_sim is not None, "checked by check_line"
            if verb == "unplug":
                self.serial_sim.unplug()
                self.advance(self.pace)
            else:
                self.serial_sim.replug()
                self.advance(self.pace)
                # A person who plugs the cable back looks for the board on the OLED
                # (the daemon retries the port at longer and longer intervals).
                end = self.clock.now() + LOOK_S
                while self._session is not None and not self._session.connected:
                    if self.clock.now() >= end:
                        break
                    self.advance(self.step_s)
        elif verb == "pace":
            self.pace = seconds(line, 0, DEFAULT_PACE_S)
        elif verb == "takeback":
            self.buttons.hold("back", self.profile.buttons.hold_time + 0.2)
            self.advance(self.pace)
            self.look()
            self.choose(TAKE_BACK)
        elif (steps := self.hand.script_steps(verb, args)) is not None:
            for step in steps:
                self._run(Line(line.source, line.lineno, step[0], tuple(step[1:])))
        else:
            raise line.error(f"'{verb}' has no meaning in {self.kit.name}")

    def _fixing(self) -> list[Fix]:
        """The fixes the OLED lists now (none while the menu is open)."""
        session = self._session
        return session.pending_fixes() if session is not None and self.lobby is None else []

    def _fixed(self, fixes: list[Fix]) -> bool:
        """Whether the hand has made every one of ``fixes``: a person who made every fix
        the OLED listed looks at it again (for what comes next) before going on."""
        contents = self.world.contents
        for fix in fixes:
            if fix.action == "lift" and fix.cell in contents:
                return False
            if fix.action == "place" and (
                fix.cell not in contents
                or (fix.piece is not None and contents[fix.cell] != fix.piece.label)
            ):
                return False
        return bool(fixes)

    def _watch_board(self, looks: bool = False) -> None:
        """Wait until the settled board reads every piece where the simulated world has it:
        the computer's quick hand after each step, and a person (``looks``) after laying
        a piece the game judges as it lands or making the last of the fixes the OLED
        listed, who reads the OLED before going on."""
        if not (self.watch_board or looks) or self._session is None or self.lobby is not None:
            return
        end = self.clock.now() + LOOK_S
        while (
            self._session.observation != self.world.readings()
            and self.clock.now() < end
            and not self._held_up()
        ):
            self.advance(self.step_s)

    def look(self) -> None:
        """As a person at the table: wait until the presses made have been judged (the
        board is being read meanwhile) before the next action."""
        end = self.clock.now() + LOOK_S
        while (
            (self.loop.waiting or not self.loop.events.empty())
            and self.clock.now() < end
            and not self._held_up()
        ):
            self.advance(self.step_s)

    def _held_up(self) -> bool:
        """Whether the OLED says the table is held up (a full disk, the board offline):
        a person reads that and does not wait for the board."""
        session = self._session
        return session is not None and (session.disk_full is not None or not session.connected)

    def choose(self, value: object) -> None:
        """Answer the open menu with ``value``, pressing right and ok as a player would:
        once the OLED asks (a piece laid is asked about once the board has read it)."""
        end = self.clock.now() + LOOK_S
        while self.session.referee.menu is None and self.clock.now() < end:
            self.advance(self.step_s)
        referee = self.session.referee
        menu = referee.menu
        if menu is None:
            raise ValueError("nothing is being asked on the OLED now")
        values = [v for _, v in menu.options]
        if value not in values:
            raise ValueError(f"{value} is not one of the choices ({menu.title})")
        while referee.menu is menu and menu.choice != value:
            self.buttons.press("right")
            self.advance(0.05)
        self.buttons.press("ok")
        self.advance(self.pace)
        self.look()

    def run_script(self, lines: Iterable[Line]) -> None:
        """Run script lines; a script given whole is checked whole before anything runs.

        Lines read from a pipe are checked one by one as they arrive.
        """
        if isinstance(lines, Sequence):
            for line in lines:
                self.check_line(line)
        for line in lines:
            self.play_computer_seats()
            self.run_line(line)
        self.play_computer_seats()
        # The last lines' pieces are shown once the board has read them.
        self._watch_board(looks=True)
        self.look()

    def play_computer_seats(self) -> None:
        """While a computer seat is to move, carry out the move the OLED shows."""
        if self._session is None or self.lobby is not None:
            return
        for _ in range(MAX_PLIES):
            expected = self.session.expected()
            if expected is None or self.session.game.outcome is not None:
                return
            if self.session.restoring:
                self.set_up()
            game = self.session.game
            before = len(game.history)
            for step in self.hand.steps(expected):
                self._run(Line("computer", before + 1, step[0], tuple(step[1:])))
            if len(self.session.game.history) == before:
                raise SimError(
                    f"the board did not take the computer's move {expected.to_dict()}: "
                    f"{self.session.state()['oled']}"
                )
        raise SimError(f"the computer seats did not stop within {MAX_PLIES} moves")

    def _player(self, players: dict[int, Player], game: Game) -> Player:
        """The computer player of the seat to move (made the first time it moves; a
        new random draw every move, as the seeded games have always been played)."""
        made = self.kit.make_player(game, random.Random(self.rng.random()))
        return players.setdefault(game.to_move, made)

    def play_computer(
        self, max_plies: int = MAX_PLIES, choose: Callable[[Game], Action] | None = None
    ) -> None:
        """The computer plays every seat until the game ends.

        ``choose`` picks the actions instead of the computer's players (a test that
        replays a known game). A resumed game first gets its board set up as the
        OLED asks, so a game stopped half-way through a move plays on.
        """
        players: dict[int, Player] = {}
        plies = 0
        # A computer's hand is quick: just long enough for each step to settle.
        self.pace = self.profile.settle_ms / 1000 + 2 * self.interval
        self.watch_board = True
        if self.serial_sim is not None:
            self.pace += FIRMWARE_DEBOUNCE_S
            if self.serial_sim.timing is not None:
                # The simulated Pico keeps its own time between the host's reads, so
                # reading the link a few times per settle window shows the host every
                # frame at most that late, for far less work (the hand waits for the
                # board to be read before each step anyway).
                self.step_s = max(self.interval, self.profile.settle_ms / 1000 / 3)
        else:
            # The computer's hand changes the board only between steps, so scanning
            # a few times per settle window sees exactly what scanning at the
            # board's rate would, for far less work.
            self.step_s = max(self.interval, self.profile.settle_ms / 1000 / 2)
            self.pace = self.profile.settle_ms / 1000 + 2 * self.step_s
        self.set_up()
        while self.session.game.outcome is None:
            # Read each time: a take-back or a full disk gives the session a new game.
            game = self.session.game
            if plies >= max_plies:
                raise SimError(f"the game did not end within {max_plies} moves")
            expected = self.session.expected()
            if choose is not None:
                action = choose(game)
            elif expected is not None:
                action = expected  # the move the OLED shows for a computer seat
            else:
                action = _out_of_turn(game, players) or self._player(players, game).choose(game)
            before = len(game.history)
            for step in self.hand.steps(action):
                self._run(Line("computer", plies + 1, step[0], tuple(step[1:])))
            if len(self.session.game.history) == before:
                raise SimError(
                    f"the board did not take the computer's move {action.to_dict()}: "
                    f"{self.session.state()['oled']}"
                )
            plies += 1

    def set_up(self) -> None:
        """Make the fixes a resumed game asks for, one by one, as a player reading the OLED."""
        for _ in range(2 * len(self.world.cells) + 10):
            fixes = self.session.pending_fixes() if self.session.restoring else []
            if not fixes:
                return
            fix = fixes[0]
            held = fix.cell in self.world.contents
            if fix.action == "lift" and held:
                self.world.lift(fix.cell)
            elif fix.action == "place" and not held:
                self.world.place(fix.cell, fix.piece.label if fix.piece else "piece")
            # Otherwise the sensors have not yet reported what stands there: wait.
            self.advance(self.pace)
        raise SimError(f"the board could not be set up: {self.session.state()['oled']}")

    def final(self) -> dict[str, Any]:
        if self._session is None:
            return {
                "final": True,
                "game": None,
                "lobby": self.lobby.stage if self.lobby is not None else None,
                "scores": {},
                "winner": None,
                "outcome": None,
                "moves": 0,
                "journal_game": None,
            }
        game = self.session.game
        outcome = game.outcome
        winner: Any = None
        if outcome is not None and not outcome.draw:
            names = [game.seat_name(p) for p in outcome.winners]
            winner = names[0] if len(names) == 1 else names
        return {
            "final": True,
            "game": game.name,
            "scores": {game.seat_name(p): s for p, s in enumerate(game.scores())},
            "winner": winner,
            "outcome": outcome.to_dict() if outcome else None,
            "moves": len(game.history),
            "journal_game": self.session.game_id,
        }
