"""What the OLED shows of a Double Double Dominoes game, and its part of the state."""

from __future__ import annotations

from typing import Any

from games.core import Action
from games.dominoes.board import COLUMNS, DIAMONDS, NAMES, SIZE, STAR
from games.dominoes.game import Discard, Dominoes, Draw, EndTurn, Phase, Place

from ...referees.fixes import Fix, FixAction
from ...referees.light_cells import Lit
from ...referees.view import NEW_GAME, LetteredBoardView
from ...screen.layout import fits_bar
from ...screen.palette import HINT
from ...screen.screens import Screen
from ...screen.whole_board import beside_the_map, whole_board
from .count import LAY, LIFT, LONG_STEP
from .turn import DominoesTurn, discards, dominoes_text, parse_half, short

VERBS = {"draw": "draws", "play": "lays", "chain": "chains", "discard": "discards"}


class DominoesView(LetteredBoardView[Dominoes]):
    columns = COLUMNS
    size = SIZE

    turn: DominoesTurn

    # -- the map --------------------------------------------------------------------

    # -- words ----------------------------------------------------------------------
    @staticmethod
    def placed(place: Place) -> str:
        return f"{place.domino_a}-{place.domino_b} on {place.cell_a}–{place.cell_b}"

    def describe(self, action: Action) -> str:
        taken = self.turn.taken(self.game, action)
        refill = f", takes {dominoes_text(taken)}" if taken else ""
        if isinstance(action, Draw):
            return f"draws {dominoes_text(taken)}"
        if isinstance(action, Place):
            return self.placed(action) + refill
        if isinstance(action, Discard):
            return f"puts {action.a}-{action.b} in the pit" + refill
        if isinstance(action, EndTurn):
            return "ends the turn" + refill
        return action.type

    def instruct(self, action: Action) -> str:
        if isinstance(action, Draw):
            return "press roll to draw"
        if isinstance(action, Place):
            return f"lay {action.domino_a}-{action.domino_b} on {action.cell_a},{action.cell_b}"
        if isinstance(action, Discard):
            return f"put {action.a}-{action.b} in the pit"
        if isinstance(action, EndTurn):
            return "press ok to end the turn"
        return super().instruct(action)

    def boneyard(self) -> str:
        return f"Boneyard {self.game.boneyard_count}"

    def header(self) -> tuple[str, str]:
        """The title and, where the bar has room for it, the dominoes left to draw
        (else ``boneyard_line`` says it)."""
        game = self.game
        title = (
            "Game over"
            if game.outcome is not None
            else (f"{short(game.to_move)} {VERBS.get(game.phase, 'plays')}")
        )
        status = self.boneyard()
        return (title, status if fits_bar(title, " " + status) else "")

    def boneyard_line(self) -> str:
        """The dominoes left to draw, when the bar has no room for them."""
        return "" if self.header()[1] else self.boneyard()

    def scores(self) -> tuple[str, ...]:
        """Every seat's score (``pips_line`` gives the pips of its track space)."""
        game = self.game
        return tuple(f"{short(seat)} {score}" for seat, score in enumerate(game.scores()))

    def pips_line(self) -> str:
        """The pips of each seat's track space."""
        game = self.game
        pips = [(p, game.track_pips(game.track_space(p))) for p in range(game.players)]
        shown = " ".join(f"{short(p)} {n}" for p, n in pips if n is not None)
        return f"Track pips: {shown}" if shown else ""

    def last_line(self) -> str:
        """The last placement and who it gave points to, the +3s included."""
        last = self.facts.last
        if last is None or not isinstance(last.action, Place):
            return ""
        points = " ".join(f"{short(p)}+{n}" for p, n in enumerate(last.points) if n)
        text = f"{short(last.mover)} {last.text}"  # the move in the journal's words
        return f"{text}: {points}" if points else text

    def dealt_line(self) -> str:
        if self.turn.dealt is None:
            return ""
        seat, taken = self.turn.dealt
        return f"{short(seat)}: take {dominoes_text(taken)}."

    def fix_text(self, fix: Fix) -> str:
        """A fix in a player's words: which half goes where."""
        if fix.action is FixAction.LIFT:
            half = parse_half(fix.note) if fix.note and fix.note != "unknown" else None
            if half is not None:
                return f"Lift {fix.cell} ({half[0]})"
            return fix.text()
        if fix.piece is not None:
            half = parse_half(fix.piece.label)
            if half is not None:
                return f"Put the {half[1]} of {half[0]} on {fix.cell}"
        return fix.text()

    # -- screens --------------------------------------------------------------------
    def screen(self) -> Screen:
        title, status = self.header()
        game = self.game
        turn = self.turn
        if game.outcome is not None:
            if turn.counting():
                return self.count_screen()
            ended = self.result_lines()
            return Screen(title, status, ended, prompt=NEW_GAME, scores=self.scores())
        if self.facts.prompt.menu is not None:
            return self.menu_screen()
        if turn.rejection:
            fixes = self.facts.board_fixes
            if fixes:
                more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
                prompt = self.fix_text(fixes[0]) + more
                board = self.board_map(fixes[0].cell)
                why = ("No: " + turn.rejection,)
                return Screen(title, status, why, board, prompt=prompt, scores=self.scores())
        if turn.map_shown and not turn.waiting:
            return self.map_screen()
        hand = f"Hand {dominoes_text(game.hand(game.to_move))}"
        lines: list[str] = [turn.note]
        if turn.waiting:
            prompt = turn.waiting
        elif game.phase == "draw":
            prompt = "Press roll to draw."
        elif game.phase == "play":
            prompt = "Lay a domino."
        elif game.phase == "chain":
            prompt = f"Lay one beside {game.chain_double}, or ok to end"
        elif game.phase == "discard":
            options = discards(game)
            choice = options[turn.cursor % len(options)]
            lines.append("Nothing fits: pit one")
            prompt = f"< {choice.a}-{choice.b} >  ok: pit it"
        else:
            prompt = ""
        lines += [self.dealt_line(), hand, self.last_line(), self.pips_line(), self.boneyard_line()]
        shown = tuple(line for line in lines if line)
        return Screen(title, status, shown, prompt=prompt, scores=self.scores())

    def map_screen(self) -> Screen:
        """The whole board (``roll`` when it draws nothing): the dominoes laid, the
        diamonds still open and the star."""
        kinds = [(NAMES[i], "special") for i in DIAMONDS]
        kinds += [(STAR, "ring"), *((cell, "stable") for cell in self.game.layout())]
        picture = whole_board(kinds, COLUMNS, names=(("stable", "halves"),))
        legend = ("Full: domino", "Dot: diamond", "Ring: star", "roll: words")
        board = beside_the_map()
        return Screen("Map", " ", legend, board, picture=picture, scores=self.scores())

    def count_screen(self) -> Screen:
        """What the OLED asks while a tied hand is counted."""
        count = self.turn.count
        assert count is not None
        title = "Tie: count the pips"
        who = short(count.seat)
        done = " ".join(f"{short(p)} {n}" for p, n in count.counted.items() if p != count.seat)
        counted = f"Counted: {done}" if done else ""
        prompt = ""
        focus = None
        if count.stage == LIFT:
            fixes = self.facts.board_fixes
            lines = [f"{who}: {count.counted[count.seat]} pips.", "Take it off:"]
            if fixes:
                more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
                prompt = self.fix_text(fixes[0]) + more
                focus = fixes[0].cell
        elif count.stage == LAY:
            if count.problem and count.laid is not None:
                lines = [count.problem]
                prompt = f"Laid {count.laid} pips: put it right, then ok."
            elif count.problem:
                lines = [f"No: {count.problem}"]
                prompt = "Put it right, then ok."
            else:
                lines = ["back: enter the pips"]
                prompt = f"{who}: lay your hand on free cells, then ok."
        else:
            lines = [count.problem or f"{who}: pips in hand?", f"L/R: -1/+1, held {LONG_STEP}"]
            prompt = f"< {count.entry} >  ok: that's it"
        board = self.board_map(focus) if count.stage == LIFT else None
        shown = tuple(line for line in [*lines, counted] if line)
        return Screen(title, "", shown, board, prompt=prompt, scores=self.scores())

    def result_lines(self) -> tuple[str, ...]:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        winners = " and ".join(short(p) for p in outcome.winners)
        lines = [f"{winners} {'win' if len(outcome.winners) > 1 else 'wins'}"]
        scores = game.scores()
        best = max(scores)
        tied = [p for p in range(game.players) if scores[p] == best]
        if len(tied) > 1:
            pips = " ".join(f"{short(p)} {sum(d.pips for d in game.hand(p))}" for p in tied)
            lines.append(f"Tie on {best}; pips in hand: {pips}")
        elif best >= game.victory_total:
            lines.append(f"{winners} reached {game.victory_total}.")
        elif game.boneyard_count == 0:
            lines.append("Boneyard empty.")
        else:
            lines.append("No space left.")
        return tuple(line for line in lines if line)

    def lights(self, hint: Action | None) -> Lit:
        """While a hint is shown after a draw: every cell the drawn domino may go to."""
        game, dealt = self.game, self.turn.dealt
        if hint is None or dealt is None or game.phase is not Phase.PLAY:
            return {}
        seat, taken = dealt
        drawn = {tuple(sorted(d)) for d in taken}
        if seat != game.to_move or not drawn:
            return {}
        lit: Lit = {}
        for action in game.legal_actions():
            if isinstance(action, Place) and tuple(sorted(action.domino)) in drawn:
                lit.update(dict.fromkeys((action.cell_a, action.cell_b), HINT))
        return lit

    def extra_state(self) -> dict[str, Any]:
        game = self.game
        turn = self.turn
        track = {
            game.seat_name(p): {
                "space": game.track_space(p),
                "pips": game.track_pips(game.track_space(p)),
            }
            for p in range(game.players)
        }
        dealt = None
        if turn.dealt is not None:
            dealt = {
                "player": game.seat_name(turn.dealt[0]),
                "dominoes": [str(d) for d in turn.dealt[1]],
            }
        return {
            "phase": "count" if turn.counting() else game.phase,
            "count": None if turn.count is None else turn.count.to_dict(game.seat_name),
            "boneyard": game.boneyard_count,
            "pit": len(game.pit),
            "hand": [str(d) for d in sorted(game.hand(game.to_move))],
            "track": track,
            "dealt": dealt,
            "chain_double": game.chain_double,
        }


VIEW = DominoesView
"""The game's view, as its kit finds it."""
