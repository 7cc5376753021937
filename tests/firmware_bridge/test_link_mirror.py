"""The host's copy of the board: numbered cell events, stand-alone snapshot parts,
and which cells it can trust."""

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
    Pong,
    SnapshotPart,
    SnapshotRequest,
)
from firmware_bridge.link.mirror import BoardMirror

TAG = bytes.fromhex("04A224B2")


def current_mirror() -> BoardMirror:
    """A mirror that has the whole board, as of cell event 5 (frame sequence 10)."""
    mirror = BoardMirror(4)
    mirror.apply(Envelope(10, SnapshotPart(1, 4, 0, (None, b"", None, None), 5)))
    assert mirror.current
    return mirror


def test_a_full_snapshot_makes_the_mirror_current() -> None:
    mirror = current_mirror()
    assert mirror.readings == [None, b"", None, None]
    assert not mirror.wants_snapshot


def test_events_in_sequence_are_applied() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, CellEvent(3, TAG, 6, 40)))
    mirror.apply(Envelope(12, CellEvent(1, None, 7, 40)))
    assert mirror.readings == [None, None, None, TAG]
    assert mirror.gap_ms == {1: 40, 3: 40}
    # A snapshot part that agrees keeps the gaps; one that does not drops them.
    mirror.apply(Envelope(13, SnapshotPart(2, 4, 0, (None, None, None, TAG), 7)))
    assert mirror.gap_ms == {1: 40, 3: 40}
    mirror.apply(Envelope(14, SnapshotPart(3, 4, 0, (None, b"", None, TAG), 7)))
    assert mirror.gap_ms == {3: 40}


def test_a_repeated_frame_is_ignored() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, CellEvent(3, TAG, 6)))
    mirror.apply(Envelope(11, CellEvent(3, TAG, 6)))
    assert mirror.duplicates == 1
    assert mirror.current
    assert mirror.gaps == 0


def test_a_lost_event_leaves_no_cell_trusted_until_each_is_heard_of_again() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(13, CellEvent(0, b"", 7)))  # event 6 was lost
    assert not mirror.current
    assert mirror.wants_snapshot
    assert mirror.gaps == 1
    assert mirror.untrusted == 3  # cell 0 is known: event 7 said so
    mirror.apply(Envelope(14, SnapshotPart(2, 4, 2, (b"", None), 7)))
    assert not mirror.current
    mirror.apply(Envelope(15, CellEvent(2, None, 8)))
    assert mirror.untrusted == 1
    mirror.apply(Envelope(16, SnapshotPart(2, 4, 0, (b"", TAG), 8)))
    assert mirror.current
    assert mirror.readings == [b"", TAG, None, None]


def test_lost_frames_that_are_not_cell_events_cost_nothing() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(14, CellEvent(3, TAG, 6)))  # frames 11 to 13 lost
    mirror.apply(Envelope(20, SnapshotPart(3, 4, 2, (None, TAG), 6)))
    mirror.apply(Envelope(22, Hello((3, 0, 0), 2, 2, "occupancy", 6)))
    assert mirror.current
    assert mirror.gaps == 0
    assert mirror.readings == [None, b"", None, TAG]


def test_parts_of_different_snapshots_make_the_board_whole() -> None:
    """On a noisy line every part of one snapshot rarely arrives; parts of several do."""
    mirror = BoardMirror(4)
    mirror.apply(Envelope(0, SnapshotPart(1, 4, 0, (b"", b""), 0)))
    assert not mirror.current
    mirror.apply(Envelope(5, SnapshotPart(2, 4, 2, (None, TAG), 0)))
    assert mirror.current
    assert mirror.readings == [b"", b"", None, TAG]


def test_a_part_taken_after_lost_events_restarts_the_count() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(19, SnapshotPart(3, 4, 0, (b"", b""), 9)))
    assert mirror.gaps == 1
    assert mirror.untrusted == 2
    assert mirror.readings[:2] == [b"", b""]


def test_event_numbers_wrap_without_a_gap() -> None:
    mirror = BoardMirror(1)
    mirror.apply(Envelope(3, SnapshotPart(1, 1, 0, (None,), 0xFFFF)))
    mirror.apply(Envelope(4, CellEvent(0, b"", 0)))
    assert mirror.current
    assert mirror.readings == [b""]
    assert mirror.gaps == 0


def test_a_board_that_went_back_in_its_numbering_restarted() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(0, CellEvent(2, TAG, 1)))  # its hello was lost
    assert mirror.restarts == 1
    assert not mirror.current
    assert mirror.readings[2] == TAG
    mirror.apply(Envelope(1, SnapshotPart(1, 4, 0, (None, None, TAG, None), 1)))
    assert mirror.current


def test_a_snapshot_or_event_off_the_board_is_rejected() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, SnapshotPart(2, 9, 0, (b"",) * 9, 5)))
    mirror.apply(Envelope(12, CellEvent(4, b"", 6)))
    assert mirror.rejected == 2
    assert mirror.readings == [None, b"", None, None]


def test_a_hello_after_lost_events_makes_the_mirror_stale() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, Hello((3, 0, 0), 2, 2, "occupancy", 5)))
    assert mirror.current
    mirror.apply(Envelope(12, Hello((3, 0, 0), 2, 2, "occupancy", 7)))
    assert not mirror.current
    assert mirror.wants_snapshot


def test_after_reset_any_event_number_is_accepted() -> None:
    mirror = current_mirror()
    mirror.reset()
    assert not mirror.current
    mirror.apply(Envelope(0, SnapshotPart(1, 4, 0, (None,) * 4, 0)))
    assert mirror.current
    assert mirror.gaps == 0
    assert mirror.restarts == 0


@pytest.mark.parametrize(
    "forged",
    [
        CellEvent(4, b"", 6),  # a cell off the board
        SnapshotPart(2, 9, 0, (b"",) * 9, 6),  # a snapshot of the wrong size
        BoardError(3, "noise"),
        Ping(7),  # the board never pings
        SnapshotRequest(),  # nor asks for snapshots
        ForeignHello(1, (1, 0, 0)),
    ],
)
def test_a_rejected_frame_does_not_use_up_the_next_number(forged: Message) -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, forged))
    mirror.apply(Envelope(11, CellEvent(3, TAG, 6)))
    assert mirror.readings == [None, b"", None, TAG]
    assert mirror.current
    assert mirror.duplicates == 0
    mirror.apply(Envelope(12, CellEvent(0, b"", 7)))
    assert mirror.readings == [b"", b"", None, TAG]
    assert mirror.gaps == 0


def test_a_pong_is_taken_quietly() -> None:
    mirror = current_mirror()
    mirror.apply(Envelope(11, Pong(3)))
    assert mirror.current
    assert mirror.rejected == 0
