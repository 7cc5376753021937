"""The simulator's script interpreter: each script line (place, lift, slide, tap,
press, hold, wait, dice, a blank's letter, unplug, take back, a game's own verbs)
checked against the table, then carried out by the simulated hand at a person's pace,
looking at the OLED where a person would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..kits import Kit, find_kit
from ..referees.fixes import Fix
from ..referees.referee import TAKE_BACK
from ..runtime.session import Session
from .rig import Rig
from .script import GAME_VERBS, Line, ScriptError, seconds
from .stepper import Stepper
from .table import SimTable, game_session
from .world import World

if TYPE_CHECKING:
    from ..kits.hand import Hand

DEFAULT_PACE_S = 0.25
"""How long a hand takes between two actions, unless the script says otherwise."""
LOOK_S = 30.0
"""The longest a hand waits for the OLED's answer (a press judged, a question asked)
before it goes on regardless."""
MENU_VERBS = ("press", "hold", "wait", "pace", "dice")
"""What a script may do while the start menu is open."""


class ScriptInterpreter:
    """The simulated hand at the table, carrying out a script's lines on the world,
    the buttons and the dice, as time passes."""

    def __init__(self, table: SimTable, rig: Rig, world: World, time: Stepper) -> None:
        self.table = table
        self.rig = rig
        self.world = world
        self.time = time
        self.pace = DEFAULT_PACE_S
        self.watch_board = False
        """The computer's quick hand: after each piece it moves, it waits until the board
        has read the piece (the OLED shows it) before the next step."""
        self._hand: Hand[Any] | None = None

    @property
    def session(self) -> Session[Any]:
        """The game's session (the last game's, while the start menu is open after it)."""
        return game_session(self.table)

    @property
    def kit(self) -> Kit:
        """The kit of the game on the table."""
        return find_kit(self.session.game.name)

    @property
    def hand(self) -> Hand[Any]:
        """The hand for the session's referee (a take-back gives the game a new one)."""
        referee = self.session.referee
        if self._hand is None or self._hand.referee is not referee:
            self._hand = self.kit.hand_for(referee)
        return self._hand

    def advance(self, seconds_: float) -> None:
        self.time.advance(seconds_)

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
        if self.table.lobby is not None:
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
        elif verb in ("unplug", "replug") and self.rig.serial_sim is None:
            raise ValueError(f"'{verb}' needs a serial board; {self.table.profile.name} is on GPIO")
        elif verb in GAME_VERBS:
            from ..kits.hand import Hand

            if type(self.hand).script_steps is Hand.script_steps:
                raise ValueError(f"'{verb}' has no meaning in {self.kit.name}")
            self.hand.check_script_line(verb, args)

    def run_line(self, line: Line) -> None:
        """Carry out one script line; refuse one that moves a piece the player to move
        does not hold (unless written ``wrong ...``)."""
        try:
            if self.table.lobby is not None and line.verb not in MENU_VERBS:
                raise ValueError(
                    "the start menu is open: answer it with press lines (left, right, ok, back)"
                )
            self._check(line)
            self._check_mover(line)
            self.carry_out(line)
        except ValueError as exc:
            if isinstance(exc, ScriptError):
                raise
            raise line.error(str(exc)) from None

    def _check_mover(self, line: Line) -> None:
        if line.deliberate or line.verb not in ("place", "lift", "slide") or self.table.lobby:
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

    def carry_out(self, line: Line) -> None:
        verb, args = line.verb, line.args
        if verb == "place":
            cells = args[0].split(",")
            piece = args[1] if len(args) > 1 else "piece"
            labels = self.hand.piece_labels(cells, piece)
            fixing = self._fixing()
            for cell, label in zip(cells, labels, strict=True):
                self.world.place(cell, label)
            self.advance(self.pace)
            self.wait_for_board(self.hand.judged_as_laid or self._fixed(fixing))
        elif verb == "lift":
            fixing = self._fixing()
            self.world.lift(args[0])
            self.advance(self.pace)
            self.wait_for_board(self._fixed(fixing))
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
            self.wait_for_board(self.hand.judged_as_laid or self._fixed(fixing))
        elif verb == "tap":
            self.world.place(args[0], "hand")
            self.advance(seconds(line, 1, 0.05))
            self.world.lift(args[0])
            self.advance(self.pace)
        elif verb == "press":
            self.rig.buttons.press(args[0])
            self.advance(self.pace)
            self.look()
        elif verb == "hold":
            hold_s = seconds(line, 1, self.table.profile.buttons.hold_time + 0.2)
            self.rig.buttons.hold(args[0], hold_s)
            self.advance(self.pace)
            self.look()
        elif verb == "wait":
            self.advance(seconds(line, 0, 0))
        elif verb == "dice":
            self.rig.dice.load(tuple(int(v) for v in args))
        elif verb == "blank":
            menu = self.session.facts.prompt.menu
            if len(args) > 1 and menu is not None and menu.subject.upper() != args[1].upper():
                raise ValueError(
                    f"the OLED asks about the blank on {menu.subject}, not on {args[1]}"
                )
            self.choose(args[0].upper())
        elif verb in ("unplug", "replug"):
            assert self.rig.serial_sim is not None, "checked by check_line"
            if verb == "unplug":
                self.rig.serial_sim.unplug()
                self.advance(self.pace)
            else:
                self.rig.serial_sim.replug()
                self.advance(self.pace)
                # A person who plugs the cable back looks for the board on the OLED
                # (the daemon retries the port at longer and longer intervals).
                end = self.rig.clock.now() + LOOK_S
                while self.table.on_table is not None and not self.table.on_table.connected:
                    if self.rig.clock.now() >= end:
                        break
                    self.advance(self.time.step_s)
                # Then reads it there as it stands: what was moved while the cable was
                # out is judged before the person's next move.
                self.wait_for_board(looks=True)
        elif verb == "pace":
            self.pace = seconds(line, 0, DEFAULT_PACE_S)
        elif verb == "takeback":
            self.rig.buttons.hold("back", self.table.profile.buttons.hold_time + 0.2)
            self.advance(self.pace)
            self.look()
            self.choose(TAKE_BACK)
        elif (steps := self.hand.script_steps(verb, args)) is not None:
            for step in steps:
                self.carry_out(Line(line.source, line.lineno, step[0], tuple(step[1:])))
        else:
            raise line.error(f"'{verb}' has no meaning in {self.kit.name}")

    def _fixing(self) -> list[Fix]:
        """The fixes the OLED lists now (none while the menu is open)."""
        session = self.table.on_table
        return session.pending_fixes() if session is not None and self.table.lobby is None else []

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

    def wait_for_board(self, looks: bool = False) -> None:
        """Wait until the settled board reads every piece where the simulated world has it:
        the computer's quick hand after each step, and a person (``looks``) after laying
        a piece the game judges as it lands or making the last of the fixes the OLED
        listed, who reads the OLED before going on."""
        table = self.table
        if not (self.watch_board or looks) or table.on_table is None or table.lobby is not None:
            return
        end = self.rig.clock.now() + LOOK_S
        while (
            table.on_table.observation != self.world.readings()
            and self.rig.clock.now() < end
            and not self._held_up()
        ):
            self.advance(self.time.step_s)

    def look(self) -> None:
        """As a person at the table: wait until the presses made have been judged (the
        board is being read meanwhile) before the next action."""
        end = self.rig.clock.now() + LOOK_S
        while (
            (self.table.loop.waiting or not self.table.loop.events.empty())
            and self.rig.clock.now() < end
            and not self._held_up()
        ):
            self.advance(self.time.step_s)

    def _held_up(self) -> bool:
        """Whether the OLED says the table is held up (a full disk, the board offline):
        a person reads that and does not wait for the board."""
        session = self.table.on_table
        return session is not None and (session.disk_full is not None or not session.connected)

    def choose(self, value: object) -> None:
        """Answer the open menu with ``value``, pressing right and ok as a player would:
        once the OLED asks (a piece laid is asked about once the board has read it)."""
        end = self.rig.clock.now() + LOOK_S
        while self.session.facts.prompt.menu is None and self.rig.clock.now() < end:
            self.advance(self.time.step_s)
        menu = self.session.facts.prompt.menu
        if menu is None:
            raise ValueError("nothing is being asked on the OLED now")
        values = [v for _, v in menu.options]
        if value not in values:
            raise ValueError(f"{value} is not one of the choices ({menu.title})")
        while self.session.facts.prompt.menu is menu and menu.choice != value:
            self.rig.buttons.press("right")
            self.advance(0.05)
        self.rig.buttons.press("ok")
        self.advance(self.pace)
        self.look()
