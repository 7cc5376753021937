"""What a board may send the hub: every message checked when it is taken in.

A message on the club's broker may come from anyone who can publish there (another
program, a board of another version, a stranger), so nothing in it is trusted:
its size is bounded before it is parsed and its nesting as it is (the parser stops
at Python's recursion limit, and one walk after it bounds the depth and every value,
without recursion: a deeply nested message never ends the thread), numbers must be
finite, every text must be valid Unicode (no lone surrogate), texts and tables are
bounded, colours come from a strict pattern, and every field the pages draw has the
type they draw.
A message that fails is refused whole with a reason (:class:`MessageRefused`), which
the hub counts per board on its diagnostics page.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from games.levels import NAMES as _LEVEL_NAMES

from ..screen.palette import COLOURS
from .errors import MessageRefused

MAX_PAYLOAD = 64 * 1024
"""Bytes in one message. A Crosslet state with every square covered is about 20 KB."""
MAX_DEPTH = 12
"""Nesting of lists and tables in one message (the real ones reach 6)."""
MAX_TEXT = 1000
"""Characters in one string anywhere in a message."""
MAX_ITEMS = 2000
"""Entries in one list or table anywhere in a message."""
MAX_INT = 2**53
"""Whole numbers beyond this are refused (JavaScript cannot hold them exactly)."""
MAX_CELLS = 4096
MAX_SIDE = 128
"""Columns or rows of a board's drawing plan."""
MAX_SEATS = 16
LEVELS = tuple(_LEVEL_NAMES[n] for n in sorted(_LEVEL_NAMES))
"""The computer's levels by name, as a state names a computer seat's (``games.levels``)."""
MAX_MOVES = 100_000
MAX_VALUES = 64
"""Letters a plan may give a value for (Crosslet's tiles: 26 and the blank)."""
MAX_WORTH = 99
"""A letter's value, at most (Crosslet's highest is 10)."""
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
"""The only colours a plan may give: ``#rrggbb``."""
BOARD_NAME = re.compile(r"^[^\x00-\x20\x7f-\x9f/+#]{1,64}$")
"""A board's name in a topic: as ``mqtt.check_board_name`` lets a publisher use, and
no spaces or control characters (shown escaped, like every text)."""


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise MessageRefused(f"it holds the number {text[:20]}, too large to draw")
    return value


def _constant(name: str) -> Any:
    raise MessageRefused(f"it holds {name}, which is not a number")


def load(payload: bytes | bytearray | str, limit: int = MAX_PAYLOAD) -> Any:
    """Parse one JSON message within the limits, or raise :class:`MessageRefused`.

    The parser itself stops at Python's recursion limit (a message nested deeper is
    refused for it, never ends the thread); the walk after it measures the nesting
    and bounds every value in one pass, without recursion."""
    data = payload.encode() if isinstance(payload, str) else bytes(payload)
    if len(data) > limit:
        raise MessageRefused(f"it is {len(data):,} bytes long (at most {limit:,})")
    try:
        value = json.loads(data, parse_float=_float, parse_constant=_constant)
    except MessageRefused:
        raise
    except RecursionError:
        raise MessageRefused(f"it is nested too deep to read (at most {MAX_DEPTH})") from None
    except ValueError as exc:
        raise MessageRefused(f"it is not JSON ({str(exc)[:80]})") from None
    _bounded(value)
    return value


def _text_bounded(value: str) -> None:
    if len(value) > MAX_TEXT:
        raise MessageRefused(f"it holds a text of {len(value):,} characters (at most {MAX_TEXT})")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            # JSON's \ud800 escapes a lone surrogate: no page could be written with it.
            raise MessageRefused(
                f"it holds a text that is not valid Unicode ({exc.reason} at {exc.start})"
            ) from None


