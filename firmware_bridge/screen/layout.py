"""Where each line of a screen goes: what fits, what is wrapped, what is paged; and
the drawing of it.

The header, the prompt and every score are always on screen. The other lines fill
the rest; when they do not all fit they are shown a page at a time, the pages taking
turns every ``PAGE_S`` seconds of the table's clock. A line is never cut between two
pages: one too long for the room beside the map gets a page without the map, and one
too long even so a page above the scores alone, the prompt on the others. Lines are
measured with the font they are drawn in, so nothing drawn runs off the screen or under
the map.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from msgspec import Struct
from PIL import Image, ImageDraw

from .board_map import MapBox, draw_map, place_map
from .font import draw_text, text_width
from .screens import HEADER_H, HEIGHT, LINE_H, WIDTH, Screen, font, printable

PAGE_S = 3.0
"""How long each page of a screen that does not fit is shown."""
GLYPH_H = 11
"""Pixel rows a line of the font may light, descenders included."""
LEFT = 1
"""Text starts one pixel in from the left edge."""
_KEEP = "\u00a0"
KEEP = _KEEP
"""Joins two words of a screen's line that a line never breaks between ("P1 -8",
"all 7 +15"); drawn, and in the ``--json`` text, as a space."""
"""Joins the words of one score, which are never split over two lines."""


class Line(Struct, frozen=True):
    """A line of text as drawn: its words, its top-left corner, the width it may take."""

    text: str
    x: int
    y: int
    right: int


class LaidOut(Struct, frozen=True):
    """A screen laid out at one size and one moment: what is drawn where."""

    screen: Screen
    size: tuple[int, int]
    header: str
    status: str
    lines: tuple[Line, ...]
    map: MapBox | None
    picture_right: int
    page: int = 0
    pages: int = 1

    def text(self) -> list[str]:
        """The words as drawn, line by line: the header bar, the picture, the text."""
        top = f"{self.header} {self.status}".strip()
        picture = self.screen.picture
        drawn = picture.words() if picture is not None else ()
        return [top, *drawn, *(line.text for line in self.lines)]


@cache
def _char_width(char: str) -> int:
    return int(font().getlength(" " if char == _KEEP else char))


def width_of(text: str) -> int:
    """Pixels ``text`` takes in the screen's font (a bitmap font: each character has
    its own advance and nothing kerns, so the widths add up)."""
    return sum(map(_char_width, text))


def _fits(text: str, right: int) -> bool:
    return LEFT + width_of(text) <= right


def fits_bar(header: str, status: str, width: int = 128) -> bool:
    """Whether ``header`` and ``status`` share the top bar of a ``width``-pixel screen."""
    return _fits(f"{printable(header)} {printable(status)}".strip(), width - 1)


def _split_long(word: str, right: int) -> list[str]:
    """A word wider than the line, cut into pieces that fit."""
    pieces: list[str] = []
    while word:
        n = len(word)
        while n > 1 and not _fits(word[:n], right):
            n -= 1
        pieces.append(word[:n])
        word = word[n:]
    return pieces


def flow(text: str, rights: Sequence[int]) -> list[str]:
    """Break ``text`` into lines, the i-th no wider than ``rights[i]`` (the last width
    repeats). Words stay whole where they fit; no line holds a single letter alone
    when the word before it could keep it company."""
    widths = tuple(rights)
    # The last width repeats, so widths that only repeat it say nothing more: cut,
    # they let one text laid out at several places of a screen share its cache entry.
    end = len(widths)
    while end > 1 and widths[end - 1] == widths[end - 2]:
        end -= 1
    return list(_flow(text, widths[:end]))


@lru_cache(maxsize=1024)
def _flow(text: str, rights: tuple[int, ...]) -> tuple[str, ...]:
    # A screen is laid out again at every refresh with the same few texts.
    out: list[str] = []
    space = _char_width(" ")
    for para in printable(text).split("\n"):
        indent = para[: len(para) - len(para.lstrip(" "))]
        lines: list[str] = []
        last = 0  # the width of lines[-1]: widths add up, so a line is measured once
        words = _words(para, max(rights))
        if words:
            words[0] = indent + words[0]
        for word in words:
            right = rights[min(len(out) + max(len(lines) - 1, 0), len(rights) - 1)]
            if lines:
                joined = last + space + width_of(word)
                if LEFT + joined <= right:
                    lines[-1] = f"{lines[-1]} {word}"
                    last = joined
                    continue
            right = rights[min(len(out) + len(lines), len(rights) - 1)]
            lines.extend(_split_long(word, right))
            last = width_of(lines[-1])
        if len(lines) >= 2 and len(lines[-1]) == 1 and " " in lines[-2]:
            head, moved = lines[-2].rsplit(" ", 1)
            lines[-2:] = [head, f"{moved} {lines[-1]}"]
        out.extend(lines or [""])
    return tuple(line.replace(_KEEP, " ").rstrip() for line in out)


def _words(para: str, right: int) -> list[str]:
    """The words of ``para``; a group set off by two spaces (``ok: choose  back: cancel``)
    stays whole when it fits a line, and keeps its two spaces."""
    groups = [g.strip(" ") for g in para.split("  ") if g.strip(" ")]
    words: list[str] = []
    for i, group in enumerate(groups):
        gap = _KEEP if i < len(groups) - 1 else ""
        if len(groups) > 1 and _fits(group + gap, right):
            words.append(group.replace(" ", _KEEP) + gap)
        else:
            words.extend(w for w in group.split(" ") if w)
    return words


def wrap_text(text: str, width_px: int) -> list[str]:
    """Break ``text`` into lines that fit ``width_px`` pixels from the left edge."""
    return flow(text, [width_px])


def _slots(top: int, size: tuple[int, int], box: MapBox | None) -> list[tuple[int, int]]:
    """Each text line's top and right edge: beside the map, narrower; below it, full."""
    width, height = size
    slots = []
    y = top
    while y + GLYPH_H <= height:
        beside = box is not None and y <= box.bottom
        slots.append((y, box.text_right if beside and box is not None else width))
        y += LINE_H
    return slots


