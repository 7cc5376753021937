"""``tabletop diag --cross-read ROW``: the antenna read on the wire, both ends, and the
cross-read matrix walked on the simulated row and column board."""

from __future__ import annotations

import importlib
import io
import os
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.diag import reader_text
from firmware_bridge.apps.diag_cross import CrossRead, matrix_lines, report, walk_row
from firmware_bridge.apps.diag_sim import SimBench
from firmware_bridge.apps.diag_terminal import START_S
from firmware_bridge.link.codec import decode, encode
from firmware_bridge.link.decoder import LinkDecoder
from firmware_bridge.link.errors import FrameError
from firmware_bridge.link.framing import wrap
from firmware_bridge.link.messages import AntennaRead, AntennaSeen, SeenStatus
from firmware_bridge.sim.pico.fake_rowcol import RowColumnBoard
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from wiring.loader import load_profile

wire: Any = importlib.import_module("firmware_bridge.firmware.wire")
app: Any = importlib.import_module("firmware_bridge.firmware.app")
rowcol: Any = importlib.import_module("firmware_bridge.firmware.rowcol")
mfrc522: Any = importlib.import_module("firmware_bridge.firmware.mfrc522")

UID = bytes.fromhex("0102030405060708")


# -- the wire ---------------------------------------------------------------------------------
def test_the_host_and_firmware_agree_on_an_antenna_read_and_its_answer() -> None:
    request = encode(AntennaRead(0x1234, 17), 5)
    packets = wire.Deframer().feed(request)
    assert packets == [(wire.ANTENNA_READ, 5, b"\x12\x34\x11")]
    assert wire.antenna_read_fields(packets[0][2]) == (b"\x12\x34", 17)
    answer = wire.frame(wire.ANTENNA_SEEN, 9, wire.antenna_seen_payload(b"\x12\x34", 17, 0, [UID]))
    assert decode(bytes(answer)[1:-1]).message == AntennaSeen(0x1234, 17, SeenStatus.OK, (UID,))
    assert encode(AntennaSeen(0x1234, 17, 0, (UID,)), 9) == bytes(answer)


def test_a_malformed_antenna_read_or_answer_is_refused_at_intake() -> None:
    assert wire.antenna_read_fields(b"\x00\x01") is None
    assert wire.antenna_read_fields(b"\x00\x01\x02\x03") is None
    header = bytes((wire.PROTOCOL_VERSION, wire.ANTENNA_SEEN, 0, 1))
    with pytest.raises(FrameError, match="UIDs it counts"):
        decode(wrap(header + b"\x00\x01\x03\x00\x02" + UID)[1:-1])  # counts 2, holds 1
    with pytest.raises(FrameError, match="status 2 with 1 UIDs"):
        decode(wrap(header + b"\x00\x01\x03\x02\x01" + UID)[1:-1])  # a failed read with a UID
    with pytest.raises(FrameError, match="status 9"):
        decode(wrap(header + b"\x00\x01\x03\x09\x00")[1:-1])
    with pytest.raises(FrameError, match="3 payload bytes"):
        decode(wrap(bytes((wire.PROTOCOL_VERSION, wire.ANTENNA_READ, 0, 1, 7)))[1:-1])


class _Port:
    def __init__(self) -> None:
        self.out = bytearray()

    def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        self.out.extend(data)


class _Antennas:
    rows = 2
    columns = 3

    def __init__(self, seen: set[bytes] | None) -> None:
        self.seen = seen
        self.read: list[int] = []

    def inventory(self, antenna: int) -> set[bytes] | None:
        self.read.append(antenna)
        return self.seen


def _answers(scanner: object, payload: bytes) -> tuple[list[Any], Any]:
    port = _Port()
    firmware = app.Firmware(port, scanner, 2, 3, "occupancy+rfid")
    firmware._handle(wire.ANTENNA_READ, payload, 0)
    return [e.message for e in LinkDecoder().feed(bytes(port.out))], firmware


def test_the_firmware_inventories_the_antenna_asked_for_and_answers_what_it_saw() -> None:
    antennas = _Antennas({UID, bytes(8)})
    messages, _ = _answers(SimpleNamespace(cells=6, antennas=antennas), b"\x00\x07\x04")
    assert antennas.read == [4]
    assert messages == [AntennaSeen(7, 4, SeenStatus.OK, (bytes(8), UID))]
    # An antenna off the board, a board with no antennas, a reader that failed.
    messages, _ = _answers(SimpleNamespace(cells=6, antennas=antennas), b"\x00\x08\x05")
    assert messages == [AntennaSeen(8, 5, SeenStatus.NO_ANTENNA)] and antennas.read == [4]
    messages, _ = _answers(SimpleNamespace(cells=6), b"\x00\x09\x00")
    assert messages == [AntennaSeen(9, 0, SeenStatus.NO_ANTENNA)]
    messages, _ = _answers(SimpleNamespace(cells=6, antennas=_Antennas(None)), b"\x00\x0a\x01")
    assert messages == [AntennaSeen(10, 1, SeenStatus.READER)]
    # A payload of the wrong size is a bad frame: counted, not answered.
    messages, firmware = _answers(SimpleNamespace(cells=6, antennas=antennas), b"\x00\x0b")
    assert messages == [] and firmware.deframer.bad == 1


# -- the census ------------------------------------------------------------------------------
def test_a_trf7962a_is_listed_as_present_by_its_iso_control_read_back() -> None:
    assert rowcol.PRESENT not in mfrc522.VERSIONS
    text = reader_text(0, rowcol.PRESENT)
    assert text.startswith("reader 1: TRF7962A answers") and "02h" in text
    assert reader_text(0, 0x00) == "reader 1: not answering (00h)"