def _bounded(value: Any) -> None:
    """Every string, number, list and table within the limits, and the nesting at most
    ``MAX_DEPTH`` (one walk, with a stack of its own)."""
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        kind = type(item)
        if kind is str:
            _text_bounded(item)
        elif kind is int:
            if abs(item) > MAX_INT:
                raise MessageRefused("it holds a whole number too large to draw")
        elif kind is dict or kind is list:
            if depth > MAX_DEPTH:
                raise MessageRefused(
                    f"it is nested {_depth(item, depth)} deep (at most {MAX_DEPTH})"
                )
            if len(item) > MAX_ITEMS:
                raise MessageRefused(
                    f"it holds a list of {len(item):,} entries (at most {MAX_ITEMS})"
                )
            if kind is dict:
                for key in item:  # JSON's keys are always texts
                    if len(key) > MAX_TEXT or not key.isascii():
                        _text_bounded(key)
                values = item.values()
            else:
                values = item
            for inner in values:
                t = type(inner)
                if t is dict or t is list:
                    todo.append((inner, depth + 1))
                elif t is str:
                    if len(inner) > MAX_TEXT or not inner.isascii():
                        _text_bounded(inner)
                elif t is int and not -MAX_INT <= inner <= MAX_INT:
                    raise MessageRefused("it holds a whole number too large to draw")


def _depth(value: Any, at: int) -> int:
    """How deep ``value`` (found at depth ``at``) goes, for the refusal's reason."""
    deepest = at
    todo = [(value, at)]
    while todo:
        item, depth = todo.pop()
        deepest = max(deepest, depth)
        inner = item.values() if isinstance(item, dict) else item
        todo += [(v, depth + 1) for v in inner if isinstance(v, dict | list)]
    return deepest


