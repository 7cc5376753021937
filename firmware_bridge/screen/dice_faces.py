"""Dice drawn as faces with pips on the 1-bit OLED: a die is 12 × 12 pixels.

A die is drawn ``filled`` (a lit square with dark pips) or outlined (a frame with lit
pips), so two groups of dice can be told apart without colour. A die not yet rolled
is a dotted frame. Rolled dice tumble for a moment through faces of a fixed sequence
(``tumble_faces``) before they settle on the faces that were rolled.
"""

from __future__ import annotations

from functools import cache

from msgspec import Struct
from PIL import Image, ImageChops, ImageDraw, ImageFont

from .font import screen_font

SIZE = 12
"""Width and height of a die in pixels."""

_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
"""Pip places on a 3 × 3 grid (column, row) for each face."""

_PIP_AT = (2, 5, 8)
"""Pixel offsets of the grid's columns and rows inside a die (each pip is 2 × 2)."""

TUMBLE_S = 0.24
"""How long rolled dice tumble on the OLED before they show the rolled faces."""
TUMBLE_FRAME_S = 0.08
"""How long a tumbling die shows each face."""


def pips(face: int) -> tuple[tuple[int, int], ...]:
    """Where the pips of ``face`` lie on the 3 × 3 grid (column, row)."""
    try:
        return _PIPS[face]
    except KeyError:
        raise ValueError(f"a die shows 1 to 6, not {face!r}") from None


def draw_die(
    draw: ImageDraw.ImageDraw, x: int, y: int, face: int | None, filled: bool = False
) -> None:
    """Draw one die with its top-left corner at (x, y); ``None`` is a die not yet rolled."""
    lit, dark = _die_masks(face, filled)
    draw.bitmap((x, y), lit, fill=255)
    draw.bitmap((x, y), dark, fill=0)


@cache
def _die_masks(face: int | None, filled: bool) -> tuple[Image.Image, Image.Image]:
    """The pixels a die lights and those it darkens; the rest of its square is left as
    it was. Drawn once per face and style, on a dark and on a lit square: a pixel the
    drawing leaves alone keeps the two squares' different values."""
    on_dark, on_lit = Image.new("1", (SIZE, SIZE), 0), Image.new("1", (SIZE, SIZE), 255)
    for square in (on_dark, on_lit):
        _draw_die_pixels(ImageDraw.Draw(square), face, filled)
    written = ImageChops.logical_xor(on_dark, on_lit).point(lambda v: 255 - v)
    lit = ImageChops.logical_and(written, on_dark)
    dark = ImageChops.logical_and(written, ImageChops.invert(on_dark))
    return lit, dark


def _draw_die_pixels(draw: ImageDraw.ImageDraw, face: int | None, filled: bool) -> None:
    """A die at (0, 0), drawn shape by shape."""
    last = SIZE - 1
    if face is None:
        for i in range(0, SIZE, 2):
            for px, py in ((i, 0), (i, last), (0, i), (last, i)):
                draw.point((px, py), fill=255)
        return
    if filled:
        draw.rectangle((0, 0, last, last), fill=255)
    else:
        draw.rectangle((0, 0, last, last), outline=255)
    ink = 0 if filled else 255
    for col, row in pips(face):
        px, py = _PIP_AT[col], _PIP_AT[row]
        draw.rectangle((px, py, px + 1, py + 1), fill=ink)
    # Dark corners round the die off, so that two dice side by side read as two.
    for px, py in ((0, 0), (last, 0), (0, last), (last, last)):
        draw.point((px, py), fill=0)


def tumble_faces(seed: int, frame: int, count: int) -> tuple[int, ...]:
    """The faces ``count`` tumbling dice show in ``frame`` of the roll numbered ``seed``.

    A fixed sequence in which every die changes face every frame. It is not the
    station's dice: the faces that count come from the one roll the journal holds.
    """
    faces = []
    for die in range(count):
        start = (seed * 5 + die * 3) % 6
        step = 1 + (seed + 2 * die) % 5  # never a multiple of 6, so the face changes
        faces.append((start + frame * step) % 6 + 1)
    return tuple(faces)


