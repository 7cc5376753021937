"""Doubles Wild on the 9 × 9 board: the station rolls, the board takes balls.

How a turn goes at the table:

- **Roll**: ``roll`` rolls all four dice (red, red, blue, blue). Until a ball is
  played the player may re-roll once: ``left`` the red pair (the left-hand dice on the
  OLED), ``right`` the blue pair, ``roll`` both.
- **Place**: a ball put on an empty spot the roll allows is played at once; a ball
  put anywhere else is refused and must be lifted again.
- **Attack**: ``ok`` ends the rolling. If the roll names one spot and it holds an
  opponent's unprotected ball, the battle starts. When a wild line (or board) offers
  balls to attack, ``ok`` opens a chooser: ``left``/``right`` pick the ball (framed on
  the map), ``ok`` attacks it, ``back`` returns. ``ok`` also ends a turn whose roll
  allows no spot.
- **Battle**: the side to roll presses ``roll`` (all three dice, then one for each die
  not kept). Before its second and third rolls, ``left``/``right`` move a cursor
  under its dice and ``ok`` keeps or frees the die there.
- **After a battle** won by the attacker, the defender's ball comes off and the
  attacker's goes on. An occupancy sensor cannot see one ball swapped for another,
  so the referee waits for the spot to be seen empty and then filled; a tag reader
  sees the spot's tag change colour. A lost attack spends the attacker's ball;
  nothing changes on the board.

The board is an occupancy matrix (``doubles-wild-gpio``) or a reader per spot
(``doubles-wild-rfid-pico``) with every ball's tag enrolled under its colour
(``"blue"``, ``"red"``, ``"purple"``, ``"green"``). Each spot is judged by what it
reports: a tag is compared by colour, plain occupancy stands for any ball. So on a
tag board a ball of the wrong colour is refused (``that is a red ball; blue is to
play``), a ball that should stay but shows another colour must be put back, and a
tag that was never enrolled (or names no ball) is shown as such, never guessed: its
fix is to lift it.

Every roll is an engine action committed through the session, so the journal holds
the faces and a resumed game replays them. On a session with a display the rolled
dice tumble for ``TUMBLE_S`` through faces of a fixed sequence (never the station's
dice) before they settle on the rolled faces; timer ticks are asked for only while
they tumble. There is no resigning in Doubles Wild: a long ``back`` does nothing.
The board map draws the balls of the player whose turn it is filled and every other
colour outlined.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from games.core import Action, Cell, Piece, Verdict
from games.doubles_wild import (
    COLOURS,
    Attack,
    BattleRoll,
    BattleState,
    DoublesWild,
    EndTurn,
    Keep,
    Place,
    Reroll,
    Roll,
    dice_action,
)
from games.doubles_wild_actions import BATTLE_DICE, BATTLE_ROLLS
from hardware.board import OCCUPIED

from ..dice_faces import (
    TUMBLE_FRAME_S,
    TUMBLE_S,
    BattlePicture,
    BattleRow,
    RollPicture,
    tumble_faces,
)
from ..events import ButtonEvent
from ..fixes import Fix
from ..referee import Referee
from ..screens import Screen

_Face = TypeVar("_Face", int, int | None)

ROWS = range(3, 12)
"""Row and column numbers: two-dice sums without doubles."""

ROLL = "roll"
REROLL_OR_ACT = "reroll-or-act"
PLACE = "place"
BATTLE = "battle"

REROLL_BUTTONS = {"left": "red", "right": "blue", "roll": "both"}

SWEEP_WAIT_S = 0.05
"""How long a simulated hand waits after laying a ball on a reader board, beyond its
pace: the Pico's sweep reads a tag twice, 60 ms apart, before the host's settle
window starts, so a ball settles 0.21–0.22 s after it is laid (0.18 s on the GPIO
matrix): too close to a computer hand's 0.23 s pace to press the next button."""


def ball_colour(piece: str) -> str:
    """The colour a script names for a ball (``"Blue"`` → ``"blue"``).

    Raises ``ValueError`` naming the colours when ``piece`` is none of them.
    """
    colour = piece.strip().lower()
    if colour not in COLOURS:
        raise ValueError(
            f"a ball is laid by its colour, as 'place r7c5 blue' ({', '.join(COLOURS)}), "
            f"not {piece!r}"
        )
    return colour


