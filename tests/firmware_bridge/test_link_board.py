"""SerialSensorBoard over a pseudo-terminal with the real firmware on the far end,
and over an in-memory port for exact wire scenarios."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator

import pytest

from firmware_bridge.link.board import OUT_OF_STEP, SerialSensorBoard
from firmware_bridge.link.codec import encode
from firmware_bridge.link.decoder import LinkDecoder
from firmware_bridge.link.errors import (
    BoardMismatchError,
    ProtocolVersionError,
    SerialPortError,
)
from firmware_bridge.link.framing import wrap
from firmware_bridge.link.messages import (
    PROTOCOL_VERSION,
    CellEvent,
    Hello,
    Message,
    Pong,
    SnapshotPart,
    SnapshotRequest,
)
from firmware_bridge.sim.pico.fake_antenna_mux import AntennaMuxBoard
from firmware_bridge.sim.pico.simboard import SimulatedBoardError, SimulatedSerialBoard
from hardware.board import (
    OCCUPIED,
    BoardEvent,
    BoardSettled,
    BoardStatus,
    BoardSynced,
    BoardSyncFailed,
)
from hardware.clock import FakeClock
from hardware.settle import SettleFilter
from wiring.profile import SerialWiring

ROWS, COLUMNS = 3, 4
CELLS = [f"{'ABCD'[c]}{r + 1}" for r in range(ROWS) for c in range(COLUMNS)]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def sim(clock: FakeClock) -> Iterator[SimulatedSerialBoard]:
    with SimulatedSerialBoard(ROWS, COLUMNS, "occupancy", clock, cells=CELLS) as board:
        yield board


def host_for(
    sim: SimulatedSerialBoard, clock: FakeClock, sensor: str = "occupancy"
) -> SerialSensorBoard:
    wiring = SerialWiring(port=sim.port_name, rows=ROWS, columns=COLUMNS, sensor=sensor)  # type: ignore[arg-type]
    return SerialSensorBoard(wiring, CELLS, clock=clock, settle_window_s=0.15)


def run(
    sim: SimulatedSerialBoard, host: SerialSensorBoard, clock: FakeClock, seconds: float
) -> list[BoardEvent]:
    events: list[BoardEvent] = []
    for _ in range(round(seconds / 0.01)):
        clock.advance(0.01)
        sim.step()
        events += host.poll(clock.now())
    return events


def settled(events: list[BoardEvent]) -> list[dict[str, str]]:
    return [dict(e.observation) for e in events if isinstance(e, BoardSettled)]


def test_the_host_connects_and_reports_the_settled_board(
    sim: SimulatedSerialBoard, clock: FakeClock
) -> None:
    sim.place("B2")
    sim.place(0)
    host = host_for(sim, clock)
    events = run(sim, host, clock, 0.6)
    assert events[0] == BoardStatus(True, "Board connected: firmware 4.0.0, 3×4 occupancy")
    assert settled(events) == [{"A1": OCCUPIED, "B2": OCCUPIED}]
    host.close()


def test_a_hand_passing_over_a_cell_never_settles(
    sim: SimulatedSerialBoard, clock: FakeClock
) -> None:
    host = host_for(sim, clock)
    run(sim, host, clock, 0.6)
    sim.place("C3")
    events = run(sim, host, clock, 0.1)
    sim.lift("C3")
    events += run(sim, host, clock, 0.6)
    assert settled(events) == []
    host.close()


def test_unplug_mid_stream_then_replug_gives_exactly_the_board(
    sim: SimulatedSerialBoard, clock: FakeClock
) -> None:
    sim.place("A1")
    sim.place("B2")
    host = host_for(sim, clock)
    assert settled(run(sim, host, clock, 0.6)) == [{"A1": OCCUPIED, "B2": OCCUPIED}]
    sim.place("D3")
    run(sim, host, clock, 0.02)  # an event is on its way
    sim.unplug()
    events = run(sim, host, clock, 1.0)
    assert events == [BoardStatus(False, "Board disconnected: check the USB cable")]
    # The board changes while the cable is out.
    sim.lift("B2")
    sim.place("C1")
    sim.replug()
    events = run(sim, host, clock, 6.0)
    assert events[0] == BoardStatus(True, "Board connected: firmware 4.0.0, 3×4 occupancy")
    assert settled(events) == [{"A1": OCCUPIED, "C1": OCCUPIED, "D3": OCCUPIED}]
    assert sim.firmware.requests >= 1
    assert sim.boots == 2
    host.close()


def test_rfid_tags_reach_the_host_as_upper_case_hex(clock: FakeClock) -> None:
    with SimulatedSerialBoard(ROWS, COLUMNS, "rfid", clock, cells=CELLS) as sim:
        sim.place("C2", tag="04a224b2c35e80")
        sim.place("A3", tag="deadbeef")
        host = host_for(sim, clock, "rfid")
        events = run(sim, host, clock, 0.8)
        assert settled(events) == [{"C2": "04A224B2C35E80", "A3": "DEADBEEF"}]
        host.close()


def test_a_reader_that_stops_answering_takes_the_board_offline_until_it_answers(
    clock: FakeClock,
) -> None:
    with SimulatedSerialBoard(
        ROWS, COLUMNS, "occupancy+rfid", clock, cells=CELLS, rfid_board="mux"
    ) as sim:
        host = host_for(sim, clock, "rfid")
        run(sim, host, clock, 0.6)
        assert isinstance(sim.rfid_board, AntennaMuxBoard)
        sim.rfid_board.dead = True
        sim.place("D1", tag="01020304")  # the read that finds the reader gone
        statuses = [e for e in run(sim, host, clock, 1.0) if isinstance(e, BoardStatus)]
        assert statuses == [
            BoardStatus(
                False,
                "RFID reader fault: no reader answers (VersionReg FFh): check 3V3, SPI, CS",
            )
        ]
        sim.rfid_board.dead = False  # tried again within a second, then reported no more
        statuses = [e for e in run(sim, host, clock, 7.0) if isinstance(e, BoardStatus)]
        assert statuses[-1].connected
        host.close()


def test_a_combined_board_reports_tags(clock: FakeClock) -> None:
    with SimulatedSerialBoard(ROWS, COLUMNS, "occupancy+rfid", clock, cells=CELLS) as sim:
        host = host_for(sim, clock, "rfid")
        run(sim, host, clock, 0.6)
        sim.place("D1", tag="01020304050607E0")
        assert settled(run(sim, host, clock, 0.6)) == [{"D1": "01020304050607E0"}]
        host.close()


def test_the_simulated_board_refuses_bad_scenario_input(sim: SimulatedSerialBoard) -> None:
    with pytest.raises(SimulatedBoardError, match="no cell named 'Z9'"):
        sim.place("Z9")
    with pytest.raises(SimulatedBoardError, match="not hex"):
        sim.place("A1", tag="xyz")
    with pytest.raises(SimulatedBoardError, match="off a board"):
        sim.lift(12)


class MemoryPort:
    """A serial port in memory: the test writes what the board says."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.written = bytearray()

    def read(self, size: int = 1) -> bytes:
        data, self.incoming = bytes(self.incoming[:size]), self.incoming[size:]
        return data

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)

    def close(self) -> None:
        pass

    def requests(self) -> int:
        messages = [e.message for e in LinkDecoder().feed(bytes(self.written))]
        self.written.clear()
        return messages.count(SnapshotRequest())


