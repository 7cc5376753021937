"""Double Double Dominoes on the RFID board: halves read by tag, the rest on buttons.

How a turn goes at the table:

- **The companion deals.** It cannot see a hidden hand, so it deals like a dealer
  from its own seeded boneyard: the OLED names every domino a player takes (the
  draw that starts a turn, the refill to three at its end) and shows the hand of the
  player to move. The players take the named dominoes from the face-up stock.
- **Draw**: ``roll`` takes the turn's domino from the boneyard.
- **Lay**: each half of a domino carries a tag enrolled as ``"6-3:6"`` (the domino,
  then the pip on that half; ``"3-6:6"`` and ``"6-3 half 6"`` mean the same). Two
  newly settled neighbouring cells holding the two halves of one domino are one
  placement; a legal one is played at once, an illegal one is refused with the
  rules' reason and the fixes that undo it.
- **Chain**: after a double the OLED offers the chain: lay another domino beside it,
  or press ``ok`` to end the turn.
- **Discard**: when nothing fits, ``left``/``right`` pick a domino of the hand and
  ``ok`` puts it in the pit.
- **Scores**: every screen shows each player's score and the pips of the track
  space their score piece stands on; the last move names who gained the +3.
- **End**: the boneyard count is on the header, so the table knows when the last
  domino is drawn.
- **Tie**: when the game ends on a points tie, the OLED asks each tied player in
  turn to lay the hand on empty cells and press ``ok``; the tags give the halves and
  the companion shows the sum, or names plainly how the hand differs from the one it
  dealt. Then the hand comes off again, and the result names the winner on pips.
  Without tag readers (or after ``back``) the player enters the pip total instead:
  ``left``/``right`` one pip, held five, ``ok`` to confirm. The engine has decided
  the tie from the dealt hands; the count must agree with it.

A tag that was never enrolled is shown as unknown, never guessed: the fix is to lift
it, and the OLED says to enrol it. On a board that senses only occupancy the two
cells are matched against the hand, and the buttons pick when several dominoes fit.
There is no resigning: a long ``back`` does nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from games.core import Action, Piece, Verdict
from games.dominoes import Discard, Domino, Dominoes, Draw, EndTurn, Place
from games.dominoes_board import COLUMNS, NEIGHBOURS, SIZE, cell_index
from hardware.board import OCCUPIED

from ..events import ButtonEvent
from ..fixes import Fix
from ..referee import Referee
from ..screens import BoardMap, Screen, window
from .dominoes_count import LAY, LIFT, LONG_STEP, TieCount, free_pairs, mismatch, pair_halves

_HALF = re.compile(r"^([0-6])\s*-\s*([0-6])\s*(?::|half)\s*([0-6])$", re.IGNORECASE)

MAP_COLUMNS = 3
MAP_ROWS = 5
"""The window of the board a fix screen maps around the cell it names."""

SWEEP_WAIT_S = 0.3
"""How long a simulated hand waits after laying a domino on an RFID sweep board."""

VERBS = {"draw": "draws", "play": "lays", "chain": "chains", "discard": "discards"}


def parse_half(label: str) -> tuple[Domino, int] | None:
    """A half's label as (the domino, smaller pip first; the pip on that half), or None."""
    m = _HALF.match(label.strip())
    if m is None:
        return None
    a, b, pip = (int(g) for g in m.groups())
    if pip not in (a, b):
        return None
    return Domino(a, b).key(), pip


def normalise_half(label: str) -> str | None:
    """The one spelling of a half's label (``"3-6:6"``), or None if it is not a half."""
    half = parse_half(label)
    if half is None:
        return None
    return f"{half[0]}:{half[1]}"


def _short(seat: int) -> str:
    return f"P{seat + 1}"


def _span(cells: list[str]) -> str:
    return "–".join(sorted(cells, key=cell_index))


def _dominoes(items: list[Domino]) -> str:
    return " ".join(str(d) for d in sorted(items))


def _tied(game: Dominoes) -> tuple[int, ...]:
    """The seats sharing the best score."""
    scores = game.scores()
    best = max(scores)
    return tuple(p for p in range(game.players) if scores[p] == best)


