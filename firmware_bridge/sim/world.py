"""The physical side of the simulation: what stands on each cell of the board.

The world remembers which piece is where (an occupancy board only senses that
something is there), and can be saved beside the journal: pulling the power does
not move the pieces, so a resumed simulation finds them where they were.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from hardware.board import OCCUPIED

from ..storage.files import write_whole

log = logging.getLogger(__name__)


class Surface(Protocol):
    """The sensing side of a simulated board: switches or tag readers."""

    def place(self, cell: str, label: str) -> None: ...

    def lift(self, cell: str) -> None: ...

    def reading(self, cell: str) -> str:
        """What the cell's sensor says of the piece on it (once it has read it)."""
        ...


class World:
    """Pieces on cells, forwarded to a simulated sensor surface."""

    def __init__(self, cells: tuple[str, ...], surface: Surface, save_to: Path | None = None):
        self.cells = cells
        self._known = frozenset(cells)
        self.surface = surface
        self.contents: dict[str, str] = {}
        self.save_to = save_to
        self._unsaved = False
        """The last save failed (logged once until one succeeds)."""

    def check(self, cell: str) -> None:
        if cell not in self._known:
            sample = ", ".join(self.cells[:3])
            raise ValueError(
                f"there is no cell {cell!r} on this board (cells are named like {sample}, …)"
            )

    def place(self, cell: str, label: str) -> None:
        self.check(cell)
        if cell in self.contents:
            raise ValueError(f"{cell} already holds {self.contents[cell]}; lift it first")
        self.contents[cell] = label
        self.surface.place(cell, label)
        self.save()

    def lift(self, cell: str) -> str:
        self.check(cell)
        if cell not in self.contents:
            raise ValueError(f"there is nothing on {cell} to lift")
        label = self.contents.pop(cell)
        self.surface.lift(cell)
        self.save()
        return label

    def readings(self) -> dict[str, str]:
        """What the sensors will say of the board as it lies, once they have read it."""
        return {cell: self.surface.reading(cell) for cell in self.contents}

    def load(self, contents: Mapping[str, str]) -> None:
        for cell in list(self.contents):
            self.lift(cell)
        for cell, label in sorted(contents.items()):
            self.place(cell, label)

    def save(self) -> None:
        """Write the pieces' places beside the journal, whole or not at all.

        Written under a name of its own (two simulations never share a temporary
        file) and renamed into place. On a full disk, or any failure to write, the
        file saved before stays as it was, the simulation plays on, and the log says
        once what a resumed simulation would then miss; the next move tries again.
        """
        if self.save_to is None:
            return
        try:
            write_whole(self.save_to, json.dumps(self.contents, sort_keys=True))
            self._unsaved = False
        except OSError as exc:
            if not self._unsaved:
                log.warning(
                    "the simulated board's pieces could not be saved to %s (%s); the game "
                    "goes on, but a resumed simulation would find them as last saved",
                    self.save_to,
                    exc.strerror or exc,
                )
            self._unsaved = True

    @staticmethod
    def saved(path: Path) -> dict[str, str] | None:
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise ValueError(f"the saved simulated board {path} is unreadable: {exc}") from exc
        if not isinstance(data, dict):
            raise ValueError(f"the saved simulated board {path} is not a cell map")
        return {str(k): str(v) for k, v in data.items()}


class MatrixSurface:
    """A simulated diode matrix: every piece just closes its cell's switch."""

    def __init__(self, matrix: object) -> None:
        self.matrix = matrix

    def place(self, cell: str, label: str) -> None:
        self.matrix.place(cell)  # type: ignore[attr-defined]

    def lift(self, cell: str) -> None:
        self.matrix.lift(cell)  # type: ignore[attr-defined]

    def reading(self, cell: str) -> str:
        return OCCUPIED


class SerialSurface:
    """A simulated serial board: switches, or tag readers that read each piece's tag.

    On an RFID board every physical piece carries a tag; the simulation gives each
    new piece the next tag id and enrols it in ``tags`` under the piece's label.
    """

    def __init__(self, board: object, tags: object, rfid: bool) -> None:
        self.board = board
        self.tags = tags
        self.rfid = rfid
        self._free: dict[str, list[str]] = {}
        self._on: dict[str, str] = {}
        self._next = 1

    def _tag_for(self, label: str) -> str:
        free = self._free.setdefault(label, [])
        if free:
            return free.pop()
        # An ISO/IEC 15693 UID as sent on air, least significant byte first: the serial
        # number's low bytes first (where the inventory's slots are chosen), E0h last.
        tag = (self._next.to_bytes(7, "little") + b"\xe0").hex().upper()
        self._next += 1
        self.tags.enrol(tag, label)  # type: ignore[attr-defined]
        return tag

    def place(self, cell: str, label: str) -> None:
        if not self.rfid:
            self.board.place(cell)  # type: ignore[attr-defined]
            return
        tag = self._tag_for(label)
        self._on[cell] = tag
        self.board.place(cell, tag=tag)  # type: ignore[attr-defined]

    def reading(self, cell: str) -> str:
        return self._on.get(cell, OCCUPIED)

    def lift(self, cell: str) -> None:
        self.board.lift(cell)  # type: ignore[attr-defined]
        tag = self._on.pop(cell, None)
        if tag is not None:
            label = self.tags.lookup(tag)  # type: ignore[attr-defined]
            self._free.setdefault(label, []).append(tag)
