"""What the OLED shows of a Doubles Wild game: the roll, the battle, the fixes."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from games.core import Action
from games.doubles_wild.game import (
    BATTLE,
    COLOURS,
    PLACE,
    REROLL_OR_ACT,
    Attack,
    BattleRoll,
    BattleState,
    DoublesWild,
    EndTurn,
    Keep,
    Place,
    Reroll,
    Roll,
)

from ...referees.fixes import Fix, FixAction, describe
from ...referees.light_cells import Lit
from ...referees.view import View
from ...screen.dice_faces import BattlePicture, BattleRow, RollPicture
from ...screen.palette import SPOT
from ...screen.screens import Screen
from .turn import (
    ROWS,
    DoublesWildTurn,
    attackable,
    board_order,
    where,
)

GRID: tuple[tuple[str | None, ...], ...] = tuple(tuple(f"r{r}c{c}" for c in ROWS) for r in ROWS)
"""The spots as the map draws them: row 3 at the top, column 3 on the left."""


class DoublesWildView(View[DoublesWild]):
    turn: DoublesWildTurn

    # -- the map --------------------------------------------------------------------
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        return GRID

    # -- words ----------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.game.seat_name(seat).capitalize()

    def story(self, action: Action) -> str:
        text = self.describe(action)
        game = self.game
        playoff = game.playoff
        if playoff is not None and game.playoff_began == len(game.history) > 0:
            names = " and ".join(game.seat_name(p) for p in playoff)
            best = game.scores()[playoff[0]]
            text += f"; tied at {best}: {names} play off on a cleared board, first line wins"
        return text

    def describe(self, action: Action) -> str:
        game = self.game
        if isinstance(action, Roll):
            red, blue = action.red, action.blue
            return f"rolls {red[0]}+{red[1]}, {blue[0]}+{blue[1]}: {where(game)}"
        if isinstance(action, Reroll):
            return f"re-rolls {action.pair}: {where(game)}"
        if isinstance(action, Place):
            return f"places on {action.cell}"
        if isinstance(action, Attack):
            return f"attacks {action.cell}"
        if isinstance(action, Keep):
            kept = ",".join(str(i + 1) for i in action.dice)
            return f"keeps {kept}" if kept else "keeps none"
        if isinstance(action, BattleRoll):
            return self._battle_roll(action)
        if isinstance(action, EndTurn):
            return "cannot play: turn ends"
        return action.type

    def instruct(self, action: Action) -> str:
        if isinstance(action, Roll | BattleRoll):
            return "press roll"
        if isinstance(action, Reroll):
            button = {"red": "left", "blue": "right", "both": "roll"}.get(action.pair, "roll")
            return f"re-roll {action.pair}: press {button}"
        if isinstance(action, Place):
            return f"put a {COLOURS[self.game.turn]} ball on {action.cell}"
        if isinstance(action, Attack):
            return f"attack {action.cell}"
        if isinstance(action, Keep):
            kept = ",".join(str(i + 1) for i in action.dice)
            return f"keep dice {kept}" if kept else "keep no dice"
        if isinstance(action, EndTurn):
            return "press ok: the turn ends"
        return super().instruct(action)

    def _battle_roll(self, action: BattleRoll) -> str:
        game = self.game
        faces = " ".join(str(v) for v in action.values) or "nothing (all kept)"
        battle = game.battle or game.last_battle
        where_ = f" for {battle.cell}" if battle is not None else ""
        text = f"rolls {faces} in the battle{where_}"
        if game.battle is None and game.last_battle is not None:
            last = game.last_battle
            winner = last.winner
            assert winner is not None
            attack, defence = last.totals()
            high, low = max(attack, defence), min(attack, defence)
            if attack == defence:
                return f"{text}: {game.seat_name(winner)} holds it on a tie, {high} to {low}"
            return f"{text}: {game.seat_name(winner)} wins it, {high} to {low}"
        return text

    def fix_text(self, fix: Fix) -> str:
        """A fix in few words, beside the map: ``Lift red r7c5``, ``Put blue on r7c5``."""
        if fix.action is FixAction.LIFT:
            return f"Lift {fix.note} {fix.cell}" if fix.note else f"Lift {fix.cell}"
        return f"Put {describe(fix.piece) if fix.piece else 'a ball'} on {fix.cell}"

    def lines_count(self) -> list[int]:
        """Each seat's lines of three or more on the board now."""
        runs = self.game.lines()
        return [len(runs[p]) for p in range(self.game.players)]

    def lines_lines(self) -> list[str]:
        """Each seat's lines on the board: ``Red: 3 lines, longest 5``."""
        runs = self.game.lines()
        out = []
        for p in range(self.game.players):
            n = len(runs[p])
            longest = f", longest {max(len(r) for r in runs[p])}" if n > 1 else ""
            out.append(f"{self.name(p)}: {n} line{'s' if n != 1 else ''}{longest}")
        return out

    def scores(self) -> tuple[str, ...]:
        """Each seat's score (what its lines are worth), by its colour's initial."""
        game = self.game
        return tuple(f"{game.seat_name(p)[0].upper()}{s}" for p, s in enumerate(game.scores()))

    def title(self, *titles: str) -> str:
        """The longest of ``titles`` that leaves the scores room in the bar."""
        return self.fit_title(titles, " ".join(self.scores()))

    def header(self) -> tuple[str, str]:
        game = self.game
        if game.outcome is not None:
            return ("Game over", "")
        if game.battle is not None:
            return (self.title(f"Battle {game.battle.cell}", "Battle"), "")
        name = self.name(game.turn)
        return (self.title(f"{name}'s turn", name), "")

    # -- screens --------------------------------------------------------------------
    def screen(self) -> Screen:
        title, status = self.header()
        game = self.game
        if game.outcome is not None:
            result = self.result_screen()
            return replace(result, lines=(*result.lines, *self.lines_lines()))
        if self.facts.prompt.menu is not None:
            return self.menu_screen()
        if self.turn.shown_battle is not None:
            return self._battle_screen(title, status, self.turn.shown_battle)
        fixes = self.facts.board_fixes
        if fixes:
            return self.fix_screen(title, fixes, self._fix_reason())
        if game.phase == BATTLE and game.battle is not None:
            return self._battle_screen(title, status, game.battle)
        if game.phase in (REROLL_OR_ACT, PLACE):
            return self._roll_screen(title, status)
        return self._waiting_screen(title, status)

    def _fix_reason(self) -> str:
        if self.turn.rejection:
            return "No: " + self.turn.rejection
        swap = self.turn.swap
        if swap is not None:
            return f"{self.name(swap.attacker)} won {swap.cell}"
        if self.game.playoff is not None and not self.game.board():
            return "Tie: clear for play-off"
        if self.facts.restoring:
            return ""
        return "Put the board right"

    def _waiting_screen(self, title: str, status: str) -> Screen:
        game = self.game
        lines: list[str] = []
        if game.playoff is not None:
            lines.append("Play-off: first line wins")
        last = self.facts.last
        if last:
            lines.append(f"{last.player.capitalize()} {last.text}")
        balls = game.balls_left(game.turn)
        lines.append(f"{self.name(game.turn)} has {balls} ball{'s' if balls != 1 else ''} left")
        shown = tuple(lines)
        board = self.board_map()
        return Screen(title, status, shown, board, prompt="Press roll.", scores=self.scores())

    def _roll_screen(self, title: str, status: str) -> Screen:
        game = self.game
        turn = self.turn
        dice = game.dice
        assert dice is not None
        target = game.target()
        spots = where(game)
        single = len(game.spots()) == 1
        named = f"Spot {spots}" if single else f"{spots.capitalize()} wild"
        balls = attackable(game)
        focus: str | None = None
        lines: list[str] = []
        if turn.choosing and balls:
            cell = balls[turn.cursor % len(balls)]
            lines = [f"Fight {cell}?", "left/right: another"]
            prompt = "ok: fight"
            focus = cell
        else:
            if not target:
                lines = [f"{spots if single else spots.capitalize()} blocked"]
                prompt = "ok: end the turn"
            elif balls and set(balls) == target and len(target) == 1:
                lines, prompt = [named], "ok: fight"
            elif balls:
                lines, prompt = [named], "Place, or ok to fight"
            else:
                lines, prompt = [named], "Place a ball"
            if single:
                focus = spots
            if game.phase == REROLL_OR_ACT:
                lines.append("Or re-roll: left red, right blue, roll both")
        picture = RollPicture(dice[0], dice[1])
        tumble = turn.tumble
        if tumble is not None and tumble.side is None:
            shown = tumble.faces(self.facts.now, (*dice[0], *dice[1]))
            rolling = (tumble.rolling[0], tumble.rolling[2])
            picture = RollPicture((shown[0], shown[1]), (shown[2], shown[3]), rolling)
            # While the dice tumble they say nothing yet: no spot, no block, no choice.
            board = self.board_map()
            return Screen(title, status, (), board, picture=picture, scores=self.scores())
        board = self.board_map(focus)
        if not single:
            board = replace(board, lit=frozenset(game.spots()))
        return Screen(
            title, status, tuple(lines), board, picture=picture, prompt=prompt, scores=self.scores()
        )

    def _battle_screen(self, title: str, status: str, battle: BattleState) -> Screen:
        rows = (
            BattleRow(self.name(battle.attacker), battle.dice[0], battle.kept[0], battle.rolls[0]),
            BattleRow(self.name(battle.defender), battle.dice[1], battle.kept[1], battle.rolls[1]),
        )
        tumble = self.turn.tumble
        if tumble is not None and tumble.side is not None:
            # While a side's dice tumble they say nothing yet: no winner, no choice.
            row = rows[tumble.side]
            shown = tumble.faces(self.facts.now, row.dice)
            tumbling = BattleRow(row.name, shown, row.kept, row.rolls, rolling=True)
            rows = (tumbling, rows[1]) if tumble.side == 0 else (rows[0], tumbling)
            picture = BattlePicture(rows, battle.side, None)
            return Screen(title, status, (), picture=picture, scores=self.scores())
        scores = self.scores()
        winner = battle.winner
        if winner is not None:
            attack, defence = battle.totals()
            word = "holds on a tie," if attack == defence else "wins"
            high, low = max(attack, defence), min(attack, defence)
            first = f"{self.name(winner)} {word} {high} to {low}"
            if winner == battle.attacker:
                second = f"Put {COLOURS[battle.attacker]} on {battle.cell}"
            else:
                second = f"{self.name(battle.attacker)}'s ball is lost"
            picture = BattlePicture(rows)
            title = self.title(f"Battle {battle.cell}", "Battle")
            return Screen(title, status, (first,), picture=picture, prompt=second, scores=scores)
        side = battle.side
        name = self.name(battle.roller)
        rolls = battle.rolls[side]
        if rolls == 0:
            prompt = f"{name}: press roll"
            cursor = None
        else:
            prompt = "L/R, ok to keep; roll"
            cursor = self.turn.die_cursor
        picture = BattlePicture(rows, side, cursor)
        return Screen(title, status, (), picture=picture, prompt=prompt, scores=scores)

    def lights(self, hint: Action | None) -> Lit:
        """The battle's spot while it is fought, else the spots the roll names (once
        the dice have stopped tumbling)."""
        game = self.game
        if self.turn.tumble is not None:
            return {}
        if game.phase == BATTLE and game.battle is not None:
            return {game.battle.cell: SPOT}
        if game.phase in (REROLL_OR_ACT, PLACE):
            return dict.fromkeys(board_order(game.spots()), SPOT)
        return {}

    def extra_state(self) -> dict[str, Any]:
        game = self.game
        names = [game.seat_name(p) for p in range(game.players)]
        dice = game.dice
        battle = game.battle or self.turn.shown_battle
        return {
            "lines": dict(zip(names, self.lines_count(), strict=True)),
            "phase": game.phase,
            "dice": None if dice is None else {"red": list(dice[0]), "blue": list(dice[1])},
            "target": board_order(game.target()),
            "battle": None if battle is None else battle.to_dict(),
            "balls_left": {n: game.balls_left(p) for p, n in enumerate(names)},
            "rolling": self.turn.tumble is not None,
        }


VIEW = DoublesWildView
"""The game's view, as its kit finds it."""