@dataclass(frozen=True)
class Tumble:
    """Dice tumbling on the OLED after a roll, from ``start`` for ``TUMBLE_S``."""

    start: float
    seed: int
    """Numbers the roll (the moves played), so a replayed game tumbles alike."""
    rolling: tuple[bool, ...]
    """Which dice tumble: red, red, blue, blue for a turn's roll, or the three dice
    of battle side ``side``."""
    side: int | None = None

    def over(self, now: float) -> bool:
        return now - self.start >= TUMBLE_S - 1e-9

    def frame(self, now: float) -> int:
        """The tumbling faces shown at ``now``, counted from 0 at ``start``."""
        return int(max(0.0, now - self.start) / TUMBLE_FRAME_S + 1e-9)

    def faces(self, now: float, rolled: tuple[_Face, ...]) -> tuple[_Face | int, ...]:
        """What the dice show at ``now``: tumbling faces, and the others as rolled."""
        shown = tumble_faces(self.seed, self.frame(now), len(rolled))
        return tuple(s if r else f for s, r, f in zip(shown, self.rolling, rolled, strict=True))


def _cell_index(cell: Cell) -> tuple[int, int]:
    row, col = cell[1:].split("c")
    return int(row), int(col)


def _board_order(cells: set[Cell]) -> list[Cell]:
    return sorted(cells, key=_cell_index)


