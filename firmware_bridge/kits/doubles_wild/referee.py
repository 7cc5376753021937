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

The board is an occupancy matrix (``doubles-wild-gpio``) or switches and a tag
read at every spot (``doubles-wild-rfid-pico``) with every ball's tag enrolled under its colour
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

from functools import partial

from games.core import Action, Cell, Piece, Verdict
from games.doubles_wild.actions import BATTLE_DICE
from games.doubles_wild.game import (
    BATTLE,
    COLOURS,
    PLACE,
    REROLL_OR_ACT,
    ROLL,
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
from hardware.board import OCCUPIED

from ...referees.events import ButtonEvent
from ...referees.fixes import Fix, FixAction
from ...referees.referee import Referee
from .turn import (
    DoublesWildTurn,
    Tumble,
    attackable,
    board_order,
    new_turn,
    shows,
    swapped,
    where,
)
from .view import DoublesWildView

REROLL_BUTTONS = {"left": "red", "right": "blue", "roll": "both"}


class DoublesWildReferee(Referee[DoublesWild]):
    view: DoublesWildView

    turn: DoublesWildTurn
    new_turn = staticmethod(new_turn)

    # -- tags -----------------------------------------------------------------------
    def matches(self, piece: Piece, sensed: str) -> bool:
        if sensed == OCCUPIED:
            return True  # a switch (or an unread tag) cannot tell one ball from another
        return self.sensed_label(sensed) == piece.label

    def reads_tags(self) -> bool:
        """Whether the board reads tags: its profile says so, or it shows one."""
        profile = self.facts.profile
        if profile is not None:
            return profile.serial is not None and profile.serial.sensor == "rfid"
        seen = self.facts.observation.values()
        return self.facts.labels is not None and any(s != OCCUPIED for s in seen)

    def _colour(self, cell: Cell) -> str | None:
        """The colour of the ball a tag on ``cell`` shows; None where no tag is read."""
        sensed = self.facts.observation.get(cell)
        if sensed is None or sensed == OCCUPIED:
            return None
        return self.sensed_label(sensed)

    def _strange(self) -> tuple[str, str] | None:
        """A tag that shows no ball (unknown, or enrolled as something else), as
        (short, reason) for the refusal; None when every tag is a ball's."""
        labels = self.facts.labels
        seen = self.facts.observation
        for cell in board_order(set(seen) & set(self.game.cells())):
            sensed = seen[cell]
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

    # -- the board ------------------------------------------------------------------
    def board_fixes(self) -> list[Fix]:
        """What must change on the board, with a won battle's swap that sensors miss."""
        # The screen and the status ask after every event, and the board is mostly right.
        seen = self.facts.observation
        fixes = [] if shows(self.game.layout(), seen, self.matches) else super().board_fixes()
        swap = self.turn.swap
        if swap is None or self.turn.swap_lifted:
            return fixes
        sensed = self.facts.observation.get(swap.cell)
        if sensed is not None and sensed != OCCUPIED:
            return fixes  # the reader tells the defender's colour: the fixes say it all
        lift = Fix(FixAction.LIFT, swap.cell, None, COLOURS[swap.defender])
        put = Fix(FixAction.PLACE, swap.cell, self.game.layout().get(swap.cell))
        lifts = [f for f in fixes if f.action is FixAction.LIFT]
        places = [f for f in fixes if f.action is FixAction.PLACE]
        return [lift, *lifts, put, *places]

    def pending_fixes(self) -> list[Fix]:
        # A won battle's swap is a fix an occupancy sensor cannot notice by itself.
        return self.board_fixes()

    def _track_swap(self) -> None:
        turn = self.turn
        swap = turn.swap
        if swap is None:
            return
        sensed = self.facts.observation.get(swap.cell)
        if sensed is not None and sensed != OCCUPIED:
            # A reader sees the swap itself: the attacker's colour on the spot.
            piece = self.game.layout().get(swap.cell)
            if piece is not None and self.matches(piece, sensed):
                turn.swap = None
                turn.swap_lifted = False
            return
        seen = sensed is not None
        if not turn.swap_lifted and not seen:
            turn.swap_lifted = True
        elif turn.swap_lifted and seen:
            turn.swap = None
            turn.swap_lifted = False

    def on_board(self) -> None:
        self._track_swap()
        game = self.game
        turn = self.turn
        if game.outcome is not None or self.facts.restoring:
            return
        turn.shown_battle = None
        layout = game.layout()
        seen = self.facts.observation
        board = set(seen)
        added, removed = board - set(layout), set(layout) - board
        # A ball that stays must show its own colour where a reader tells colours.
        removed |= {c for c in set(layout) & board if not self.matches(layout[c], seen[c])}
        if turn.swap is not None:
            removed.discard(turn.swap.cell)
        strange = self._strange()
        if strange is not None:
            self._reject(*strange)
            return
        if not added and not removed:
            turn.rejection = ""
            return
        if game.playoff is not None and not game.board() and game.phase == ROLL and not removed:
            # The tie's play-off starts on a cleared board: lifting the balls of the
            # main game is what the fixes ask for, not a move to refuse.
            turn.rejection = ""
            return
        if game.phase in (REROLL_OR_ACT, PLACE) and not removed and len(added) == 1:
            self._place(next(iter(added)))
            return
        if turn.rejection:
            return  # the first reason stands until the board is put right
        if added and game.phase in (ROLL, BATTLE):
            # The rules say why no ball may be played now (no roll yet, a battle on).
            verdict = game.judge(Place(board_order(added)[0]))
            self._reject("roll first" if game.phase == ROLL else "a battle is on", verdict.reason)
        elif len(added) > 1:
            self._reject("one ball a turn", "one ball is played a turn")
        else:
            cells = ", ".join(board_order(removed))
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
        if not self._wrong_colour(cell):
            self._commit(Place(cell))

    def _reject(self, short: str, reason: str) -> None:
        self.turn.rejection = short
        self.refuse(reason)

    def _commit(self, action: Action) -> None:
        self.turn.battle_before = self.game.battle
        self.commit(action)

    def _roll_dice(self, kind: str, count: int) -> None:
        """Ask the session to roll ``count`` dice for the ``kind`` of roll and play them."""
        self.turn.battle_before = self.game.battle
        self.roll_dice(count, partial(dice_action, kind))

    def on_refused(self, action: Action, verdict: Verdict) -> None:
        if not isinstance(action, Place):
            # A button that means nothing now: noted in the stream, the board is fine.
            self.refuse(verdict.reason)
            return
        game = self.game
        cell = action.cell
        spots = where(game)
        short = f"{cell} is not on {spots}" if " " in spots else f"{cell} is not {spots}"
        if cell in game.spots():
            short = f"{cell} is blocked"
        self._reject(short, verdict.reason)

    def after_commit(self, action: Action, verdict: Verdict) -> None:
        game = self.game
        turn = self.turn
        battle = turn.battle_before
        turn.tumble = self._tumble_for(action, battle)
        turn.tumble_frame = 0
        turn.rejection = ""
        turn.choosing = False
        if not isinstance(action, Keep):
            turn.die_cursor = 0
        if battle is not None and game.battle is None and game.last_battle is not None:
            turn.shown_battle = game.last_battle
            if swapped(game, game.last_battle):
                turn.swap = game.last_battle
                turn.swap_lifted = False

    # -- the roll animation ---------------------------------------------------------
    def _tumble_for(self, action: Action, battle: BattleState | None) -> Tumble | None:
        """The tumble a played action starts: rolls only, and not once the game is over."""
        if not self.facts.animated or self.game.outcome is not None:
            return None
        now, seed = self.facts.now, len(self.game.history)
        if isinstance(action, Roll):
            return Tumble(now, seed, (True,) * 4)
        if isinstance(action, Reroll):
            red, blue = action.pair in ("red", "both"), action.pair in ("blue", "both")
            return Tumble(now, seed, (red, red, blue, blue))
        if isinstance(action, BattleRoll) and battle is not None and action.values:
            rolling = tuple(not kept for kept in battle.kept[battle.side])
            return Tumble(now, seed, rolling, battle.side)
        return None

    def wants_ticks(self, now: float) -> bool:
        tumble = self.turn.tumble
        if tumble is None:
            return False
        # A tick only when the picture changes: the next faces are due, or the roll's.
        return tumble.over(now) or tumble.frame(now) != self.turn.tumble_frame

    def on_tick(self, now: float) -> None:
        tumble = self.turn.tumble
        if tumble is None:
            return
        if tumble.over(now):
            self.turn.tumble = None
        else:
            self.turn.tumble_frame = tumble.frame(now)

    # -- buttons ------------------------------------------------------------------
    def on_button(self, event: ButtonEvent) -> None:
        super().on_button(event)

    def allows_resign(self) -> bool:
        return False  # Doubles Wild has no resigning

    def on_game_button(self, event: ButtonEvent) -> None:
        self.turn.shown_battle = None
        phase = self.game.phase
        if phase == ROLL:
            if event.name == "roll":
                self._roll()
        elif phase in (REROLL_OR_ACT, PLACE):
            if self.turn.choosing:
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
        self._roll_dice("roll", 4)

    def _turn_button(self, name: str) -> None:
        game = self.game
        if name in REROLL_BUTTONS:
            pair = REROLL_BUTTONS[name]
            if game.phase != REROLL_OR_ACT:
                self.refuse("the dice were re-rolled already: play the roll")
                return
            count = 4 if pair == "both" else 2
            self._roll_dice(f"reroll-{pair}", count)
        elif name == "ok":
            target = game.target()
            balls = attackable(game)
            if not target:
                self._commit(EndTurn())
            elif balls and set(balls) == target and len(target) == 1:
                self._commit(Attack(balls[0]))
            elif balls:
                self.turn.choosing = True
                self.turn.cursor = 0
            else:
                spots = ", ".join(board_order(target)[:3])
                self.refuse(f"place a ball on {spots}{' …' if len(target) > 3 else ''}")

    def _chooser_button(self, name: str) -> None:
        turn = self.turn
        balls = attackable(self.game)
        if name == "back" or not balls:
            turn.choosing = False
        elif name in ("left", "right"):
            turn.cursor = (turn.cursor + (1 if name == "right" else -1)) % len(balls)
        elif name == "ok":
            self._commit(Attack(balls[turn.cursor % len(balls)]))

    def _battle_button(self, name: str) -> None:
        battle = self.game.battle
        assert battle is not None
        turn = self.turn
        rolled = battle.rolls[battle.side] > 0
        if name == "roll":
            self._roll_dice("battle-roll", BATTLE_DICE - battle.kept_count())
        elif name in ("left", "right") and rolled:
            step = 1 if name == "right" else -1
            turn.die_cursor = (turn.die_cursor + step) % BATTLE_DICE
        elif name == "ok" and rolled:
            kept = {i for i, k in enumerate(battle.kept[battle.side]) if k}
            kept ^= {turn.die_cursor}
            self._commit(Keep(tuple(sorted(kept))))


REFEREE = DoublesWildReferee
"""The game's referee, as its kit finds it."""
