"""The host's copy of the board: cell events and snapshots applied in sequence."""

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
)

log = logging.getLogger(__name__)


class BoardMirror:
    """What the board last said about each of its ``size`` cells.

    Sequence numbers must follow on by one. A repeated number is a duplicate and
    ignored; any other jump means frames were lost, so the mirror goes stale: it
    keeps its readings, ignores cell events and wants a full snapshot, which
    alone makes it current again. Nothing is applied that the board did not send
    in order.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.readings: list[Reading] = [None] * size
        self.current = False
        """True once a full snapshot arrived and no frame was lost since."""
        self.wants_snapshot = True
        self.gaps = 0
        self.duplicates = 0
        self.rejected = 0
        self._last_seq: int | None = None
        self._assembly: list[Reading] | None = None
        self._assembly_id = -1

    def reset(self) -> None:
        """Start over after a reconnect: any sequence number is accepted next."""
        self._last_seq = None
        self._assembly = None
        self.current = False
        self.wants_snapshot = True

    def _lost(self) -> None:
        self.current = False
        self.wants_snapshot = True
        self._assembly = None

    def _fits(self, message: Message) -> bool:
        """Whether ``message`` is one this board would send (hello, cell, snapshot, pong)."""
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
        return isinstance(message, Hello | Pong)

    def apply(self, envelope: Envelope) -> None:
        """Take in one envelope from the board.

        A frame the board would not send (a cell off the board, a snapshot of
        another size, an error report, a ping, a foreign hello) is rejected
        before its sequence number is looked at: it may be line noise that
        passed its CRC, and must not use up the number of the board's genuine
        next frame.
        """
        if not self._fits(envelope.message):
            self.rejected += 1
            return
        seq = envelope.seq
        if self._last_seq is not None:
            if seq == self._last_seq:
                self.duplicates += 1
                return
            if seq != (self._last_seq + 1) & 0xFFFF:
                self.gaps += 1
                log.info("sequence gap: %d after %d; asking for a snapshot", seq, self._last_seq)
                self._lost()
        self._last_seq = seq
        message = envelope.message
        if isinstance(message, Hello):
            # A hello outside a requested snapshot means the board restarted.
            self._assembly = None
            self.wants_snapshot = True
        elif isinstance(message, CellEvent):
            if self.current:
                self.readings[message.cell] = message.reading
        elif isinstance(message, SnapshotPart):
            self._take_part(message)

    def _take_part(self, part: SnapshotPart) -> None:
        if part.first == 0:
            self._assembly = []
            self._assembly_id = part.snapshot_id
        elif (
            self._assembly is None
            or part.snapshot_id != self._assembly_id
            or part.first != len(self._assembly)
        ):
            self._assembly = None
            return
        self._assembly.extend(part.readings)
        if len(self._assembly) == self.size:
            self.readings = self._assembly
            self._assembly = None
            self.current = True
            self.wants_snapshot = False
