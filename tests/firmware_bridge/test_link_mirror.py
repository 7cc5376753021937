"""The host's copy of the board: sequence numbers, snapshots and stale state."""

from __future__ import annotations

import pytest

from firmware_bridge.link.messages import (
    BoardError,
    CellEvent,
    Envelope,
    ForeignHello,
    Hello,
    Message,
    Ping,
    SnapshotPart,
    SnapshotRequest,
)
from firmware_bridge.link.mirror import BoardMirror

TAG = bytes.fromhex("04A224B2")


def current_mirror() -> BoardMirror:
    mirror = BoardMirror(4)
    mirror.apply(Envelope(10, SnapshotPart(1, 4, 0, (None, b"", None, None))))
    assert mirror.current
    return mirror


def test_a_full_snapshot_makes_the_mirror_current() -> None:
    mirror = current_mirror()
    assert mirror.readings == [None, b"", None, None]
    assert not mirror.wants_snapshot


def test_events_in_sequence_are_applied() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, CellEvent(3, TAG)))
    mirror.apply(Envelope(12, CellEvent(1, None)))
    assert mirror.readings == [None, None, None, TAG]


def test_a_repeated_frame_is_ignored() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, CellEvent(3, TAG)))
    mirror.apply(Envelope(11, CellEvent(3, TAG)))
    assert mirror.duplicates == 1
    assert mirror.current


def test_a_gap_makes_the_mirror_stale_and_ignores_events_until_a_snapshot() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(13, CellEvent(0, b"")))
    assert not mirror.current
    assert mirror.wants_snapshot
    assert mirror.readings == [None, b"", None, None]
    mirror.apply(Envelope(14, CellEvent(2, b"")))
    assert mirror.readings == [None, b"", None, None]
    mirror.apply(Envelope(15, SnapshotPart(2, 4, 0, (b"", b"", b"", None))))
    assert mirror.current
    assert mirror.readings == [b"", b"", b"", None]


def test_sequence_numbers_wrap_without_a_gap() -> None:
    mirror = BoardMirror(1)
    mirror.apply(Envelope(0xFFFF, SnapshotPart(1, 1, 0, (None,))))
    mirror.apply(Envelope(0, CellEvent(0, b"")))
    assert mirror.current
    assert mirror.readings == [b""]


def test_a_snapshot_missing_a_part_is_not_applied() -> None:
    mirror = BoardMirror(4)
    mirror.apply(Envelope(0, SnapshotPart(1, 4, 0, (b"", b""))))
    mirror.apply(Envelope(1, SnapshotPart(2, 4, 2, (b"", b""))))
    assert not mirror.current
    mirror.apply(Envelope(2, SnapshotPart(3, 4, 0, (b"", None))))
    mirror.apply(Envelope(3, SnapshotPart(3, 4, 2, (None, TAG))))
    assert mirror.current
    assert mirror.readings == [b"", None, None, TAG]


def test_a_snapshot_or_event_off_the_board_is_rejected() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, SnapshotPart(2, 9, 0, (b"",) * 9)))
    mirror.apply(Envelope(12, CellEvent(4, b"")))
    assert mirror.rejected == 2
    assert mirror.readings == [None, b"", None, None]


def test_a_hello_outside_a_request_asks_for_a_snapshot() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, Hello((1, 0, 0), 2, 2, "occupancy")))
    assert mirror.wants_snapshot


def test_after_reset_any_sequence_number_is_accepted() -> None:
    mirror = current_mirror()
    mirror.reset()
    mirror.apply(Envelope(0, SnapshotPart(1, 4, 0, (None,) * 4)))
    assert mirror.current
    assert mirror.gaps == 0


@pytest.mark.parametrize(
    "forged",
    [
        CellEvent(4, b""),  # a cell off the board
        SnapshotPart(2, 9, 0, (b"",) * 9),  # a snapshot of the wrong size
        BoardError(3, "noise"),
        Ping(7),  # the board never pings
        SnapshotRequest(),  # nor asks for snapshots
        ForeignHello(2, (2, 0, 0)),
    ],
)
def test_a_rejected_frame_does_not_use_up_the_next_sequence_number(forged: Message) -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, forged))
    mirror.apply(Envelope(11, CellEvent(3, TAG)))
    assert mirror.readings == [None, b"", None, TAG]
    assert mirror.current
    assert mirror.duplicates == 0
    mirror.apply(Envelope(12, CellEvent(0, b"")))
    assert mirror.readings == [b"", b"", None, TAG]
    assert mirror.gaps == 0