def _block(texts: Sequence[str], rights: Sequence[int]) -> list[str]:
    """``texts`` flowed one after another into lines of the widths ``rights``."""
    out: list[str] = []
    for text in texts:
        out.extend(flow(text, rights[len(out) :] or rights[-1:]))
    return out


def lay_out(screen: Screen, size: tuple[int, int], now: float = 0.0) -> LaidOut:
    """Decide where every line of ``screen`` goes on a display of ``size`` at ``now``."""
    width, _ = size
    header, status = printable(screen.header), printable(screen.status)
    scores = tuple(s.replace(" ", _KEEP) for s in screen.scores)
    lead: list[str] = []
    shown_scores = " ".join(screen.scores)
    tail = []
    if not status and scores and _fits(f"{header}  {shown_scores}", width - 1):
        status = printable(shown_scores)
    elif scores:
        tail.append(" ".join(scores))
    if status and not fits_bar(header, status, width):
        # The bar cannot hold both: the status goes first among the lines kept on screen.
        lead.append(status)
        status = ""
    if not _fits(header, width - 1):
        lead.insert(0, header)
        header = ""
    box = place_map(screen.board, size) if screen.board is not None else None
    top = HEADER_H + 1 + (screen.picture.height if screen.picture is not None else 0)
    slots = _slots(top, size, box)
    rights = [right for _, right in slots] or [width]
    body = [line for line in screen.lines if line]
    fixed = _Fixed(lead, screen.prompt, tail)
    whole = _block([*body, *fixed.all()], rights)
    if len(whole) <= len(slots):
        lines, with_map = whole, True
        page, pages = 0, 1
    else:
        full = [width] * len(slots)
        lines, with_map, page, pages = _paged(body, fixed, rights, full, now)
    if not with_map:
        box = None
        slots = _slots(top, size, None)
    picture_right = box.text_right if box is not None else width
    placed = tuple(
        Line(text, LEFT, y, right) for text, (y, right) in zip(lines, slots, strict=False) if text
    )
    return LaidOut(screen, size, header, status, placed, box, picture_right, page, pages)


class _Fixed(Struct, frozen=True):
    """The lines kept at the bottom of every page: the header or status that did not
    fit the bar, the prompt, the scores."""

    lead: list[str]
    prompt: str
    scores: list[str]

    def all(self) -> list[str]:
        return [*self.lead, *([self.prompt] if self.prompt else []), *self.scores]

    def without_prompt(self) -> list[str]:
        return [*self.lead, *self.scores]


_Page = tuple[list[str], bool]
"""A page's lines (fixed ones at the bottom included) and whether it shows the map."""


