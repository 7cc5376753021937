"""The colours of the lights under the squares, each with what it means.

The hues are Okabe and Ito's palette, chosen so that people with the common
colour-vision deficiencies (protanopia, deuteranopia, tritanopia) can tell them
apart: no red/green pair carries a meaning. Where two hues come close for some
readers (the fix's lift and place, a move's from and to), brightness tells them
apart as well: the fix to do now and a move's destination are lit brighter.

A lit square is named by its colour's name everywhere it is seen (the ``--json``
state's ``leds``, the spectators, the board pictures); the chain gets the RGB
values at the device, scaled by the profile's brightness and current budget.
"""

from __future__ import annotations

from msgspec import Struct

RGB = tuple[int, int, int]


class Colour(Struct, frozen=True):
    """One colour of the lights: its name, its RGB at full brightness and its meaning."""

    name: str
    rgb: RGB
    meaning: str


LIFT_NOW = "lift-now"
LIFT = "lift"
PLACE_NOW = "place-now"
PLACE = "place"
FROM = "from"
TO = "to"
HINT = "hint"
SPOT = "spot"
DESTROYED = "destroyed"
LAST = "last"

_ORANGE = (230, 159, 0)
_SKY_BLUE = (86, 180, 233)
_YELLOW = (240, 228, 66)
_BLUE = (0, 114, 178)
_PURPLE = (204, 121, 167)
_VERMILLION = (213, 94, 0)
_WHITE = (255, 255, 255)


def _dim(rgb: RGB, share: float) -> RGB:
    r, g, b = rgb
    return (round(r * share), round(g * share), round(b * share))


COLOURS: dict[str, Colour] = {
    c.name: c
    for c in (
        Colour(LIFT_NOW, _ORANGE, "lift the piece here now (the fix asked first)"),
        Colour(LIFT, _dim(_ORANGE, 0.35), "a piece to lift here, after the current fix"),
        Colour(PLACE_NOW, _SKY_BLUE, "put a piece here now (the fix asked first)"),
        Colour(PLACE, _dim(_SKY_BLUE, 0.35), "a piece to put here, after the current fix"),
        Colour(FROM, _dim(_YELLOW, 0.5), "the computer's move: take the piece from here"),
        Colour(TO, _BLUE, "the computer's move: put it here"),
        Colour(HINT, _PURPLE, "the hint's move (a long press of ok)"),
        Colour(SPOT, _WHITE, "where the game points: the roll's spot, the battle, the bomb's aim"),
        Colour(DESTROYED, _VERMILLION, "a tile the bomb destroyed: lift it"),
        Colour(LAST, _dim(_WHITE, 0.2), "the last accepted move, for a moment"),
    )
}
"""Every colour, by name; the names are what the state and the pictures carry."""

FIX_COLOURS = frozenset({LIFT_NOW, LIFT, PLACE_NOW, PLACE})
"""The colours that ask for a fix of the board."""


def rgb(name: str) -> RGB:
    """The RGB of a colour by its name; a ValueError names the known ones."""
    try:
        return COLOURS[name].rgb
    except KeyError:
        known = ", ".join(sorted(COLOURS))
        raise ValueError(f"no light colour {name!r}: the colours are {known}") from None