# -- the walk on the simulated board ------------------------------------------------------------
@pytest.fixture
def rig() -> Iterator[SimBench]:
    sim = SimBench(load_profile("rfid-15x15-pico"))
    sim.run_for(START_S)
    try:
        yield sim
    finally:
        sim.close()


def _walk(sim: SimBench, row: int) -> CrossRead:
    walk = CrossRead(sim.bench, row)
    assert walk_row(walk, sim.run_for, sim.clock.now, lay=sim.lay_tag, limit_s=120)
    return walk


def _matrix(walk: CrossRead) -> dict[str, dict[str, str]]:
    lines = matrix_lines(walk)
    names = lines[0].split()[1:-1]
    return {
        line.split()[0]: dict(zip(names, line.split()[1:-1], strict=True)) for line in lines[1:-1]
    }


def test_a_fake_cross_read_and_a_fake_miss_are_found_and_each_told_what_to_check(
    rig: SimBench,
) -> None:
    assert rig.serial_sim is not None
    board = rig.serial_sim.rfid_board
    assert isinstance(board, RowColumnBoard)
    cells = rig.profile.cells
    board.cross_read(cells.index("C8"), 8)  # R9, the next row's antenna, sees C8's tag
    board.cross_read(cells.index("K8"), 0)  # R1, far away, sees K8's tag
    board.miss(cells.index("E8"), 15 + 4)  # C5 misses E8's tag
    walk = _walk(rig, 7)
    matrix = _matrix(walk)
    assert list(matrix) == [f"{c}8" for c in "ABCDEFGHIJKLMNO"]
    assert matrix["C8"]["R9"] == "X" and matrix["C8"]["R8"] == "+" and matrix["C8"]["C3"] == "+"
    assert matrix["K8"]["R1"] == "X"
    assert matrix["E8"]["C5"] == "-" and matrix["E8"]["R8"] == "+"
    marks = [m for square, row in matrix.items() for name, m in row.items()]
    assert marks.count("X") == 2 and marks.count("-") == 1 and marks.count("+") == 29
    problems = walk.problems()
    assert len(problems) == 3, problems
    assert problems[0].startswith("C8: R9, the next row's antenna, read the tag (a cross-read)")
    assert "step 4" in problems[0]
    assert problems[1].startswith("E8: its own column antenna C5 did not read the tag (a miss)")
    assert problems[2].startswith("K8: R1, neither its row's nor its column's antenna")
    assert all(tag == "01000000000000E0" for tag in walk.tags.values())
    assert report(walk)[-4] == "3 problems:"


def test_cli_walks_a_clean_row_and_says_so(rig: SimBench) -> None:
    rig.close()  # the CLI builds its own
    out = io.StringIO()
    code = main(["diag", "--sim", "--profile", "rfid-15x15-pico", "--cross-read", "1"], out=out)
    text = out.getvalue()
    assert code == 0, text
    assert "cross-read of row 1: lay one tag on A1, nothing else" in text
    assert "move the tag to O1, nothing else on the board" in text
    assert "no cross-read and no miss on row 1" in text
    for profile, row, refusal in (
        ("rfid-15x15-pico", 15, "from 1 to 15, not 16"),
        ("sim", 0, "has no serial board: the cross-read matrix needs"),
    ):
        sim = SimBench(load_profile(profile))
        try:
            with pytest.raises(ValueError, match=refusal):
                CrossRead(sim.bench, row)
        finally:
            sim.close()


def test_the_ok_button_stands_for_a_switch_that_is_not_fitted(rig: SimBench) -> None:
    walk = CrossRead(rig.bench, 0)
    rig.run_for(0.5)
    assert walk.reading is None and not walk.laid()  # nothing laid, nothing pressed
    assert rig.bench.oled_mode == "cross-read"  # the prompt is on the OLED
    rig.press("ok")
    rig.run_for(0.3)
    walk.step(rig.clock.now())
    assert walk.reading == 0  # the reads began without a switch closing
    assert rig.bench.oled_mode == "cross-read"  # shown again over the status the press put up


def test_the_firmware_in_micropython_answers_an_antenna_read() -> None:
    tag = "10a224b2c3d4e5e0"
    with SimulatedSerialBoard(3, 3, "occupancy+rfid", firmware="micropython") as sim:
        sim.place(4, tag=tag)  # row 1, column 1: antennas 1 and 3 + 1
        fd = os.open(sim.port_name, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            answers: list[AntennaSeen] = []
            decoder = LinkDecoder()
            for antenna in (0, 1, 4, 6):
                os.write(fd, encode(AntennaRead(0x100 + antenna, antenna), antenna))
                for step in range(40):
                    sim.step(len(answers) + step * 0.01)
                    got = _read(fd)
                    answers += [
                        e.message for e in decoder.feed(got) if isinstance(e.message, AntennaSeen)
                    ]
                    if len(answers) > (0, 1, 4, 6).index(antenna):
                        break
        finally:
            os.close(fd)
    uid = (bytes.fromhex(tag),)
    assert answers == [
        AntennaSeen(0x100, 0, SeenStatus.OK),
        AntennaSeen(0x101, 1, SeenStatus.OK, uid),
        AntennaSeen(0x104, 4, SeenStatus.OK, uid),
        AntennaSeen(0x106, 6, SeenStatus.NO_ANTENNA),
    ]


def _read(fd: int) -> bytes:
    out = b""
    while True:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return out
        if not data:
            return out
        out += data