def memory_board(
    clock: FakeClock, port: MemoryPort, sensor: str = "occupancy"
) -> SerialSensorBoard:
    wiring = SerialWiring(port="loop://", rows=ROWS, columns=COLUMNS, sensor=sensor)  # type: ignore[arg-type]
    return SerialSensorBoard(
        wiring, CELLS, clock=clock, settle_window_s=0.15, opener=lambda _p, _b: port
    )


def say(port: MemoryPort, *messages: tuple[int, Message]) -> None:
    for seq, message in messages:
        port.incoming += encode(message, seq)


HELLO = Hello((4, 0, 0), ROWS, COLUMNS, "occupancy")
EMPTY = SnapshotPart(1, 12, 0, (None,) * 12)


def test_a_lost_event_asks_for_a_snapshot_and_drops_events_until_it_comes(
    clock: FakeClock,
) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    host.poll(clock.advance(0.01))
    assert port.requests() == 1
    say(port, (0, HELLO), (1, EMPTY), (2, CellEvent(0, b"", 1)))
    events = host.poll(clock.advance(0.01)) + host.poll(clock.advance(0.6))
    assert settled(events) == [{"A1": OCCUPIED}]
    say(port, (5, CellEvent(1, b"", 4)))  # events 2 and 3 lost
    host.poll(clock.advance(0.01))
    assert port.requests() == 1
    assert not host.mirror.current
    say(port, (6, CellEvent(2, b"", 5)))
    assert settled(host.poll(clock.advance(0.3))) == []
    say(port, (7, HELLO), (8, SnapshotPart(2, 12, 0, (None, b"", b"") + (None,) * 9, 5)))
    events = []
    for _ in range(20):
        events += host.poll(clock.advance(0.01))
    # What changed while the copy was stale settles at once, a window after it came.
    assert settled(events) == [{"B1": OCCUPIED, "C1": OCCUPIED}]