class DominoesReferee(Referee):
    game: Dominoes

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.rejection = ""
        """Why the board was refused (empty: not refused)."""
        self.waiting = ""
        """What the board is waiting for: the other half of a domino."""
        self.cursor = 0
        """The domino under the cursor when one must go to the pit."""
        self.dealt: tuple[int, list[Domino]] | None = None
        """Who took which dominoes from the boneyard with the last action."""
        self.note = ""
        """A hint after a button that means nothing now."""
        self.count: TieCount | None = None
        """The count of the tied hands after a points tie (None: no tie)."""
        self._before: list[Domino] = []
        self._mover = 0
        self._chooser_board: dict[str, str] = {}
        """The board the "Which domino?" menu was opened for."""

    # -- geometry -----------------------------------------------------------------
    def grid(self) -> tuple[tuple[str | None, ...], ...]:
        return tuple(tuple(f"{c}{r}" for c in COLUMNS) for r in range(1, SIZE + 1))

    def mark(self, piece: Piece) -> str:
        return "solid"

    def board_map(self, focus: str | None = None) -> BoardMap:
        grid = window(self.grid(), focus, MAP_ROWS, MAP_COLUMNS)
        marks = dict.fromkeys(self.game.layout(), "solid")
        for cell in self.session.observation:
            marks.setdefault(cell, "hollow")
        return BoardMap(grid, marks, focus)

    # -- tags -----------------------------------------------------------------------
    def _label(self, sensed: str) -> str | None:
        """The normalised half a tag shows; None for an unknown tag or an untagged piece."""
        label = self.sensed_label(sensed)
        return None if label is None else normalise_half(label)

    def matches(self, piece: Piece, sensed: str) -> bool:
        if sensed == OCCUPIED:
            # A piece whose tag is not read (or a board without readers): no telling.
            return True
        return self._label(sensed) == normalise_half(piece.label)

    def reads_tags(self) -> bool:
        """Whether the board reads tags: it shows one somewhere (a tag-less board never)."""
        seen = self.session.observation.values()
        return self.session.labels is not None and any(s != OCCUPIED for s in seen)

    # -- the board ------------------------------------------------------------------
    def on_board(self) -> None:
        game = self.game
        if self.menu_action == "choose" and self.session.observation != self._chooser_board:
            # The dominoes it asked about have moved: the answer would be a false move.
            self.menu = None
        if self.counting():
            self._count_board()
            return
        if game.outcome is not None or self.session.restoring:
            return
        self.rejection = ""
        self.waiting = ""
        layout = game.layout()
        seen = self.session.observation
        moved = [c for c, p in layout.items() if c not in seen or not self.matches(p, seen[c])]
        if moved:
            names = sorted({layout[c].label.split(":")[0] for c in moved})
            self._reject(f"put {' and '.join(names)} back on {_span(moved)}")
            return
        added = sorted((c for c in seen if c not in layout), key=cell_index)
        if not added:
            return
        # Only a board that has never shown a tag is read by occupancy and the hand.
        tagless = all(sensed == OCCUPIED for sensed in seen.values())
        if not tagless:
            strange = self._strange(added)
            if strange:
                self._reject(strange)
                return
            unread = [c for c in added if seen[c] == OCCUPIED]
            if unread:
                self.waiting = f"Reading the tag on {unread[0]}: if this stays, lay it again."
                return
        if len(added) > 2:
            self._reject("lay one domino at a time")
            return
        if game.phase not in ("play", "chain"):
            reason = game.explain(Place(0, 0, "H8", "H9"))
            if game.phase == "draw":
                reason += ": press roll"
            self._reject(reason)
            return
        if len(added) == 1:
            half = self._label(seen[added[0]])
            of = f" of {half.split(':')[0]}" if half else ""
            self.waiting = f"Lay the other half{of} beside {added[0]}."
        elif tagless:
            self._by_occupancy(added)
        else:
            self._by_tags(added)

    def _strange(self, cells: list[str]) -> str:
        """Why a tag on ``cells`` shows no domino half; "" if none is strange."""
        labels = self.session.labels
        for cell in cells:
            sensed = self.session.observation[cell]
            if sensed == OCCUPIED or self._label(sensed) is not None:
                continue
            label = labels(sensed) if labels is not None else None
            if label is None:
                return f"an unknown piece on {cell}: enrol its tag with tabletop enrol"
            return f"{cell} holds {label}, not a domino half"
        return ""

    def _by_tags(self, cells: list[str]) -> None:
        seen = self.session.observation
        halves = [parse_half(self._label(seen[c]) or "") for c in cells]
        one, two = halves
        assert one is not None and two is not None
        if one[0] != two[0] or sorted((one[1], two[1])) != [one[0].a, one[0].b]:
            self._reject(
                f"{cells[0]} and {cells[1]} hold halves of two dominoes "
                f"({one[0]} and {two[0]}): lay both halves of one"
            )
            return
        place = Place(one[1], two[1], cells[0], cells[1])
        verdict = self.game.check(place)
        if verdict.accepted:
            self._commit(place)
        else:
            self._reject(verdict.reason)

    def _by_occupancy(self, cells: list[str]) -> None:
        if cell_index(cells[1]) not in NEIGHBOURS[cell_index(cells[0])]:
            self._reject(f"{cells[0]} and {cells[1]} are not next to each other")
            return
        fits = [p for p in self.game.placements() if {p.cell_a, p.cell_b} == set(cells)]
        if not fits:
            self._reject(f"no domino in your hand fits on {_span(cells)}")
        elif len(fits) == 1:
            self._commit(fits[0])
        else:
            options = [(self._placed(p), p) for p in fits]
            self._chooser_board = dict(self.session.observation)
            self.open_menu("choose", "Which domino?", options)

    def _reject(self, reason: str) -> None:
        self.rejection = reason
        self.session.reject(Verdict.reject(reason))

    def _commit(self, action: Action) -> None:
        game = self.game
        self._mover = game.to_move
        self._before = game.hand(self._mover)
        verdict = self.session.commit(action)
        if not verdict.accepted:
            self._reject(verdict.reason)
            return
        self.cursor = 0
        self.note = ""
        taken = list((Counter(game.hand(self._mover)) - Counter(self._before)).elements())
        self.dealt = (self._mover, taken) if taken else None
        if game.outcome is not None:
            tied = _tied(game)
            if len(tied) > 1:
                self.rejection = ""
                self.waiting = ""
                self.count = TieCount(tied, by_tags=self.reads_tags())
            return
        # The board may already hold the next domino (laid before roll was pressed).
        self.on_board()

    # -- buttons ------------------------------------------------------------------
    def on_button(self, event: ButtonEvent) -> None:
        if self.counting():
            self._count_button(event)
            return
        if event.name == "back" and event.long and self.menu is None:
            return
        super().on_button(event)

    def on_game_button(self, event: ButtonEvent) -> None:
        game = self.game
        phase = game.phase
        self.note = ""
        layout = game.layout()
        unjudged = any(cell not in layout for cell in self.session.observation)
        if event.name == "ok" and phase in ("play", "chain") and unjudged:
            # Ok with a domino lying there asks again (after a chooser was cancelled).
            self.on_board()
        elif phase == "draw" and event.name == "roll":
            self._commit(Draw())
        elif phase == "discard":
            options = self.discards()
            if event.name in ("left", "right"):
                step = 1 if event.name == "right" else -1
                self.cursor = (self.cursor + step) % len(options)
            elif event.name == "ok":
                self._commit(options[self.cursor % len(options)])
        elif phase == "chain":
            if event.name == "ok":
                self._commit(EndTurn())
        elif phase == "play" and event.name in ("ok", "roll"):
            self.note = "A domino fits: lay one."

    def on_menu_choice(self, action: str, choice: Any) -> None:
        if action == "choose":
            self._commit(choice)
        else:
            super().on_menu_choice(action, choice)

    # -- the count at a tie ---------------------------------------------------------
    def counting(self) -> bool:
        """Whether the tied hands are being counted (the result waits for it)."""
        return self.count is not None and not self.count.done

    def _count_board(self) -> None:
        count = self.count
        assert count is not None
        if count.stage == LIFT and not self.session.fixes():
            count.next_seat()

    def _count_button(self, event: ButtonEvent) -> None:
        count = self.count
        assert count is not None
        name = event.name
        if count.stage == LAY:
            if name == "ok":
                self._read_hand()
            elif name == "back":
                count.by_buttons()
        elif count.stage == LIFT:
            self._count_board()
        elif name in ("left", "right"):
            count.step(name == "right", event.long)
        elif name == "ok":
            dealt = sum(d.pips for d in self.game.hand(count.seat))
            if count.entry == dealt:
                count.take(dealt)
                self.session.signals.accepted()
            else:
                who = _short(count.seat)
                self._refuse_count(
                    f"{who}'s hand should hold {dealt} pips, not {count.entry}: count again"
                )

    def _refuse_count(self, problem: str, laid: int | None = None) -> None:
        assert self.count is not None
        self.count.refuse(problem, laid)
        self.session.reject(Verdict.reject(problem))

    def _read_hand(self) -> None:
        """Read the hand laid on the board, check it against the deal and take its sum."""
        count = self.count
        assert count is not None
        game = self.game
        layout = game.layout()
        seen = self.session.observation
        moved = [c for c, p in layout.items() if c not in seen or not self.matches(p, seen[c])]
        if moved:
            names = sorted({layout[c].label.split(":")[0] for c in moved})
            self._refuse_count(f"put {' and '.join(names)} back on {_span(moved)} first")
            return
        added = sorted((c for c in seen if c not in layout), key=cell_index)
        strange = self._strange(added)
        unread = [c for c in added if seen[c] == OCCUPIED]
        if strange:
            self._refuse_count(strange)
            return
        if unread:
            self._refuse_count(f"the tag on {unread[0]} is not read: lay it again")
            return
        halves = [parse_half(self._label(seen[c]) or "") for c in added]
        whole, alone = pair_halves(h for h in halves if h is not None)
        if alone:
            self._refuse_count(f"only one half of {alone[0]} is read: lay it again")
            return
        pips = sum(d.pips for d in whole)
        wrong = mismatch(_short(count.seat), game.hand(count.seat), whole)
        if wrong:
            self._refuse_count(wrong, pips)
            return
        count.take(pips)
        self.session.signals.accepted()
        self._count_board()  # an empty hand has nothing to lift

    def discards(self) -> list[Discard]:
        """What may go to the pit now, in the order the cursor walks them."""
        return [a for a in self.game.legal_actions() if isinstance(a, Discard)]

    # -- words ----------------------------------------------------------------------
    @staticmethod
    def _placed(place: Place) -> str:
        return f"{place.domino_a}-{place.domino_b} on {place.cell_a}–{place.cell_b}"

    def describe(self, action: Action) -> str:
        taken = list((Counter(self.game.hand(self._mover)) - Counter(self._before)).elements())
        refill = f", takes {_dominoes(taken)}" if taken else ""
        if isinstance(action, Draw):
            return f"draws {_dominoes(taken)}"
        if isinstance(action, Place):
            return self._placed(action) + refill
        if isinstance(action, Discard):
            return f"puts {action.a}-{action.b} in the pit" + refill
        if isinstance(action, EndTurn):
            return "ends the turn" + refill
        return action.type

    def header(self) -> tuple[str, str]:
        game = self.game
        status = f"bone {game.boneyard_count}"
        if game.outcome is not None:
            return ("Game over", status)
        return (f"{_short(game.to_move)} {VERBS.get(game.phase, 'plays')}", status)

    def score_line(self) -> str:
        """Every seat's score and, in brackets, the pips of its track space."""
        game = self.game
        parts = []
        for seat, score in enumerate(game.scores()):
            pips = game.track_pips(game.track_space(seat))
            parts.append(f"{_short(seat)} {score}" + ("" if pips is None else f"({pips})"))
        return " ".join(parts)

    def last_line(self) -> str:
        """The last placement and who it gave points to, the +3s included."""
        last = self.session.last_move
        if not last or last["action"]["type"] != Place.type:
            return ""
        action = last["action"]
        names = {self.game.seat_name(p): _short(p) for p in range(self.game.players)}
        points = " ".join(f"{names[k]}+{v}" for k, v in last["points"].items() if v)
        mover = names.get(last["player"], last["player"])
        text = f"{mover} laid {action['domino_a']}-{action['domino_b']}"
        return f"{text}: {points}" if points else text

    def dealt_line(self) -> str:
        if self.dealt is None:
            return ""
        seat, taken = self.dealt
        return f"{_short(seat)}: take {_dominoes(taken)}."

    def wants_fixes(self) -> bool:
        lifting = self.counting() and self.count is not None and self.count.stage == LIFT
        return bool(self.rejection) or lifting

    def fix_text(self, fix: Fix) -> str:
        """A fix in a player's words: which half goes where."""
        if fix.action == "lift":
            half = parse_half(fix.note) if fix.note and fix.note != "unknown" else None
            if half is not None:
                return f"Lift {fix.cell} ({half[0]})"
            return fix.text()
        if fix.piece is not None:
            half = parse_half(fix.piece.label)
            if half is not None:
                return f"Put the {half[1]} of {half[0]} on {fix.cell}"
        return fix.text()

    def screen(self) -> Screen:
        title, status = self.header()
        game = self.game
        if game.outcome is not None:
            if self.counting():
                return self.count_screen()
            return Screen(title, status, self.result_lines())
        if self.menu is not None:
            return self.menu_screen()
        if self.rejection:
            fixes = self.session.fixes()
            if fixes:
                more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
                shown = ("No: " + self.rejection, self.fix_text(fixes[0]) + more)
                return Screen(title, status, shown, self.board_map(fixes[0].cell))
        hand = f"Hand {_dominoes(game.hand(game.to_move))}"
        lines: list[str] = []
        if self.note:
            lines.append(self.note)
        if self.waiting:
            lines.append(self.waiting)
        elif game.phase == "draw":
            lines.append("Press roll to draw.")
        elif game.phase == "play":
            lines.append("Lay a domino.")
        elif game.phase == "chain":
            lines.append(f"Double! Lay one beside {game.chain_double}, or ok to end.")
        elif game.phase == "discard":
            options = self.discards()
            choice = options[self.cursor % len(options)]
            lines += ["Nothing fits: pit one", f"< {choice.a}-{choice.b} >  ok: pit it"]
        lines += [self.dealt_line(), hand, self.score_line(), self.last_line()]
        return Screen(title, status, tuple(line for line in lines if line))

    def count_screen(self) -> Screen:
        """What the OLED asks while a tied hand is counted."""
        count = self.count
        assert count is not None
        title = "Tie: count the pips"
        who = _short(count.seat)
        done = " ".join(f"{_short(p)} {n}" for p, n in count.counted.items() if p != count.seat)
        counted = f"Counted: {done}" if done else ""
        if count.stage == LIFT:
            fixes = self.session.fixes()
            lines = [f"{who}: {count.counted[count.seat]} pips.", "Take it off:"]
            focus = fixes[0].cell if fixes else None
            if fixes:
                more = f" (1/{len(fixes)})" if len(fixes) > 1 else ""
                lines.append(self.fix_text(fixes[0]) + more)
            return Screen(title, "", tuple(lines), self.board_map(focus))
        if count.stage == LAY:
            if count.problem and count.laid is not None:
                lines = [count.problem, f"Laid {count.laid} pips: put it right, then ok."]
            elif count.problem:
                lines = [f"No: {count.problem}", "then ok."]
            else:
                lines = [f"{who}: lay your hand on", "free cells, then ok.", "back: enter the pips"]
        else:
            lines = [
                count.problem or f"{who}: pips in hand?",
                f"< {count.entry} >  ok: that's it",
                f"L/R: -1/+1, held {LONG_STEP}",
            ]
        return Screen(title, "", tuple(line for line in [*lines, counted] if line))

    def result_lines(self) -> tuple[str, ...]:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        winners = " and ".join(_short(p) for p in outcome.winners)
        lines = [f"{winners} {'win' if len(outcome.winners) > 1 else 'wins'}"]
        scores = game.scores()
        best = max(scores)
        tied = [p for p in range(game.players) if scores[p] == best]
        if best >= game.victory_total:
            lines.append(f"Reached {game.victory_total}.")
        elif game.boneyard_count == 0:
            lines.append("Boneyard empty.")
        else:
            lines.append("No space left.")
        if len(tied) > 1:
            pips = " ".join(f"{_short(p)} {sum(d.pips for d in game.hand(p))}" for p in tied)
            lines.append(f"Tie on {best}; pips in hand: {pips}")
        lines.append(self.score_line())
        return tuple(line for line in lines if line)

    def extra_state(self) -> dict[str, Any]:
        game = self.game
        track = {
            game.seat_name(p): {
                "space": game.track_space(p),
                "pips": game.track_pips(game.track_space(p)),
            }
            for p in range(game.players)
        }
        dealt = None
        if self.dealt is not None:
            dealt = {
                "player": game.seat_name(self.dealt[0]),
                "dominoes": [str(d) for d in self.dealt[1]],
            }
        return {
            "phase": "count" if self.counting() else game.phase,
            "count": None if self.count is None else self.count.to_dict(game.seat_name),
            "boneyard": game.boneyard_count,
            "pit": len(game.pit),
            "hand": [str(d) for d in sorted(game.hand(game.to_move))],
            "track": track,
            "dealt": dealt,
            "chain_double": game.chain_double,
        }

    # -- simulation -----------------------------------------------------------------
    def piece_labels(self, cells: list[str], piece: str) -> list[str]:
        if len(cells) == 1:
            return [piece]  # one half ("6-3:6"), or a stray piece whose tag is no half
        pips = piece.split("-")
        labels = [f"{piece}:{pip}" for pip in pips]
        if len(cells) != 2 or len(pips) != 2 or not all(map(parse_half, labels)):
            raise ValueError(
                f"a domino is laid on two cells as 'place H8,H9 6-3', not {','.join(cells)} {piece}"
            )
        return labels

    def hand(self, action: Action) -> list[tuple[str, ...]]:
        return self._action_hand(action) + self._count_hand(action)

    def _action_hand(self, action: Action) -> list[tuple[str, ...]]:
        if isinstance(action, Draw):
            return [("press", "roll")]
        if isinstance(action, Place):
            domino = f"{action.domino_a}-{action.domino_b}"
            cells = f"{action.cell_a},{action.cell_b}"
            # A reader sweep reads each cell twice before the host's settle window starts.
            return [("place", cells, domino), ("wait", str(SWEEP_WAIT_S))]
        if isinstance(action, EndTurn):
            return [("press", "ok")]
        if isinstance(action, Discard):
            options = self.discards()
            index = options.index(action) if action in options else 0
            steps: list[tuple[str, ...]] = [("press", "right")] * index
            return [*steps, ("press", "ok")]
        return []

    def _count_hand(self, action: Action) -> list[tuple[str, ...]]:
        """The count at a tie, when ``action`` ends the game in one: each tied player
        lays the hand, presses ok and lifts it again (or enters the total)."""
        after = self.game.copy()
        if not after.play(action).accepted or after.outcome is None:
            return []
        tied = _tied(after)
        if len(tied) < 2:
            return []
        by_tags = self.reads_tags()
        steps: list[tuple[str, ...]] = []
        for seat in tied:
            hand = sorted(after.hand(seat))
            pairs = free_pairs(after.layout(), len(hand)) if by_tags else []
            if by_tags and len(pairs) == len(hand):
                for domino, (a, b) in zip(hand, pairs, strict=True):
                    steps += [("place", f"{a},{b}", str(domino)), ("wait", str(SWEEP_WAIT_S))]
                steps.append(("press", "ok"))
                steps += [("lift", cell) for pair in pairs for cell in pair]
                steps.append(("wait", str(SWEEP_WAIT_S)))  # the last lift settles too
                continue
            if by_tags:
                steps.append(("press", "back"))  # no room to lay it: count on the buttons
            total = sum(d.pips for d in hand)
            steps += [("hold", "right")] * (total // LONG_STEP)
            steps += [("press", "right")] * (total % LONG_STEP)
            steps.append(("press", "ok"))
        return steps
