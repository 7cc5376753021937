"""What the OLED shows of a Doubles Wild game: the roll, the battle, the fixes."""

from __future__ import annotations

from typing import Any

from games.core import Action, Piece
from games.doubles_wild import (
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
from games.doubles_wild_actions import BATTLE_ROLLS

from ..dice_faces import BattlePicture, BattleRow, RollPicture
from ..facts import Facts
from ..screens import Mark, Screen
from ..view import Controls, View
from .doubles_wild_turn import (
    ROWS,
    DoublesWildTurn,
    attackable,
    board_order,
    where,
)


class DoublesWildView(View[DoublesWild]):
    def __init__(
        self, game: DoublesWild, facts: Facts, controls: Controls, turn: DoublesWildTurn
    ) -> None:
        super().__init__(game, facts, controls)
        self.turn = turn

    # -- the map --------------------------------------------------------------------
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        return tuple(tuple(f"r{r}c{c}" for c in ROWS) for r in ROWS)

    def mark(self, piece: Piece) -> Mark:
        return Mark.SOLID if piece.owner == self.game.turn else Mark.HOLLOW

    # -- words ----------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.game.seat_name(seat).capitalize()

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

    def _battle_roll(self, action: BattleRoll) -> str:
        game = self.game
        faces = " ".join(str(v) for v in action.values) or "(all kept)"
        if game.battle is None and game.last_battle is not None:
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
            return f"battle roll {faces}: {game.seat_name(winner)} wins {last.cell} {high}:{low}"
        return f"battle roll {faces}"

    def lines_count(self) -> list[int]:
        """Each seat's lines of three or more on the board now."""
        runs = self.game.lines()
        return [len(runs[p]) for p in range(self.game.players)]

    def _lines_status(self) -> str:
        game = self.game
        counts = self.lines_count()
        parts = [f"{game.seat_name(p)[0].upper()}{counts[p]}" for p in range(game.players)]
        return ("" if game.players > 3 else " ").join(parts)

    def header(self) -> tuple[str, str]:
        game = self.game
        status = self._lines_status()
        if game.outcome is not None:
            return ("Game over", status)
        if game.battle is not None:
            return (f"Battle {game.battle.cell}", status)
        return (f"{self.name(game.turn)}'s turn", status)

    # -- screens --------------------------------------------------------------------
    def screen(self) -> Screen:
        title, status = self.header()
        game = self.game
        if game.outcome is not None:
            result = self.result_screen()
            return Screen(title, status, result.lines, result.board)
        if self.controls.menu is not None:
            return self.menu_screen()
        if self.turn.shown_battle is not None:
            return self._battle_screen(title, status, self.turn.shown_battle)
        fixes = self.controls.board_fixes()
        if fixes:
            shown = self.fix_screen(title, fixes, self._fix_reason())
            return Screen(title, status, shown.lines, shown.board)
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
            return "Tie: clear for the play-off"
        if self.facts.restoring:
            return ""
        return "Put the board right"

    def _waiting_screen(self, title: str, status: str) -> Screen:
        game = self.game
        lines: list[str] = []
        last = self.facts.last
        if last:
            lines.append(f"{last.player.capitalize()} {last.text}")
        if game.playoff is not None:
            lines.append("Play-off: first line wins")
        balls = game.balls_left(game.turn)
        lines.append(f"{balls} ball{'s' if balls != 1 else ''} left")
        lines.append("Press roll.")
        return Screen(title, status, tuple(lines), self.board_map())

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
        if turn.choosing and balls:
            cell = balls[turn.cursor % len(balls)]
            lines = [f"Fight {cell}?", "L/R: other", "ok: fight"]
            focus = cell
        else:
            if not target:
                lines = [f"{spots if single else spots.capitalize()} blocked", "ok: end turn"]
            elif balls and set(balls) == target and len(target) == 1:
                lines = [named, "ok: fight"]
            elif balls:
                lines = [named, "Place, or ok"]
            else:
                lines = [named, "Place a ball"]
            if single:
                focus = spots
            if game.phase == REROLL_OR_ACT:
                lines.append("L/R/roll: new")
        picture = RollPicture(dice[0], dice[1])
        tumble = turn.tumble
        if tumble is not None and tumble.side is None:
            shown = tumble.faces(self.facts.now, (*dice[0], *dice[1]))
            rolling = (tumble.rolling[0], tumble.rolling[2])
            picture = RollPicture((shown[0], shown[1]), (shown[2], shown[3]), rolling)
        return Screen(title, status, tuple(lines), self.board_map(focus), picture=picture)

    def _battle_screen(self, title: str, status: str, battle: BattleState) -> Screen:
        rows = (
            BattleRow(self.name(battle.attacker), battle.dice[0], battle.kept[0], battle.rolls[0]),
            BattleRow(self.name(battle.defender), battle.dice[1], battle.kept[1], battle.rolls[1]),
        )
        tumble = self.turn.tumble
        if tumble is not None and tumble.side is not None:
            row = rows[tumble.side]
            shown = tumble.faces(self.facts.now, row.dice)
            tumbling = BattleRow(row.name, shown, row.kept, row.rolls, rolling=True)
            rows = (tumbling, rows[1]) if tumble.side == 0 else (rows[0], tumbling)
        winner = battle.winner
        if winner is not None:
            attack, defence = battle.totals()
            word = "holds on a tie" if attack == defence else "wins"
            first = f"{self.name(winner)} {word} {max(attack, defence)}:{min(attack, defence)}"
            if winner == battle.attacker:
                second = f"Swap in {COLOURS[battle.attacker]} on {battle.cell}"
            else:
                second = f"{self.name(battle.attacker)}'s ball is spent"
            picture = BattlePicture(rows)
            return Screen(f"Battle {battle.cell}", status, (first, second), picture=picture)
        side = battle.side
        name = self.name(battle.roller)
        rolls = battle.rolls[side]
        if rolls == 0:
            lines = (f"{name}: press roll", "")
            cursor = None
        else:
            lines = (f"{name}: roll {rolls + 1} of {BATTLE_ROLLS}", "L/R, ok keeps; roll")
            cursor = self.turn.die_cursor
        picture = BattlePicture(rows, side, cursor)
        return Screen(title, status, tuple(line for line in lines if line), picture=picture)

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
