"""The host's copy of the board: cell events in order, snapshot parts each on its own."""

from __future__ import annotations

import logging

from firmware_bridge.link.messages import (
    CellEvent,
    Envelope,
    Hello,
    Message,
    Pong,
    Reading,
    SnapshotPart,
    SyncDone,
)

log = logging.getLogger(__name__)

_HALF = 0x8000


def _ahead(number: int, of: int) -> int:
    """How far event ``number`` is past ``of``, counting modulo 65536 (negative: behind)."""
    diff = (number - of) & 0xFFFF
    return diff - 0x10000 if diff >= _HALF else diff


class BoardMirror:
    """What the board last said about each of its ``size`` cells, and which of it
    the host can trust.

    The board numbers its cell events. An event numbered one past the last one
    is applied; a later one means events were lost, and as they could have been
    about any cell, no cell is trusted any more. A frame repeated byte for byte
    is ignored; any other frame that goes back in the numbering means the board
    restarted, and it too leaves no cell trusted. A cell is trusted again once a
    cell event or a snapshot part (which says after which event it was taken)
    tells its reading. The
    mirror is ``current`` when every cell is trusted. Frames other than cell
    events (hellos, snapshot parts, replies) cost nothing when lost: a snapshot
    comes in short parts that each stand alone, so a noisy line still gets the
    whole board across, part by part.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.readings: list[Reading] = [None] * size
        self.gap_ms: dict[int, int] = {}
        """Per cell, the ``gap_ms`` of the cell event that set its reading, when not 0
        (a reading from a snapshot part has none)."""
        self.current = False
        """True once every cell's reading came in a snapshot part or a cell event
        and no cell event was lost since."""
        self.wants_snapshot = True
        self.gaps = 0
        """How often cell events were lost."""
        self.duplicates = 0
        self.rejected = 0
        self.restarts = 0
        self.distrusts = 0
        """How often the mirror stopped trusting every cell (a reset, lost events, a restart)."""
        self._events: int | None = None
        self._last: Envelope | None = None
        self._trusted = bytearray(size)
        self._untrusted = size

    def reset(self) -> None:
        """Start over after a reconnect: nothing is trusted, any event number is accepted."""
        self._events = None
        self._last = None
        self._distrust()

    def _distrust(self) -> None:
        self.distrusts += 1
        self._trusted = bytearray(self.size)
        self._untrusted = self.size
        self.current = False
        self.wants_snapshot = True

    def _trust(self, cell: int) -> None:
        if not self._trusted[cell]:
            self._trusted[cell] = 1
            self._untrusted -= 1
            if self._untrusted == 0:
                self.current = True
                self.wants_snapshot = False

    def trusted(self, cell: int) -> bool:
        """Whether the host heard of ``cell`` since the last lost cell event."""
        return bool(self._trusted[cell])

    @property
    def untrusted(self) -> int:
        """How many cells the host still needs to hear about."""
        return self._untrusted

    def _fits(self, message: Message) -> bool:
        """Whether ``message`` is one this board would send (hello, cell, snapshot, pong,
        sync answer)."""
        if isinstance(message, CellEvent):
            if message.cell < self.size:
                return True
            log.warning("cell event for cell %d on a board of %d", message.cell, self.size)
            return False
        if isinstance(message, SnapshotPart):
            if message.total == self.size:
                return True
            log.warning("snapshot of %d cells on a board of %d", message.total, self.size)
            return False
        return isinstance(message, Hello | Pong | SyncDone)

    def _catch_up(self, events: int) -> None:
        """Account for the board having sent cell events up to ``events``."""
        if self._events is None:
            self._events = events
            return
        ahead = _ahead(events, self._events)
        if ahead < 0:
            log.info("the board went back to event %d from %d: restarted", events, self._events)
            self.restarts += 1
            self._distrust()
            self._events = events
        elif ahead > 0:
            self.gaps += 1
            log.info("cell events %d to %d lost; reading the board again", self._events + 1, events)
            self._distrust()
            self._events = events

    def apply(self, envelope: Envelope) -> None:
        """Take in one envelope from the board.

        A frame the board would not send (a cell off the board, a snapshot of
        another size, an error report, a ping, a foreign hello) is rejected: it
        may be line noise that passed its CRC. The frame's sequence number is
        not needed: cell events carry their own numbers.
        """
        message = envelope.message
        if not self._fits(message):
            self.rejected += 1
            return
        if envelope == self._last:
            self.duplicates += 1
            return
        self._last = envelope
        if isinstance(message, CellEvent):
            self._catch_up((message.number - 1) & 0xFFFF)
            self._events = message.number
            self.readings[message.cell] = message.reading
            if message.gap_ms:
                self.gap_ms[message.cell] = message.gap_ms
            else:
                self.gap_ms.pop(message.cell, None)
            self._trust(message.cell)
        elif isinstance(message, SnapshotPart):
            self._catch_up(message.events)
            end = message.first + len(message.readings)
            if message.readings != tuple(self.readings[message.first : end]):
                # Only a reading that changed loses its gap: the gap is when it began.
                for cell in range(message.first, end):
                    if self.readings[cell] != message.readings[cell - message.first]:
                        self.gap_ms.pop(cell, None)
                self.readings[message.first : end] = message.readings
            for cell in range(message.first, end):
                self._trust(cell)
            if self.current:
                self.wants_snapshot = False
        elif isinstance(message, Hello | SyncDone):
            self._catch_up(message.events)
