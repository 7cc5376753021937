"""How a board looks, whatever draws it: seat colours, pips, and each piece's look.

The spectators' SVG (``svg.py``) and the PNG of ``tabletop show`` (``board_png.py``)
both draw a cell's piece from :func:`piece_look`, so the two pictures of one board
cannot disagree about what stands where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from msgspec import Struct

NAMED_COLOURS = {
    "red": "#d62728",
    "green": "#2ca02c",
    "blue": "#1f77b4",
    "yellow": "#e6b800",
    "black": "#222222",
    "white": "#f5f5f5",
    "orange": "#ff7f0e",
    "purple": "#9467bd",
}
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
NO_OWNER = "#777777"
BOARD = "#c8a165"
CELL_FILL = "#efe6d2"
CELL_LINE = "#a08660"
TILE_FILL = "#f3e2b3"
TILE_EDGE = "#8a6d3b"
DOMINO_FILL = "#fffdf5"
FIX = "#ff6d00"
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}
"""Where the pips of a die or a domino half sit, as fractions of its side."""


def hex_colour(rgb: tuple[int, int, int]) -> str:
    """``#rrggbb`` of an RGB (a light's colour of ``palette.py``, as the pictures draw it)."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def seat_colour(seats: Sequence[str], owner: Any) -> str:
    """A seat's colour: its own name when that is a colour, else one from a palette."""
    if not isinstance(owner, int) or owner < 0:
        return NO_OWNER
    name = seats[owner] if owner < len(seats) else ""
    return NAMED_COLOURS.get(name.lower(), PALETTE[owner % len(PALETTE)])


PieceKind = Literal["domino", "tile", "disc"]


class PieceLook(Struct, frozen=True):
    """What to draw for one piece of a layout."""

    kind: PieceKind
    """A domino half (pips), a letter tile, or a disc (a game piece, a ball)."""
    label: str
    colour: str
    """Its owner's colour (grey when nobody owns it)."""
    owned: bool
    stable: bool
    """Drawn with a heavy edge: a stable tile, a settled piece."""
    state: str
    pips: int
    """A domino half's pips, -1 when its label does not say."""
    text: str
    """The letter shown on a tile (upper case; ``?`` for a blank not yet named)."""
    faint: bool
    """A tile's letter is drawn faint: a blank standing for a letter."""


def piece_look(piece: Mapping[str, Any], seats: Sequence[str]) -> PieceLook:
    """The look of a layout entry (``{"kind", "label", "owner", "state"}``).

    A game this has never heard of is still drawn: one-letter labels as tiles,
    anything else as a disc in its owner's colour.
    """
    kind = str(piece.get("kind", ""))
    label = str(piece.get("label", ""))
    owner = piece.get("owner")
    state = str(piece.get("state", "") or "")
    stable = bool(piece.get("stable")) or state == "stable"
    look: PieceKind
    if kind == "domino":
        look = "domino"
    elif kind in ("tile", "letter") or (len(label) == 1 and (label.isalpha() or label == "?")):
        look = "tile"
    else:
        look = "disc"
    half = label.partition(":")[2]
    return PieceLook(
        kind=look,
        label=label,
        colour=seat_colour(seats, owner),
        owned=owner is not None,
        stable=stable,
        state=state,
        pips=int(half) if half.isdigit() and int(half) in PIPS else -1,
        text=label.upper(),
        faint=label.islower() or label == "?",
    )