# -- the fields ----------------------------------------------------------------------
def _int(value: Any, what: str, low: int = 0, high: int = MAX_INT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MessageRefused(f"{what} is not a whole number from {low} to {high}")
    return value


def _text(value: Any, what: str, longest: int = 200, empty: bool = True) -> str:
    if not isinstance(value, str) or len(value) > longest or (not empty and not value):
        raise MessageRefused(f"{what} is not a text of up to {longest} characters")
    return value


def _maybe(check: Callable[..., Any], value: Any, *args: Any) -> None:
    if value is not None:
        check(value, *args)


def _table(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise MessageRefused(f"{what} is not a table")
    return value


def _number(value: Any, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise MessageRefused(f"{what} is not a number")


def journal_game(data: Mapping[str, Any]) -> int:
    return _int(data.get("journal_game"), "its game number", 1)


def check_state(view: Mapping[str, Any]) -> None:
    """A board's state message as the pages draw it."""
    journal_game(view)
    _text(view.get("title"), "its title", 100, empty=False)
    seats = view.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise MessageRefused("its seats are not a list of names")
    for seat in seats:
        _text(seat, "its seats", 40)
    computer = view.get("computer")
    if computer is not None:
        for seat, level in _table(computer, "its computer seats").items():
            if seat not in seats:
                raise MessageRefused(f"its computer seat {seat[:40]!r} is not one of its seats")
            if level not in LEVELS:
                raise MessageRefused(
                    f"the level of its computer seat {seat!r} is not one of {', '.join(LEVELS)}"
                )
    scores = _table(view.get("scores"), "its scores")
    if len(scores) > MAX_SEATS:
        raise MessageRefused(f"its scores name more than {MAX_SEATS} seats")
    for seat, score in scores.items():
        _text(seat, "a seat of its scores", 40)
        _number(score, f"the score of {seat!r}")
    _int(view.get("moves_played"), "its count of moves played", 0, MAX_MOVES)
    layout = _table(view.get("layout"), "its layout")
    if len(layout) > MAX_CELLS:
        raise MessageRefused(f"its layout has more than {MAX_CELLS} cells")
    for cell, piece in layout.items():
        _text(cell, "a cell of its layout", 16, empty=False)
        _table(piece, f"the piece on {cell!r}")
        _maybe(_int, piece.get("owner"), f"the owner of the piece on {cell!r}", 0, MAX_SEATS)
    for key in ("game", "board", "turn", "result"):
        _maybe(_text, view.get(key), f"its {key}")
    move = view.get("move")
    if move is not None:
        check_move_text(_table(move, "its last move"), "its last move")
    fixes = view.get("fixes")
    if fixes is not None and not isinstance(fixes, list):
        raise MessageRefused("its fixes are not a list")
    for fix in fixes or ():
        _table(fix, "a fix")
    leds = view.get("leds")
    if leds is not None:
        if not isinstance(leds, dict):
            raise MessageRefused("its lights are not a table of cells and colours")
        check_leds(leds)
    oled = view.get("oled")
    if oled is not None and not isinstance(oled, list):
        raise MessageRefused("its OLED text is not a list of lines")
    extra = view.get("extra")
    if extra is not None:
        dice = _table(extra, "its extra facts").get("dice")
        if dice is not None:
            for colour, values in _table(dice, "its dice").items():
                if not isinstance(values, list):
                    raise MessageRefused(f"its {colour} dice are not a list")
                for v in values:
                    _int(v, f"a {colour} die", 0, 6)


def check_leds(leds: Mapping[str, Any]) -> None:
    """The lit cells: each a cell's name and one of the palette's colour names."""
    if len(leds) > MAX_CELLS:
        raise MessageRefused(f"its lights light more than {MAX_CELLS} cells")
    for cell, colour in leds.items():
        _text(cell, "a cell of its lights", 16, empty=False)
        if not isinstance(colour, str) or colour not in COLOURS:
            known = ", ".join(sorted(COLOURS))
            raise MessageRefused(f"the light on {cell!r} is not one of the colours {known}")


def check_move_text(move: Mapping[str, Any], what: str) -> None:
    _text(move.get("text", ""), f"the text of {what}")
    _maybe(_text, move.get("player"), f"the player of {what}", 40)
    points = move.get("points")
    if points is not None:
        for seat, n in _table(points, f"the points of {what}").items():
            _int(n, f"the points of {what} for {seat!r}", -MAX_INT, MAX_INT)


def check_move(move: Mapping[str, Any]) -> int:
    """A move message; its number."""
    journal_game(move)
    n = _int(move.get("n"), "its move number", 1, MAX_MOVES)
    check_move_text(move, f"move {n}")
    return n


def check_plan(geo: Any) -> dict[str, Any]:
    """A board's drawing plan (``geometry.py``): a bounded grid, cells inside it,
    special spaces with short texts and ``#rrggbb`` fills."""
    geo = _table(geo, "its plan")
    cols = _int(geo.get("cols"), "its plan's columns", 1, MAX_SIDE)
    rows = _int(geo.get("rows"), "its plan's rows", 1, MAX_SIDE)
    _maybe(_text, geo.get("game"), "its plan's game", 40)
    cells = _table(geo.get("cells"), "its plan's cells")
    if len(cells) > MAX_CELLS:
        raise MessageRefused(f"its plan has more than {MAX_CELLS} cells")
    for cell, where in cells.items():
        _text(cell, "a cell of its plan", 16, empty=False)
        if not isinstance(where, list) or len(where) != 2:
            raise MessageRefused(f"the place of cell {cell!r} is not [column, row]")
        _int(where[0], f"the column of cell {cell!r}", 0, cols - 1)
        _int(where[1], f"the row of cell {cell!r}", 0, rows - 1)
    for cell, sp in _table(geo.get("special", {}), "its plan's special spaces").items():
        space = _table(sp, f"the special space {cell!r}")
        fill = space.get("fill")
        if not isinstance(fill, str) or not COLOUR.match(fill):
            raise MessageRefused(f"the fill of special space {cell!r} is not a colour like #a0b1c2")
        _maybe(_text, space.get("text"), f"the text of special space {cell!r}", 8)
        _maybe(_text, space.get("name"), f"the name of special space {cell!r}", 40)
    values = geo.get("values")
    if values is not None:
        values = _table(values, "its plan's letter values")
        if len(values) > MAX_VALUES:
            raise MessageRefused(f"its plan gives more than {MAX_VALUES} letter values")
        for letter, worth in values.items():
            _text(letter, "a letter of its plan's values", 4, empty=False)
            _int(worth, f"the value of letter {letter!r}", 0, MAX_WORTH)
    return dict(geo)
