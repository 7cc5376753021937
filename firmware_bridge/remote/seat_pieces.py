"""What a tap on the browser seat's page means in the games of hidden pieces: Dominoes
(a domino of the hand, then the two squares it covers) and DoubleCross (a tile of the
rack or a bomb of the tray, then its square). The hand or rack shown is the seat's
own, as its game holds it (:mod:`.seat_sealed`); every move is judged by the rules
before it is sent, so a refusal says their reason."""

from __future__ import annotations

from typing import Any

from ..spectate.project import describe
from ..spectate.seat_page import Offer
from .browser_seat import Draft, Seat

MODES = {"dominoes": "domino", "doublecross": "letter"}
"""``domino``: pick a domino of the hand, tap the square for its first half, then the
square next to it; ``letter``: pick a rack tile or a tray bomb, tap its square."""

LABELS = {
    "draw": "Draw a domino",
    "end-turn": "End the turn",
    "discard": "Put the picked domino in the pit",
    "end-game": "End the game",
    "undo": "Take the last tile back",
    "new-letters": "New letters",
    "pass": "Pass",
}
DOUBLECROSS_BUTTONS = ("end-game", "undo", "new-letters", "pass", "end-turn")
BOMB = " bomb"
"""How a tray's bomb is named among the rack's tiles (``ns bomb``)."""


def _holder(seat: Seat) -> int | None:
    mine = sorted(seat.mine)
    if not mine or not seat.ready():
        return None
    return seat.game.to_move if seat.game.to_move in seat.mine else mine[0]


def pieces(seat: Seat) -> list[str]:
    """The seat's own hand (dominoes, ``3-5``) or rack and tray (``E``, ``ns bomb``)."""
    holder = _holder(seat)
    if holder is None:
        return []
    game: Any = seat.game
    if game.name == "dominoes":
        return [str(domino) for domino in game.hand(holder)]
    return [*game.rack(holder), *(f"{kind}{BOMB}" for kind in game.tray(holder))]


def tap(seat: Seat, cell: str) -> None:
    """The player tapped ``cell`` of the board (the seat may move: checked)."""
    d = seat.draft
    held = pieces(seat)
    if d.tile is None or not 0 <= d.tile < len(held):
        what = "a domino of your hand" if seat.game.name == "dominoes" else "a tile of your rack"
        seat.say(f"tap {what}, then the square it goes on")
        return
    piece = held[d.tile]
    if seat.game.name == "doublecross":
        if piece.endswith(BOMB):
            seat.play({"type": "bomb", "kind": piece.removesuffix(BOMB), "cell": cell})
        else:
            seat.play({"type": "place", "cell": cell, "letter": piece})
        return
    if d.frm is None or d.frm == cell:
        seat.draft = Draft(tile=d.tile, frm=None if d.frm == cell else cell)
        seat.bump()
        return
    a, b = (int(pip) for pip in piece.split("-"))
    ways = [(a, b)] if a == b else [(a, b), (b, a)]
    tries = [
        {"type": "place", "domino_a": x, "domino_b": y, "cell_a": d.frm, "cell_b": cell}
        for x, y in ways
    ]
    fits = [t for t in tries if seat.game.judge(seat.game.decode(t)).accepted]
    if len(fits) > 1:
        seat.draft = Draft(tile=d.tile, frm=d.frm, choices=fits)
        seat.say("this domino fits both ways round: choose below")
        return
    seat.play(fits[0] if fits else tries[0])  # none: the rules say why


def offers(seat: Seat) -> list[Offer]:
    """The buttons the player has now (their turn: checked by the caller)."""
    game: Any = seat.game
    d = seat.draft
    out = [Offer("choice", str(i), _said(c)) for i, c in enumerate(d.choices)]
    if game.name == "dominoes":
        kinds = {a.to_dict()["type"] for a in game.legal_actions()}
        for kind in ("draw", "end-turn"):
            if kind in kinds:
                out.append(Offer(kind, "", LABELS[kind]))
        if "discard" in kinds and d.tile is not None:
            out.append(Offer("discard", "", LABELS["discard"]))
        return out
    for kind in DOUBLECROSS_BUTTONS:
        data = _simple(seat, kind)
        if game.judge(game.decode(data)).accepted:
            out.append(Offer(kind, "", LABELS[kind]))
    return out


def _said(data: dict[str, Any]) -> str:
    if data.get("type") == "place" and "domino_a" in data:
        return f"{data['domino_a']} on {data['cell_a']}, {data['domino_b']} on {data['cell_b']}"
    return describe(data)


def _simple(seat: Seat, kind: str) -> dict[str, Any]:
    if kind == "end-game":
        game: Any = seat.game
        return {"type": kind, "player": game.may_end}
    return {"type": kind}


def do(seat: Seat, kind: str) -> None:
    """A button of :func:`offers` pressed, but for a choice (the seat may move)."""
    d = seat.draft
    if kind == "discard":
        held = pieces(seat)
        if seat.game.name != "dominoes" or d.tile is None or not 0 <= d.tile < len(held):
            seat.say("tap the domino of your hand to put in the pit first")
            return
        a, b = (int(pip) for pip in held[d.tile].split("-"))
        seat.play({"type": "discard", "a": a, "b": b})
        return
    buttons = ("draw", "end-turn") if seat.game.name == "dominoes" else DOUBLECROSS_BUTTONS
    if kind not in buttons:
        seat.say(f"{kind} is not open now")
        return
    seat.play(_simple(seat, kind))