def _paged(
    body: list[str], fixed: _Fixed, rights: list[int], full: list[int], now: float
) -> tuple[list[str], bool, int, int]:
    """The lines shown at ``now`` when they do not all fit: the fixed lines at the
    bottom, the others a page at a time above them.

    A line of the body is never cut between two pages when a page can hold it whole:
    a page that cannot hold it beside the map leaves the map out, and one that cannot
    hold it above the prompt shows it above the scores alone (the prompt is on every
    other page).
    """
    n = len(rights)
    fixed_lines = fixed.all()
    kept = _bottom(fixed_lines, rights)
    if kept is None and len(fixed_lines) > 1 and fixed.prompt:
        # The prompt does not fit beside the scores: it leads the lines that take turns.
        body, fixed_lines = [fixed.prompt, *body], fixed.without_prompt()
        kept = _bottom(fixed_lines, rights)
    if kept is None:
        pages = _pages(_block([*body, *fixed_lines], rights), n)
        page = int(now // PAGE_S) % len(pages)
        return pages[page], True, page, len(pages)
    room = n - len(kept)
    all_pages: list[_Page] = []
    run: list[str] = []
    shown = [False]  # whether a page shows the prompt

    def flush() -> None:
        for lines in _pages_of(run, rights[:room], room) if run else []:
            all_pages.append((lines + [""] * (room - len(lines)) + kept, True))
            shown[0] = True
        run.clear()

    for text in body:
        if len(flow(text, rights[:room])) <= room:
            run.append(text)
            continue
        alone = _alone(text, fixed, fixed_lines, full)
        if alone is None:
            run.append(text)
            continue
        flush()
        page_alone, with_prompt = alone
        all_pages.append(page_alone)
        shown[0] |= with_prompt
    flush()
    if not shown[0] or not any(with_map for _, with_map in all_pages):
        # Every line took a page of its own, without the map (or the prompt): one more
        # shows them.
        all_pages.append(([""] * room + kept, True))
    page = int(now // PAGE_S) % len(all_pages)
    lines, with_map = all_pages[page]
    return lines, with_map, page, len(all_pages)


def _alone(
    text: str, fixed: _Fixed, fixed_lines: list[str], full: list[int]
) -> tuple[_Page, bool] | None:
    """A page of its own for ``text``, too long to stand whole beside the map: without
    the map, then without the prompt too (and whether the prompt is on it); None if it
    cannot stand whole even so."""
    n = len(full)
    wrapped = flow(text, full)
    for with_prompt in (True, False):
        bottom = fixed_lines if with_prompt else [f for f in fixed_lines if f != fixed.prompt]
        kept = _bottom(bottom, full) if bottom else []
        if kept is not None and len(wrapped) <= n - len(kept):
            lines = wrapped + [""] * (n - len(kept) - len(wrapped)) + kept
            return (lines, False), with_prompt or not fixed.prompt
    return None


def _bottom(fixed: list[str], rights: list[int]) -> list[str] | None:
    """``fixed`` in the fewest bottom lines that hold it, leaving one above; None if
    it does not fit so."""
    n = len(rights)
    for k in range(1, n):
        kept = _block(fixed, rights[n - k :])
        if len(kept) <= k:
            return kept
    return None


def _pages(lines: list[str], per_page: int) -> list[list[str]]:
    return [lines[i : i + per_page] for i in range(0, len(lines), per_page)] or [[]]


def _pages_of(body: list[str], rights: list[int], room: int) -> list[list[str]]:
    """Whole lines of ``body`` on as few pages of ``room`` lines as they go; a line
    longer than a page goes on over the next pages."""
    pages: list[list[str]] = [[]]
    for text in body:
        wrapped = flow(text, rights)
        if pages[-1] and len(pages[-1]) + len(wrapped) > room:
            pages.append([])
        if len(pages[-1]) + len(wrapped) <= room:
            pages[-1].extend(flow(text, rights[len(pages[-1]) :]))
            continue
        for i in range(0, len(wrapped), room):
            if pages[-1]:
                pages.append([])
            pages[-1].extend(wrapped[i : i + room])
    return pages


def render(
    screen: Screen, size: tuple[int, int] = (WIDTH, HEIGHT), now: float = 0.0
) -> Image.Image:
    """Draw ``screen`` as a 1-bit image of ``size`` (width, height) pixels; ``now``
    (seconds since it was first shown) picks the page when the lines do not all fit."""
    return draw_layout(lay_out(screen, size, now))


def draw_layout(layout: LaidOut) -> Image.Image:
    """Draw a laid-out screen."""
    screen = layout.screen
    width, height = layout.size
    image = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, HEADER_H - 1), fill=255)
    draw_text(image, (LEFT, 0), layout.header, 0)
    if layout.status:
        draw_text(image, (width - text_width(layout.status) - 1, 0), layout.status, 0)
    if layout.map is not None and screen.board is not None:
        draw_map(draw, screen.board, layout.map)
    if screen.picture is not None:
        screen.picture.draw(draw, HEADER_H + 1, layout.picture_right)
    for line in layout.lines:
        # Lines repeat from frame to frame: each string is drawn once, then pasted.
        draw_text(image, (line.x, line.y), line.text, 255)
    if screen.invert_body:
        body = image.crop((0, HEADER_H, width, height)).point(lambda v: 255 - v)
        image.paste(body, (0, HEADER_H))
    return image
