"""What a tap on the browser seat's page means in each game: the moves a player
chooses, one tap or one form at a time, checked against the rules before they are sent.
A tap that cannot be taken is a :class:`Refusal`: its status and the one line that says
why."""

from __future__ import annotations

import re

from games.core import Action

from ..spectate.project import describe
from ..spectate.seat_page import Offer
from . import seat_pieces
from .browser_seat import Draft, Seat

MODES = {
    "double-take": "move",
    "doubles-wild": "cell",
    "crosslet": "tiles",
    **seat_pieces.MODES,
}
"""How a player says a move on the page: ``move`` taps a piece and where it goes,
``cell`` taps the spot, ``tiles`` picks a rack tile and taps its square (then plays
them all); ``domino`` and ``letter`` are the games of hidden pieces' (:mod:`.seat_pieces`)."""

NUMBER = re.compile(r"^[0-9]{1,4}$")
"""A number in a form: an index of the rack or of a list of choices."""


class Refusal(Exception):
    """A request not taken: its status and the one line that says why."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


# -- what a tap means -------------------------------------------------------------------
def mode_of(game: str) -> str:
    mode = MODES.get(game)
    if mode is None:
        playable = ", ".join(MODES)
        raise ValueError(f"{game} cannot be played from a browser seat yet; play {playable}")
    return mode


def _own(seat: Seat, cell: str) -> bool:
    piece = seat.game.layout().get(cell)
    return piece is not None and piece.owner in seat.mine


def _legal(seat: Seat) -> list[Action]:
    """The actions open now in the games of moves and spots (the others' are said by
    tiles, and DoubleCross lists thousands)."""
    if mode_of(seat.game.name) not in ("move", "cell"):
        return []
    return seat.game.legal_actions()


def tap(seat: Seat, cell: str) -> None:
    """The player tapped ``cell`` of the board."""
    if not seat.can_move():
        return
    mode = mode_of(seat.game.name)
    d = seat.draft
    if mode in ("domino", "letter"):
        seat_pieces.tap(seat, cell)
        return
    if mode == "move":
        if d.frm is None or _own(seat, cell):
            if not _own(seat, cell):
                seat.say("tap one of your pieces, then where it goes")
                return
            seat.draft = Draft(frm=None if d.frm == cell else cell)
            seat.bump()
            return
        fits = [
            a.to_dict()
            for a in _legal(seat)
            if a.to_dict().get("frm") == d.frm and a.to_dict().get("to") == cell
        ]
        if len(fits) > 1:
            seat.draft = Draft(frm=d.frm, choices=fits)
            seat.say("this move may be made in more than one way: choose below")
            return
        if fits:
            seat.play(fits[0])
            return
        taken = getattr(seat.game, "sandwiched", None)
        captures = list(taken(d.frm, cell)) if callable(taken) else []
        seat.play({"type": "step", "frm": d.frm, "to": cell, "captures": captures})
        return
    if mode == "cell":
        fits = [a.to_dict() for a in _legal(seat) if a.to_dict().get("cell") == cell]
        if fits:
            seat.play(fits[0])
            return
        piece = seat.game.layout().get(cell)
        kind = "attack" if piece is not None and piece.owner not in seat.mine else "place"
        seat.play({"type": kind, "cell": cell})
        return
    # tiles: a laid tile tapped again goes back to the rack
    laid = dict(d.laid)
    if cell in laid:
        d.laid = [(c, i) for c, i in d.laid if c != cell]
        d.blanks.pop(cell, None)
        seat.bump()
        return
    if d.tile is None:
        seat.say("tap a tile of your rack, then the square it goes on")
        return
    if cell in seat.game.layout():
        seat.say(f"{cell} has a tile already")
        return
    d.laid.append((cell, d.tile))
    d.tile = None
    seat.note = ""
    seat.bump()


def rack(seat: Seat) -> list[str]:
    """The seat's own rack (or hand, and tray), as the page's buttons name them."""
    if mode_of(seat.game.name) in ("domino", "letter"):
        return seat_pieces.pieces(seat)
    mine = sorted(seat.mine)
    seat_rack = getattr(seat.game, "rack", None)
    if not mine or not callable(seat_rack):
        return []
    holder = seat.game.to_move if seat.game.to_move in seat.mine else mine[0]
    return [str(t) for t in seat_rack(holder)]


def pick_tile(seat: Seat, index: int) -> None:
    if not seat.can_move():
        return
    tiles = rack(seat)
    if not 0 <= index < len(tiles) or index in {i for _, i in seat.draft.laid}:
        hand = seat.game.name == "dominoes"
        seat.say("that domino is not in your hand" if hand else "that tile is not on your rack")
        return
    d = seat.draft
    d.tile = None if d.tile == index else index
    d.choices = []
    seat.bump()


def set_blank(seat: Seat, cell: str, letter: str) -> None:
    if not seat.can_move():
        return
    tiles = rack(seat)
    laid = dict(seat.draft.laid)
    if cell not in laid or tiles[laid[cell]] != "?":
        seat.say(f"there is no blank laid on {cell}")
        return
    seat.draft.blanks[cell] = letter.upper()
    seat.bump()


def play_tiles(seat: Seat) -> None:
    tiles = rack(seat)
    d = seat.draft
    if not d.laid:
        seat.say("lay tiles first: tap a tile of your rack, then its square")
        return
    missing = [c for c, i in d.laid if tiles[i] == "?" and c not in d.blanks]
    if missing:
        seat.say(f"say which letter the blank on {missing[0]} stands for")
        return
    laid = [[c, tiles[i]] for c, i in d.laid]
    blanks = [[c, d.blanks[c]] for c, i in d.laid if tiles[i] == "?"]
    seat.play({"type": "place", "tiles": laid, "blanks": blanks})


def exchange(seat: Seat, indexes: list[int]) -> None:
    if not seat.can_move():
        return
    tiles = rack(seat)
    if (
        not indexes
        or any(not 0 <= i < len(tiles) for i in indexes)
        or len(set(indexes)) != len(indexes)
    ):
        seat.say("tick the tiles of your rack to exchange")
        return
    seat.play({"type": "exchange", "letters": [tiles[i] for i in sorted(indexes)]})


def offers(seat: Seat) -> list[Offer]:
    """The buttons the player has now (a move said by taps has none)."""
    if not seat.my_turn():
        return []
    mode = mode_of(seat.game.name)
    if mode in ("domino", "letter"):
        return seat_pieces.offers(seat)
    out: list[Offer] = []
    if mode == "tiles":
        if seat.draft.laid:
            out += [Offer("play", "", "Play these tiles"), Offer("clear", "", "Take them back")]
        out.append(Offer("pass", "", "Pass"))
        return out
    for i, choice in enumerate(seat.draft.choices):
        out.append(Offer("choice", str(i), f"{describe(choice)}"))
    seen: set[str] = set()
    for action in _legal(seat):
        data = action.to_dict()
        kind = str(data["type"])
        if kind in ("step", "place", "attack", "keep"):
            continue  # said by taps (keep: by the dice)
        key = f"{kind}:{data.get('pair', '')}"
        if key in seen:
            continue
        seen.add(key)
        out.append(Offer(kind, str(data.get("pair", "")), LABELS.get(key, describe(data))))
    if any(a.to_dict()["type"] == "keep" for a in _legal(seat)):
        out.append(Offer("keep", "", "Keep the picked dice"))
    return out


LABELS = {
    "pass:": "Pass",
    "roll:": "Roll the dice",
    "reroll:red": "Re-roll the red dice",
    "reroll:blue": "Re-roll the blue dice",
    "reroll:both": "Re-roll all four",
    "battle-roll:": "Roll the battle dice",
    "end-turn:": "End the turn",
}


def do(seat: Seat, act: str) -> None:
    """A button of :func:`offers` pressed (``kind:value``)."""
    if not seat.can_move():
        return
    kind, _, value = act.partition(":")
    if mode_of(seat.game.name) in ("domino", "letter") and kind != "choice":
        seat_pieces.do(seat, kind)
        return
    if kind == "play":
        play_tiles(seat)
        return
    if kind == "clear":
        seat.draft = Draft()
        seat.bump()
        return
    if kind == "choice":
        choices = seat.draft.choices
        if not NUMBER.match(value) or int(value) >= len(choices):
            seat.say("that choice is no longer there")
            return
        seat.play(choices[int(value)])
        return
    if kind == "keep":
        seat.play({"type": "keep", "dice": sorted(seat.draft.keep)})
        return
    if kind == "pass" and mode_of(seat.game.name) == "tiles":
        seat.play({"type": "pass"})
        return
    for action in _legal(seat):
        data = action.to_dict()
        if data["type"] == kind and str(data.get("pair", "")) == value:
            seat.play(data)
            return
    seat.say(f"{kind} {value}".strip() + " is not open now")


def battle_dice(seat: Seat) -> list[tuple[int, int, bool]]:
    """The seat's battle dice it may keep now: index, face, picked."""
    if not seat.my_turn() or not any(a.to_dict()["type"] == "keep" for a in _legal(seat)):
        return []
    battle = seat.game.state_dict().get("battle") or {}
    side = 0 if battle.get("attacker") == seat.game.to_move else 1
    dice = (battle.get("dice") or [[], []])[side]
    return [(i, int(f), i in seat.draft.keep) for i, f in enumerate(dice) if isinstance(f, int)]


def toggle_keep(seat: Seat, index: int) -> None:
    if not seat.can_move():
        return
    if index not in {i for i, _, _ in battle_dice(seat)}:
        seat.say("that die cannot be kept now")
        return
    seat.draft.keep ^= {index}
    seat.bump()