class DoublesWildReferee(Referee):
    game: DoublesWild

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.rejection = ""
        """Why the board was refused, in a few words for the OLED (empty: not refused)."""
        self.choosing = False
        """Whether ``left``/``right`` pick a ball to attack (after ``ok``)."""
        self.cursor = 0
        """The ball to attack in the chooser, an index into ``attackable()``."""
        self.die_cursor = 0
        """The die under the cursor of the side to roll in a battle."""
        self.swap: BattleState | None = None
        """A battle the attacker won whose balls have not yet been swapped on the board."""
        self.swap_lifted = False
        """Whether the defender's ball has been seen off the spot of ``swap``."""
        self.shown_battle: BattleState | None = None
        """A finished battle whose result stays on the OLED until the table moves on."""
        self.tumble: Tumble | None = None
        """The dice of the last roll while they tumble on the OLED."""
        self._tumble_frame = 0
        self.animate = session.display is not None
        """Whether rolls tumble: only where a display shows them (tests without one
        see the settled faces at once)."""
        self._resume_swap()

    def _resume_swap(self) -> None:
        """After a restart, ask again for a swap the last action may have left undone."""
        game = self.game
        last = game.last_battle
        if (
            game.history
            and isinstance(game.history[-1], BattleRoll)
            and game.battle is None
            and last is not None
            and last.winner == last.attacker
        ):
            self.swap = last

    # -- geometry -----------------------------------------------------------------
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        return tuple(tuple(f"r{r}c{c}" for c in ROWS) for r in ROWS)

    def mark(self, piece: Piece) -> str:
        return "solid" if piece.owner == self.game.turn else "hollow"

    # -- tags -----------------------------------------------------------------------
    def matches(self, piece: Piece, sensed: str) -> bool:
        if sensed == OCCUPIED:
            return True  # a switch (or an unread tag) cannot tell one ball from another
        return self.sensed_label(sensed) == piece.label

    def reads_tags(self) -> bool:
        """Whether the board reads tags: its profile says so, or it shows one."""
        profile = self.session.profile
        if profile is not None:
            return profile.serial is not None and profile.serial.sensor == "rfid"
        seen = self.session.observation.values()
        return self.session.labels is not None and any(s != OCCUPIED for s in seen)

    def _colour(self, cell: Cell) -> str | None:
        """The colour of the ball a tag on ``cell`` shows; None where no tag is read."""
        sensed = self.session.observation.get(cell)
        if sensed is None or sensed == OCCUPIED:
            return None
        return self.sensed_label(sensed)

    def _strange(self) -> tuple[str, str] | None:
        """A tag that shows no ball (unknown, or enrolled as something else), as
        (short, reason) for the refusal; None when every tag is a ball's."""
        labels = self.session.labels
        for cell in _board_order(set(self.session.observation) & set(self.game.cells())):
            sensed = self.session.observation[cell]
            if sensed == OCCUPIED:
                continue
            label = labels(sensed) if labels is not None else None
            if label is None:
                return (
                    f"unknown tag on {cell}",
                    f"the tag on {cell} is unknown: lift it (enrol a ball's tag under "
                    "its colour with tabletop enrol)",
                )
            if label not in COLOURS:
                return (f"{cell} is no ball", f"{cell} holds {label}, not a ball: lift it")
        return None

    def _name(self, seat: int) -> str:
        return self.game.seat_name(seat).capitalize()

    # -- what the roll allows ------------------------------------------------------
    def attackable(self) -> list[Cell]:
        """Opponents' balls the roll lets the player attack, in board order."""
        game = self.game
        return _board_order({c for c in game.target() if game.owner(c) is not None})

    def _where(self) -> str:
        """The spots the dice name, in a few words: ``r7c5``, ``row 7``, ``all``."""
        dice = self.game.dice
        if dice is None:
            return ""
        red, blue = dice
        red_double, blue_double = red[0] == red[1], blue[0] == blue[1]
        if red_double and blue_double:
            return "all"
        if red_double:
            return f"col {sum(blue)}"
        if blue_double:
            return f"row {sum(red)}"
        return f"r{sum(red)}c{sum(blue)}"

    # -- the board ------------------------------------------------------------------
    def board_fixes(self) -> list[Fix]:
        """What must change on the board, with a won battle's swap that sensors miss."""
        fixes = self.session.fixes()
        swap = self.swap
        if swap is None or self.swap_lifted:
            return fixes
        sensed = self.session.observation.get(swap.cell)
        if sensed is not None and sensed != OCCUPIED:
            return fixes  # the reader tells the defender's colour: the fixes say it all
        lift = Fix("lift", swap.cell, None, COLOURS[swap.defender])
        put = Fix("place", swap.cell, self.game.layout().get(swap.cell))
        lifts = [f for f in fixes if f.action == "lift"]
        places = [f for f in fixes if f.action == "place"]
        return [lift, *lifts, put, *places]

    def _track_swap(self) -> None:
        swap = self.swap
        if swap is None:
            return
        sensed = self.session.observation.get(swap.cell)
        if sensed is not None and sensed != OCCUPIED:
            # A reader sees the swap itself: the attacker's colour on the spot.
            piece = self.game.layout().get(swap.cell)
            if piece is not None and self.matches(piece, sensed):
                self.swap = None
                self.swap_lifted = False
            return
        seen = sensed is not None
        if not self.swap_lifted and not seen:
            self.swap_lifted = True
        elif self.swap_lifted and seen:
            self.swap = None
            self.swap_lifted = False

    def on_board(self) -> None:
        self._track_swap()
        game = self.game
        if game.outcome is not None or self.session.restoring:
            return
        self.shown_battle = None
        layout = game.layout()
        seen = self.session.observation
        board = set(seen)
        added, removed = board - set(layout), set(layout) - board
        # A ball that stays must show its own colour where a reader tells colours.
        removed |= {c for c in set(layout) & board if not self.matches(layout[c], seen[c])}
        if self.swap is not None:
            removed.discard(self.swap.cell)
        strange = self._strange()
        if strange is not None:
            self._reject(*strange)
            return
        if not added and not removed:
            self.rejection = ""
            return
        if game.playoff is not None and not game.board() and game.phase == ROLL and not removed:
            # The tie's play-off starts on a cleared board: lifting the balls of the
            # main game is what the fixes ask for, not a move to refuse.
            self.rejection = ""
            return
        if game.phase in (REROLL_OR_ACT, PLACE) and not removed and len(added) == 1:
            self._place(next(iter(added)))
            return
        if self.rejection:
            return  # the first reason stands until the board is put right
        if added and game.phase == ROLL:
            self._reject("roll first", f"{game.seat_name(game.turn)} must roll the dice first")
        elif added and game.phase == BATTLE:
            self._reject("a battle is on", "no ball is played during a battle")
        elif len(added) > 1:
            self._reject("one ball a turn", "one ball is played a turn")
        else:
            cells = ", ".join(_board_order(removed))
            self._reject("put it back", f"the ball on {cells} must stay: put it back")

    def _wrong_colour(self, cell: Cell) -> bool:
        """Refuse a ball whose tag shows another colour than the player's; True if so."""
        colour = self._colour(cell)
        mine = COLOURS[self.game.turn]
        if colour is None or colour == mine:
            return False
        reason = f"that is a {colour} ball; {mine} is to play"
        self._reject(f"a {colour} ball; {mine} plays", reason)
        return True

    def _place(self, cell: Cell) -> None:
        game = self.game
        if self._wrong_colour(cell):
            return
        action = Place(cell)
        verdict = game.check(action)
        if verdict.accepted:
            self._commit(action)
            return
        where = self._where()
        short = f"{cell} is not on {where}" if " " in where else f"{cell} is not {where}"
        if cell in game.spots():
            short = f"{cell} is blocked"
        self._reject(short, verdict.reason)

    def _reject(self, short: str, reason: str) -> None:
        self.rejection = short
        self.session.reject(Verdict.reject(reason))

    def _refuse(self, reason: str) -> None:
        """A button that means nothing now: noted in the stream, the board is fine."""
        self.session.reject(Verdict.reject(reason))

    def _commit(self, action: Action) -> bool:
        game = self.game
        battle = game.battle
        verdict = self.session.commit(action)
        if not verdict.accepted:
            self._refuse(verdict.reason)
            return False
        self.tumble = self._tumble_for(action, battle)
        self._tumble_frame = 0
        self.rejection = ""
        self.choosing = False
        if not isinstance(action, Keep):
            self.die_cursor = 0
        if battle is not None and game.battle is None and game.last_battle is not None:
            self.shown_battle = game.last_battle
            if game.last_battle.winner == game.last_battle.attacker:
                self.swap = game.last_battle
                self.swap_lifted = False
        return True

    # -- the roll animation ---------------------------------------------------------
    def _tumble_for(self, action: Action, battle: BattleState | None) -> Tumble | None:
        """The tumble a played action starts: rolls only, and not once the game is over."""
        if not self.animate or self.game.outcome is not None:
            return None
        now, seed = self.session.now, len(self.game.history)
        if isinstance(action, Roll):
            return Tumble(now, seed, (True,) * 4)
        if isinstance(action, Reroll):
            red, blue = action.pair in ("red", "both"), action.pair in ("blue", "both")
            return Tumble(now, seed, (red, red, blue, blue))
        if isinstance(action, BattleRoll) and battle is not None and action.values:
            rolling = tuple(not kept for kept in battle.kept[battle.side])
            return Tumble(now, seed, rolling, battle.side)
        return None

    def wants_ticks(self) -> bool:
        tumble = self.tumble
        if tumble is None:
            return False
        # A tick only when the picture changes: the next faces are due, or the roll's.
        now = self.session.now
        return tumble.over(now) or tumble.frame(now) != self._tumble_frame

    def on_tick(self, now: float) -> None:
        tumble = self.tumble
        if tumble is None:
            return
        if tumble.over(now):
            self.tumble = None
        else:
            self._tumble_frame = tumble.frame(now)

    # -- buttons ------------------------------------------------------------------
    def on_button(self, event: ButtonEvent) -> None:
        if event.name == "back" and event.long and self.menu is None:
            return  # Doubles Wild has no resigning
        super().on_button(event)

    def on_game_button(self, event: ButtonEvent) -> None:
        self.shown_battle = None
        phase = self.game.phase
        if phase == ROLL:
            if event.name == "roll":
                self._roll()
        elif phase in (REROLL_OR_ACT, PLACE):
            if self.choosing:
                self._chooser_button(event.name)
            else:
                self._turn_button(event.name)
        elif phase == BATTLE:
            self._battle_button(event.name)

    def _roll(self) -> None:
        fixes = self.board_fixes()
        if fixes:
            self._reject("fix the board", f"fix the board before rolling: {fixes[0].text()}")
            return
        self._commit(dice_action("roll", self.session.dice.roll(4)))

    def _turn_button(self, name: str) -> None:
        game = self.game
        if name in REROLL_BUTTONS:
            pair = REROLL_BUTTONS[name]
            if game.phase != REROLL_OR_ACT:
                self._refuse("the dice were re-rolled already: play the roll")
                return
            count = 4 if pair == "both" else 2
            self._commit(dice_action(f"reroll-{pair}", self.session.dice.roll(count)))
        elif name == "ok":
            target = game.target()
            attackable = self.attackable()
            if not target:
                self._commit(EndTurn())
            elif attackable and set(attackable) == target and len(target) == 1:
                self._commit(Attack(attackable[0]))
            elif attackable:
                self.choosing = True
                self.cursor = 0
            else:
                spots = ", ".join(_board_order(target)[:3])
                self._refuse(f"place a ball on {spots}{' …' if len(target) > 3 else ''}")

    def _chooser_button(self, name: str) -> None:
        attackable = self.attackable()
        if name == "back" or not attackable:
            self.choosing = False
        elif name in ("left", "right"):
            self.cursor = (self.cursor + (1 if name == "right" else -1)) % len(attackable)
        elif name == "ok":
            self._commit(Attack(attackable[self.cursor % len(attackable)]))

    def _battle_button(self, name: str) -> None:
        battle = self.game.battle
        assert battle is not None
        rolled = battle.rolls[battle.side] > 0
        if name == "roll":
            values = self.session.dice.roll(BATTLE_DICE - battle.kept_count())
            self._commit(dice_action("battle-roll", values))
        elif name in ("left", "right") and rolled:
            step = 1 if name == "right" else -1
            self.die_cursor = (self.die_cursor + step) % BATTLE_DICE
        elif name == "ok" and rolled:
            kept = {i for i, k in enumerate(battle.kept[battle.side]) if k}
            kept ^= {self.die_cursor}
            self._commit(Keep(tuple(sorted(kept))))

    # -- screens ------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        game = self.game
        if isinstance(action, Roll):
            red, blue = action.red, action.blue
            return f"rolls {red[0]}+{red[1]}, {blue[0]}+{blue[1]}: {self._where()}"
        if isinstance(action, Reroll):
            return f"re-rolls {action.pair}: {self._where()}"
        if isinstance(action, Place):
            return f"places on {action.cell}"
        if isinstance(action, Attack):
            return f"attacks {action.cell}"
        if isinstance(action, Keep):
            kept = ",".join(str(i + 1) for i in action.dice)
            return f"keeps {kept}" if kept else "keeps none"
        if isinstance(action, BattleRoll):
            faces = " ".join(str(v) for v in action.values) or "(all kept)"
            battle = game.battle
            if battle is None and game.last_battle is not None:
                last = game.last_battle
                winner = last.winner
                assert winner is not None
                attack, defence = last.totals()
                if attack == defence:
                    return (
                        f"battle roll {faces}: {game.seat_name(winner)} holds {last.cell} "
                        f"on a tie {attack}:{defence}"
                    )
                high, low = max(attack, defence), min(attack, defence)
                return (
                    f"battle roll {faces}: {game.seat_name(winner)} wins {last.cell} {high}:{low}"
                )
            return f"battle roll {faces}"
        if isinstance(action, EndTurn):
            return "cannot play: turn ends"
        return action.type

    def _lines_status(self) -> str:
        game = self.game
        counts = self.lines_count()
        parts = [f"{game.seat_name(p)[0].upper()}{counts[p]}" for p in range(game.players)]
        return ("" if game.players > 3 else " ").join(parts)

    def lines_count(self) -> list[int]:
        """Each seat's lines of three or more on the board now."""
        runs = self.game.lines()
        return [len(runs[p]) for p in range(self.game.players)]

    def header(self) -> tuple[str, str]:
        game = self.game
        status = self._lines_status()
        if game.outcome is not None:
            return ("Game over", status)
        if game.battle is not None:
            return (f"Battle {game.battle.cell}", status)
        return (f"{self._name(game.turn)}'s turn", status)

    def pending_fixes(self) -> list[Fix]:
        # A won battle's swap is a fix an occupancy sensor cannot notice by itself.
        return self.board_fixes()

    def screen(self) -> Screen:
        title, status = self.header()
        game = self.game
        if game.outcome is not None:
            result = self.result_screen()
            return Screen(title, status, result.lines, result.board)
        if self.menu is not None:
            return self.menu_screen()
        if self.shown_battle is not None:
            return self._battle_screen(title, status, self.shown_battle)
        fixes = self.board_fixes()
        if fixes:
            shown = self.fix_screen(title, fixes, self._fix_reason())
            return Screen(title, status, shown.lines, shown.board)
        if game.phase == BATTLE and game.battle is not None:
            return self._battle_screen(title, status, game.battle)
        if game.phase in (REROLL_OR_ACT, PLACE):
            return self._roll_screen(title, status)
        return self._waiting_screen(title, status)

    def _fix_reason(self) -> str:
        if self.rejection:
            return "No: " + self.rejection
        swap = self.swap
        if swap is not None:
            return f"{self._name(swap.attacker)} won {swap.cell}"
        if self.game.playoff is not None and not self.game.board():
            return "Tie: clear for the play-off"
        if self.session.restoring:
            return ""
        return "Put the board right"

    def _waiting_screen(self, title: str, status: str) -> Screen:
        game = self.game
        lines: list[str] = []
        last = self.session.last_move
        if last:
            lines.append(f"{last['player'].capitalize()} {last['text']}")
        if game.playoff is not None:
            lines.append("Play-off: first line wins")
        balls = game.balls_left(game.turn)
        lines.append(f"{balls} ball{'s' if balls != 1 else ''} left")
        lines.append("Press roll.")
        return Screen(title, status, tuple(lines), self.board_map())

    def _roll_screen(self, title: str, status: str) -> Screen:
        game = self.game
        dice = game.dice
        assert dice is not None
        target = game.target()
        where = self._where()
        single = len(game.spots()) == 1
        named = f"Spot {where}" if single else f"{where.capitalize()} wild"
        attackable = self.attackable()
        focus: str | None = None
        if self.choosing and attackable:
            cell = attackable[self.cursor % len(attackable)]
            lines = [f"Fight {cell}?", "L/R: other", "ok: fight"]
            focus = cell
        else:
            if not target:
                lines = [f"{where if single else where.capitalize()} blocked", "ok: end turn"]
            elif attackable and set(attackable) == target and len(target) == 1:
                lines = [named, "ok: fight"]
            elif attackable:
                lines = [named, "Place, or ok"]
            else:
                lines = [named, "Place a ball"]
            if single:
                focus = where
            if game.phase == REROLL_OR_ACT:
                lines.append("L/R/roll: new")
        picture = RollPicture(dice[0], dice[1])
        tumble = self.tumble
        if tumble is not None and tumble.side is None:
            shown = tumble.faces(self.session.now, (*dice[0], *dice[1]))
            rolling = (tumble.rolling[0], tumble.rolling[2])
            picture = RollPicture((shown[0], shown[1]), (shown[2], shown[3]), rolling)
        return Screen(title, status, tuple(lines), self.board_map(focus), picture=picture)

    def _battle_screen(self, title: str, status: str, battle: BattleState) -> Screen:
        rows = (
            BattleRow(self._name(battle.attacker), battle.dice[0], battle.kept[0], battle.rolls[0]),
            BattleRow(self._name(battle.defender), battle.dice[1], battle.kept[1], battle.rolls[1]),
        )
        tumble = self.tumble
        if tumble is not None and tumble.side is not None:
            row = rows[tumble.side]
            shown = tumble.faces(self.session.now, row.dice)
            tumbling = BattleRow(row.name, shown, row.kept, row.rolls, rolling=True)
            rows = (tumbling, rows[1]) if tumble.side == 0 else (rows[0], tumbling)
        winner = battle.winner
        if winner is not None:
            attack, defence = battle.totals()
            word = "holds on a tie" if attack == defence else "wins"
            first = f"{self._name(winner)} {word} {max(attack, defence)}:{min(attack, defence)}"
            if winner == battle.attacker:
                second = f"Swap in {COLOURS[battle.attacker]} on {battle.cell}"
            else:
                second = f"{self._name(battle.attacker)}'s ball is spent"
            picture = BattlePicture(rows)
            return Screen(f"Battle {battle.cell}", status, (first, second), picture=picture)
        side = battle.side
        name = self._name(battle.roller)
        rolls = battle.rolls[side]
        if rolls == 0:
            lines = (f"{name}: press roll", "")
            cursor = None
        else:
            lines = (f"{name}: roll {rolls + 1} of {BATTLE_ROLLS}", "L/R, ok keeps; roll")
            cursor = self.die_cursor
        picture = BattlePicture(rows, side, cursor)
        return Screen(title, status, tuple(line for line in lines if line), picture=picture)

    def extra_state(self) -> dict[str, Any]:
        game = self.game
        names = [game.seat_name(p) for p in range(game.players)]
        dice = game.dice
        battle = game.battle or self.shown_battle
        return {
            "lines": dict(zip(names, self.lines_count(), strict=True)),
            "phase": game.phase,
            "dice": None if dice is None else {"red": list(dice[0]), "blue": list(dice[1])},
            "target": _board_order(game.target()),
            "battle": None if battle is None else battle.to_dict(),
            "balls_left": {n: game.balls_left(p) for p, n in enumerate(names)},
            "rolling": self.tumble is not None,
        }

    # -- simulation -----------------------------------------------------------------
    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        """A ball by its colour on each cell; a bare ``place r7c5`` lays a stray piece."""
        if piece == "piece":
            return [piece] * len(cells)
        return [ball_colour(piece)] * len(cells)

    def hand(self, action: Action) -> list[tuple[str, ...]]:
        steps = self._fix_steps()
        game = self.game
        if isinstance(action, Roll | BattleRoll):
            steps.append(("press", "roll"))
        elif isinstance(action, Reroll):
            button = {pair: b for b, pair in REROLL_BUTTONS.items()}[action.pair]
            steps.append(("press", button))
        elif isinstance(action, Place):
            steps.append(("place", action.cell, COLOURS[game.turn]))
        elif isinstance(action, EndTurn):
            steps.append(("press", "ok"))
        elif isinstance(action, Attack):
            steps += self._attack_steps(action.cell)
        elif isinstance(action, Keep):
            steps += self._keep_steps(action.dice)
        if not self.reads_tags():
            return steps
        # The next step must not come before the reader sweep has settled the ball.
        waited: list[tuple[str, ...]] = []
        for step in steps:
            waited.append(step)
            if step[0] == "place":
                waited.append(("wait", str(SWEEP_WAIT_S)))
        return waited

    def _fix_steps(self) -> list[tuple[str, ...]]:
        steps: list[tuple[str, ...]] = []
        for fix in self.board_fixes():
            if fix.action == "lift":
                steps.append(("lift", fix.cell))
            elif fix.piece is not None:
                steps.append(("place", fix.cell, fix.piece.label))
        return steps

    def _attack_steps(self, cell: Cell) -> list[tuple[str, ...]]:
        attackable = self.attackable()
        target = self.game.target()
        if not self.choosing and set(attackable) == target and len(target) == 1:
            return [("press", "ok")]
        steps: list[tuple[str, ...]] = []
        at = self.cursor % len(attackable) if self.choosing else 0
        if not self.choosing:
            steps.append(("press", "ok"))
        goal = attackable.index(cell)
        steps += [("press", "right")] * ((goal - at) % len(attackable))
        steps.append(("press", "ok"))
        return steps

    def _keep_steps(self, dice: tuple[int, ...]) -> list[tuple[str, ...]]:
        battle = self.game.battle
        assert battle is not None
        now = battle.kept[battle.side]
        at = self.die_cursor
        steps: list[tuple[str, ...]] = []
        for i in range(BATTLE_DICE):
            if (i in dice) != now[i]:
                steps += [("press", "right")] * ((i - at) % BATTLE_DICE)
                steps.append(("press", "ok"))
                at = i
        return steps
