"""OLED drivers that send only the bytes that changed since the last frame.

luma.oled's ``ssd1306`` and ``sh1106`` classes send the whole frame (1,024 bytes
on a 128×64 panel) for every image and pack it pixel by pixel in Python. These
subclasses pack a frame with Pillow (:func:`pack_pages`), keep the bytes the
controller's RAM holds, and for each 8-pixel page that changed send only the
columns from the first to the last changed one. A frame whose pixels did not
change sends nothing.

The controller's RAM is one byte per column and page: bit 0 is the top pixel of
the page's 8 rows, bit 7 the bottom one.
"""

from __future__ import annotations

from typing import Any

from luma.oled.device import sh1106, ssd1306
from PIL import Image

Window = tuple[int, int, int, int]
"""first page, last page, first column, last column (all inclusive)."""


def pack_pages(image: Image.Image) -> list[bytes]:
    """The controller bytes of a 1-bit ``image``: one ``bytes`` of ``width`` per page.

    Turning the image a quarter clockwise makes each of its rows one column of
    the original, bottom pixel first, so Pillow's own MSB-first packing yields
    every column's page bytes with the top pixel in bit 0, last page first.
    """
    pages = image.size[1] // 8
    raw = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [raw[pages - 1 - page :: pages] for page in range(pages)]


def changed_columns(old: bytes, new: bytes) -> tuple[int, int] | None:
    """The first and last column where two pages differ, or None if they are equal."""
    if old == new:
        return None
    diff = int.from_bytes(old, "big") ^ int.from_bytes(new, "big")
    first = len(new) - (diff.bit_length() + 7) // 8
    last = len(new) - 1 - ((diff & -diff).bit_length() - 1) // 8
    return first, last


def changed_runs(old: bytes, new: bytes, gap: int) -> list[tuple[int, int]]:
    """Column spans (first, last) covering every byte that differs.

    Two spans are kept apart only when more than ``gap`` equal bytes lie between
    them: addressing a second span costs ``gap`` bytes, resending equal ones one each.
    """
    span = changed_columns(old, new)
    if span is None:
        return []
    first, last = span
    runs: list[tuple[int, int]] = []
    start = end = first
    for column in range(first + 1, last + 1):
        if old[column] != new[column]:
            if column - end - 1 > gap:
                runs.append((start, end))
                start = column
            end = column
    runs.append((start, end))
    return runs


def changed_windows(
    old: list[bytes] | None, new: list[bytes], command_bytes: int, join_pages: bool = True
) -> list[Window]:
    """Windows covering every changed byte, each as cheap as addressing allows.

    ``command_bytes`` is what addressing one window costs. Within a page, spans
    of changes far enough apart are separate windows; with ``join_pages`` (a
    controller that addresses a window of pages) a page changed in one span joins
    the window of the page above when one window costs less than two. With
    ``old`` None (nothing known of the controller's RAM) the whole frame is one window.
    """
    width = len(new[0]) if new else 0
    if old is None:
        return [(0, len(new) - 1, 0, width - 1)]
    windows: list[Window] = []
    joinable = False
    for page, (was, now) in enumerate(zip(old, new, strict=True)):
        runs = changed_runs(was, now, command_bytes)
        if len(runs) == 1 and joinable and join_pages:
            first, last = runs[0]
            p0, p1, c0, c1 = windows[-1]
            if p1 == page - 1:
                lo, hi = min(c0, first), max(c1, last)
                apart = (p1 - p0 + 1) * (c1 - c0 + 1) + command_bytes + (last - first + 1)
                if (page - p0 + 1) * (hi - lo + 1) <= apart:
                    windows[-1] = (p0, page, lo, hi)
                    continue
        windows.extend((page, page, first, last) for first, last in runs)
        joinable = len(runs) == 1
    return windows


class _ChangedPages:
    """What the two drivers share: packing, the RAM copy and the byte count."""

    # Set by luma's device classes this is mixed into.
    _w: int
    _h: int
    command_bytes = 0
    merges_pages = False

    def _reset_ram(self) -> None:
        self._ram: list[bytes] | None = None
        self.bytes_sent = 0
        """Command and data bytes handed to the serial interface so far."""

    def display(self, image: Image.Image) -> None:
        """Send the parts of ``image`` (a 1-bit image of the device's size) that changed."""
        image = self.preprocess(image)  # type: ignore[attr-defined]
        if image.mode != "1":
            image = image.convert("1")
        new = pack_pages(image)
        if new == self._ram:
            return
        windows = changed_windows(self._ram, new, self.command_bytes, self.merges_pages)
        if self._ram is None and not self.merges_pages:
            windows = [(p, p, c0, c1) for p0, p1, c0, c1 in windows for p in range(p0, p1 + 1)]
        try:
            for window in windows:
                self._send(window, new)
        except BaseException:
            # Part of the frame may have reached the controller: trust nothing.
            self._ram = None
            raise
        self._ram = new

    def forget(self) -> None:
        """Send the whole next frame: the controller's RAM may no longer hold the last one."""
        self._ram = None

    def _send(self, window: Window, pages: list[bytes]) -> None:
        raise NotImplementedError

    def _command(self, *cmd: int) -> None:
        self.bytes_sent += len(cmd)
        self.command(*cmd)  # type: ignore[attr-defined]

    def _data(self, data: bytes) -> None:
        self.bytes_sent += len(data)
        self.data(list(data))  # type: ignore[attr-defined]


class ChangedPagesSSD1306(_ChangedPages, ssd1306):  # type: ignore[misc]
    """An SSD1306 (horizontal addressing) that sends only a window around each change.

    Neighbouring changed pages are sent as one window when that costs fewer bytes.
    """

    command_bytes = 6
    merges_pages = True

    def __init__(self, serial_interface: Any = None, **kwargs: Any) -> None:
        self._reset_ram()
        super().__init__(serial_interface, **kwargs)

    def _send(self, window: Window, pages: list[bytes]) -> None:
        p0, p1, c0, c1 = window
        start = self._colstart
        self._command(self._const.COLUMNADDR, start + c0, start + c1, self._const.PAGEADDR, p0, p1)
        self._data(b"".join(page[c0 : c1 + 1] for page in pages[p0 : p1 + 1]))


class ChangedPagesSH1106(_ChangedPages, sh1106):  # type: ignore[misc]
    """An SH1106 (page addressing only) that sends each changed page's changed columns."""

    command_bytes = 3

    def __init__(self, serial_interface: Any = None, **kwargs: Any) -> None:
        self._reset_ram()
        super().__init__(serial_interface, **kwargs)

    def _send(self, window: Window, pages: list[bytes]) -> None:
        page, _, c0, c1 = window
        column = self._page_address_offset + c0
        self._command(0xB0 | page, column & 0x0F, 0x10 | (column >> 4))
        self._data(pages[page][c0 : c1 + 1])