def test_changes_found_by_a_snapshot_settle_only_with_every_later_change(
    clock: FakeClock,
) -> None:
    """A piece moved from B1 to A1 while frames were lost, then a new piece laid on
    B1: the host must never show the first piece's tag on both cells."""
    x, y = bytes.fromhex("0A0B0C0D"), bytes.fromhex("01020304")
    port = MemoryPort()
    host = memory_board(clock, port, "rfid")
    hello = Hello((3, 0, 0), ROWS, COLUMNS, "rfid")
    say(port, (0, hello), (1, SnapshotPart(1, 12, 0, (None, x) + (None,) * 10)))
    events = host.poll(clock.advance(0.01)) + host.poll(clock.advance(0.3))
    assert settled(events) == [{"B1": "0A0B0C0D"}]
    # Events 1 (B1 lifted) and 2 (A1 laid with x) are lost; a snapshot tells.
    say(port, (5, SnapshotPart(2, 12, 0, (x, None) + (None,) * 10, 2)))
    events = host.poll(clock.advance(0.01))
    for _ in range(5):
        events += host.poll(clock.advance(0.01))
    say(port, (6, CellEvent(1, y, 3)))
    for _ in range(40):
        events += host.poll(clock.advance(0.01))
    assert settled(events) == [{"A1": "0A0B0C0D", "B1": "01020304"}]


OTHER = PROTOCOL_VERSION + 1


def foreign_hello(seq: int, version: int = OTHER) -> bytes:
    return wrap(bytes((version, 1, 0, seq, 2, 4, 1, 3, 4, 0)))


def foreign_frame(seq: int, version: int = OTHER) -> bytes:
    return wrap(bytes((version, 3, 0, seq, 9, 9, 9)))


def test_a_firmware_of_another_protocol_version_stops_with_what_to_install(
    clock: FakeClock,
) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    port.incoming += foreign_hello(0) + foreign_frame(1) + foreign_frame(2)
    with pytest.raises(ProtocolVersionError) as caught:
        host.poll(clock.advance(0.01))
    message = str(caught.value)
    assert f"firmware 2.4.1 speaks link protocol v{OTHER}" in message
    assert f"this tabletop speaks v{PROTOCOL_VERSION}" in message
    assert "docs/firmware.md" in message