def _font() -> ImageFont.ImageFont:
    return screen_font()


def _pair_word(pair: tuple[int, int]) -> str:
    """What a pair names: its sum, or ``*`` for a double (a wild line)."""
    return "*" if pair[0] == pair[1] else str(sum(pair))


class RollPicture(Struct, frozen=True):
    """A turn's dice in one row: the red pair filled, the blue pair outlined, each
    followed by the row or column it names (``*``: a double, that line is wild).

    A pair still ``rolling`` (red, blue) shows tumbling faces and names no line yet.
    """

    red: tuple[int, int]
    blue: tuple[int, int]
    rolling: tuple[bool, bool] = (False, False)

    @property
    def height(self) -> int:
        return SIZE + 3

    def draw(self, draw: ImageDraw.ImageDraw, top: int, right: int) -> None:
        y = top + 1
        font = _font()
        pairs = ((1, self.red, True, self.rolling[0]), (41, self.blue, False, self.rolling[1]))
        for x0, pair, filled, rolling in pairs:
            for i, face in enumerate(pair):
                draw_die(draw, x0 + i * (SIZE + 1), y, face, filled)
            word = "?" if rolling else _pair_word(pair)
            draw.text((x0 + 2 * (SIZE + 1) + 1, y), word, font=font, fill=255)

    def words(self) -> tuple[str, ...]:
        parts = []
        named = (("red", self.red, self.rolling[0]), ("blue", self.blue, self.rolling[1]))
        for name, pair, rolling in named:
            shown = "rolling" if rolling else f"{pair[0]} {pair[1]} ({_pair_word(pair)})"
            parts.append(f"{name} {shown}")
        return (", ".join(parts),)


class BattleRow(Struct, frozen=True):
    """One side of a battle: its name, three dice (``None``: not rolled), which are kept
    and how many of its three rolls are used. A side still ``rolling`` shows tumbling
    faces on the dice it rolled and no total yet."""

    name: str
    dice: tuple[int | None, ...]
    kept: tuple[bool, ...]
    rolls: int
    rolling: bool = False

    def total(self) -> int:
        return sum(d for d in self.dice if d is not None)

    def total_word(self) -> str:
        return "=?" if self.rolling else f"={self.total()}"

    def words(self) -> str:
        if self.rolling:
            return f"{self.name} rolling ({self.rolls}/3)"
        faces = " ".join("-" if d is None else str(d) for d in self.dice)
        kept = [str(i + 1) for i, k in enumerate(self.kept) if k]
        keeps = f" keeps {','.join(kept)}" if kept else ""
        return f"{self.name} {faces} ={self.total()} ({self.rolls}/3){keeps}"


class BattlePicture(Struct, frozen=True):
    """Both sides of a battle, attacker on top: kept dice are filled, the side to roll
    has its name lit, and ``cursor`` (a die of that side) is underlined."""

    rows: tuple[BattleRow, BattleRow]
    roller: int | None = None
    cursor: int | None = None

    @property
    def height(self) -> int:
        return 2 * (SIZE + 3)

    def draw(self, draw: ImageDraw.ImageDraw, top: int, right: int) -> None:
        font = _font()
        for side, row in enumerate(self.rows):
            y = top + 1 + side * (SIZE + 3)
            if side == self.roller:
                draw.rectangle((0, y - 1, 38, y + SIZE), fill=255)
            draw.text((1, y), row.name[:6], font=font, fill=0 if side == self.roller else 255)
            for i, face in enumerate(row.dice):
                x = 40 + i * (SIZE + 2)
                draw_die(draw, x, y, face, filled=row.kept[i])
                if side == self.roller and i == self.cursor:
                    draw.rectangle((x, y + SIZE + 1, x + SIZE - 1, y + SIZE + 2), fill=255)
            draw.text((84, y), row.total_word(), font=font, fill=255)
            draw.text((108, y), f"{row.rolls}/3", font=font, fill=255)

    def words(self) -> tuple[str, ...]:
        return tuple(row.words() for row in self.rows)