def test_a_repeated_foreign_hello_is_believed(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    port.incoming += foreign_hello(0)
    host.poll(clock.advance(0.01))
    port.incoming += foreign_hello(1)
    with pytest.raises(ProtocolVersionError, match=r"firmware 2\.4\.1"):
        host.poll(clock.advance(0.01))


def test_a_board_of_another_version_is_named_without_its_hello(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    port.incoming += foreign_frame(7) + foreign_frame(8)
    host.poll(clock.advance(0.01))
    port.incoming += foreign_frame(9)
    with pytest.raises(ProtocolVersionError, match=f"the board speaks link protocol v{OTHER}"):
        host.poll(clock.advance(0.01))


def test_line_noise_that_reads_as_a_foreign_hello_is_not_believed(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    say(port, (0, HELLO), (1, EMPTY))
    host.poll(clock.advance(0.01))
    port.requests()
    port.incoming += foreign_hello(77) + foreign_frame(78)
    host.poll(clock.advance(1.0))
    # The host asks the board to introduce itself again; its own hello answers.
    assert port.requests() == 1
    say(port, (2, HELLO), (3, SnapshotPart(2, 12, 0, (b"",) + (None,) * 11)))
    port.incoming += foreign_hello(79) + foreign_frame(80)
    say(port, (4, CellEvent(1, b"", 1)))
    events = host.poll(clock.advance(0.01)) + host.poll(clock.advance(0.2))
    assert settled(events) == [{"A1": OCCUPIED, "B1": OCCUPIED}]
    host.poll(clock.advance(1.0))
    assert port.requests() == 1  # after the second burst of noise
    hello = Hello((3, 0, 0), ROWS, COLUMNS, "occupancy", 1)
    say(port, (5, hello), (6, SnapshotPart(3, 12, 0, (b"", b"") + (None,) * 10, 1)))
    host.poll(clock.advance(0.01))
    host.poll(clock.advance(2.0))
    assert port.requests() == 0  # once the board answered, no more are asked for
    assert host.decoder.bad_frames == 2


def test_a_board_of_another_size_is_refused_with_a_fix(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    say(port, (0, Hello((1, 0, 0), 15, 15, "occupancy")))
    with pytest.raises(BoardMismatchError, match="15×15 but the profile says 3×4"):
        host.poll(clock.advance(0.01))


def test_garbage_on_the_wire_is_counted_and_the_board_still_reads(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    port.incoming += b"\x00\x07\x99\x12\x00\xff\xfe" * 50
    say(port, (0, HELLO), (1, SnapshotPart(1, 12, 0, (b"",) + (None,) * 11)))
    events = host.poll(clock.advance(0.01)) + host.poll(clock.advance(0.2))
    assert host.decoder.bad_frames >= 50
    assert settled(events) == [{"A1": OCCUPIED}]


def test_a_silent_board_counts_as_gone_and_is_asked_again(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    say(port, (0, HELLO), (1, EMPTY))
    host.poll(clock.advance(0.01))
    port.requests()
    events = host.poll(clock.advance(5.0))
    statuses = [e for e in events if isinstance(e, BoardStatus)]
    assert statuses == [BoardStatus(False, "Board not answering: check the firmware is running")]
    assert port.requests() == 1


def test_a_silent_board_then_unplugged_says_it_is_disconnected(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    say(port, (0, HELLO), (1, EMPTY))
    host.poll(clock.advance(0.01))
    host.poll(clock.advance(5.0))

    def unplugged(size: int = 1) -> bytes:
        raise OSError("device reports readiness to read but returned no data")

    port.read = unplugged  # type: ignore[method-assign]
    events = host.poll(clock.advance(0.01))
    assert events == [BoardStatus(False, "Board disconnected: check the USB cable")]


def test_a_missing_port_is_retried_with_back_off(clock: FakeClock) -> None:
    attempts: list[float] = []

    def opener(port: str, baudrate: int) -> MemoryPort:
        attempts.append(clock.now())
        raise SerialPortError(f"no serial port {port}: is the board plugged in?")

    wiring = SerialWiring(port="/dev/ttyACM9", rows=ROWS, columns=COLUMNS)
    host = SerialSensorBoard(wiring, CELLS, clock=clock, settle_window_s=0.15, opener=opener)
    events: list[BoardEvent] = []
    for _ in range(400):
        events += host.poll(clock.advance(0.01))
    assert events == [BoardStatus(False, "Board disconnected: check the USB cable")]
    gaps = [round(b - a, 2) for a, b in itertools.pairwise(attempts)]
    assert gaps == [0.2, 0.5, 1.0, 2.0]


def test_cell_names_must_match_the_board_size(clock: FakeClock) -> None:
    wiring = SerialWiring(port="loop://", rows=15, columns=15)
    with pytest.raises(ValueError, match="has 225 cells but the profile lists 12"):
        SerialSensorBoard(wiring, CELLS, clock=clock, settle_window_s=0.15)


def test_a_copy_stale_for_a_second_shows_the_board_out_of_step(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    say(port, (0, HELLO), (1, EMPTY))
    events = host.poll(clock.advance(0.01))
    assert events == [BoardStatus(True, "Board connected: firmware 4.0.0, 3×4 occupancy")]
    say(port, (2, CellEvent(1, b"", 2)))  # event 1 lost
    statuses: list[BoardEvent] = []
    for seq in range(3, 13):  # the board goes on talking, but no snapshot gets through
        say(port, (seq, Pong(seq)))
        statuses += [e for e in host.poll(clock.advance(0.12)) if isinstance(e, BoardStatus)]
    assert statuses == [BoardStatus(False, OUT_OF_STEP)]
    say(port, (13, SnapshotPart(5, 12, 0, (None, b"") + (None,) * 10, 2)))
    events = host.poll(clock.advance(0.01))
    assert events[0] == BoardStatus(True, "Board connected: firmware 4.0.0, 3×4 occupancy")


def test_a_quick_recovery_is_not_shown(clock: FakeClock) -> None:
    port = MemoryPort()
    host = memory_board(clock, port)
    say(port, (0, HELLO), (1, EMPTY))
    host.poll(clock.advance(0.01))
    say(port, (2, CellEvent(1, b"", 2)))
    events = host.poll(clock.advance(0.3))
    say(port, (3, SnapshotPart(5, 12, 0, (None, b"") + (None,) * 10, 2)))
    events += host.poll(clock.advance(0.5))
    assert [e for e in events if isinstance(e, BoardStatus)] == []


def test_the_settle_filter_can_be_given(clock: FakeClock) -> None:
    port = MemoryPort()
    wiring = SerialWiring(port="loop://", rows=ROWS, columns=COLUMNS)
    slow = SettleFilter(CELLS, 0.5)
    host = SerialSensorBoard(wiring, CELLS, clock=clock, settle=slow, opener=lambda _p, _b: port)
    say(port, (0, HELLO), (1, EMPTY), (2, CellEvent(0, b"", 1)))
    events = host.poll(clock.advance(0.01)) + host.poll(clock.advance(0.3))
    assert settled(events) == []
    assert settled(host.poll(clock.advance(0.2))) == [{"A1": OCCUPIED}]
    assert slow.settled == {"A1": OCCUPIED}


def test_a_settle_filter_of_other_cells_or_none_at_all_is_refused(clock: FakeClock) -> None:
    wiring = SerialWiring(port="loop://", rows=ROWS, columns=COLUMNS)
    with pytest.raises(ValueError, match="settle filter's cells are not the board's"):
        SerialSensorBoard(wiring, CELLS, clock=clock, settle=SettleFilter(CELLS[:-1], 0.15))
    with pytest.raises(ValueError, match="needs a settle filter or a settle window"):
        SerialSensorBoard(wiring, CELLS, clock=clock)


def test_what_the_firmware_writes_in_a_step_is_on_the_hosts_end_when_the_step_returns(
    sim: SimulatedSerialBoard, clock: FakeClock
) -> None:
    # The kernel hands bytes across a pty a moment after they are written; the step
    # waits for them, so the host reads every frame in the step it was sent.
    import fcntl
    import os
    import termios
    from array import array

    host = host_for(sim, clock)
    unread = array("i", [0])
    fd = os.open(sim.port_name, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        steps_that_wrote = 0
        for i in range(300):
            if i % 10 == 0:
                cell = CELLS[(i // 20) % len(CELLS)]
                (sim.place if i % 20 == 0 else sim.lift)(cell)
            clock.advance(0.01)
            sent = sim.port.sent
            sim.step()
            fcntl.ioctl(fd, termios.FIONREAD, unread)
            if sim.port.sent > sent:
                steps_that_wrote += 1
                assert unread[0] == sim.port.sent - sent, f"step {i}"
            host.poll(clock.now())
        assert steps_that_wrote >= 10
    finally:
        os.close(fd)
        host.close()


def test_a_simulated_rfid_game_prints_the_same_states_every_time() -> None:
    from firmware_bridge.apps.cli import main

    runs = []
    for _ in range(3):
        out = io.StringIO()
        assert main(["sim", "--game", "dominoes", "--json", "--seed", "1"], out=out) == 0
        runs.append(out.getvalue())
    assert runs[0].count("\n") > 50
    assert runs[1] == runs[0] and runs[2] == runs[0]


def test_a_sync_comes_after_the_piece_laid_just_before_it_has_settled(
    sim: SimulatedSerialBoard, clock: FakeClock
) -> None:
    host = host_for(sim, clock)
    run(sim, host, clock, 0.5)
    sim.place("B2")
    token = host.sync(clock.now())
    events = run(sim, host, clock, 1.0)
    kinds = [e for e in events if isinstance(e, BoardSettled | BoardSynced)]
    assert kinds == [BoardSettled({"B2": OCCUPIED}), BoardSynced(token)]


def test_a_sync_on_a_still_board_needs_only_a_sweep_and_the_settle_window(
    sim: SimulatedSerialBoard, clock: FakeClock
) -> None:
    host = host_for(sim, clock)
    run(sim, host, clock, 0.5)
    token = host.sync(clock.now())
    assert run(sim, host, clock, 0.05) == [BoardSynced(token)]


def test_a_sync_the_board_never_answers_fails_with_what_to_check(
    sim: SimulatedSerialBoard, clock: FakeClock
) -> None:
    wiring = SerialWiring(port=sim.port_name, rows=ROWS, columns=COLUMNS, sensor="occupancy")
    host = SerialSensorBoard(wiring, CELLS, clock=clock, settle_window_s=0.15, sweep_s=0.1)
    run(sim, host, clock, 0.5)
    token = host.sync(clock.now())
    asked = clock.now()
    failed_at = None
    for _ in range(100):
        clock.advance(0.01)  # the firmware is stalled: it never steps
        for event in host.poll(clock.now()):
            if isinstance(event, BoardSyncFailed):
                assert event.token == token and "not answering" in event.message
                failed_at = clock.now()
    assert failed_at is not None
    # Three sweeps and the link's margin, not sooner.
    assert failed_at - asked >= 3 * 0.1
