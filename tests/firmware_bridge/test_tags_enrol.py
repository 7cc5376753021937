"""Enrolment: each tag laid on the board is named and saved; conflicts are refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from firmware_bridge.apps.enrol import run_enrol
from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.runtime.tags import TagTable
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from hardware.board import OCCUPIED, BoardEvent, BoardSettled, BoardStatus
from hardware.clock import FakeClock
from wiring.profile import SerialWiring


class ScriptedBoard:
    """A board that reports one scripted list of events per poll."""

    cells: tuple[str, ...] = ("A1", "A2", "A3")

    def __init__(self, script: list[list[BoardEvent]]) -> None:
        self._script: Iterator[list[BoardEvent]] = iter(script)

    def poll(self, now: float) -> list[BoardEvent]:
        events = next(self._script, None)
        if events is None:
            raise AssertionError("enrolment went on after the script ended")
        return events

    def close(self) -> None:
        pass


def test_each_new_tag_is_named_in_turn_and_saved(tmp_path: Path) -> None:
    clock = FakeClock()
    shown: list[str] = []
    board = ScriptedBoard(
        [
            [BoardStatus(True, "Board connected")],
            [BoardSettled({"A1": "04A224B2"})],
            [BoardSettled({"A1": "04A224B2", "A2": "DEADBEEF"})],
            [BoardSettled({"A2": "DEADBEEF", "A3": "01020304"})],
        ]
    )
    path = tmp_path / "tags.json"
    table = run_enrol(board, ["A", "?"], path, clock, shown.append, idle=clock.advance)
    assert table.items() == [("04A224B2", "A"), ("DEADBEEF", "?")]
    assert TagTable.load(path).items() == table.items()
    assert shown[:3] == ["Lay a piece on any cell", "Board connected", "A1: A enrolled. Next piece"]
    assert shown[-1] == "Enrolled 2 tags"


def test_a_tag_enrolled_under_another_name_is_refused(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "tags.json"
    TagTable({"04A224B2": "A"}).save(path)
    shown: list[str] = []
    board = ScriptedBoard(
        [
            [BoardSettled({"A1": "04A224B2"})],
            [BoardSettled({})],
            [BoardSettled({"A2": "DEADBEEF"})],
        ]
    )
    names = iter(["B"])
    table = run_enrol(
        board, lambda _tag: next(names, None), path, clock, shown.append, idle=clock.advance
    )
    assert table.lookup("04A224B2") == "A"
    assert "A1: tag already A; lift it" in shown


def test_a_tag_too_short_to_be_a_uid_is_refused_with_the_reason(tmp_path: Path) -> None:
    clock = FakeClock()
    shown: list[str] = []
    board = ScriptedBoard([[BoardSettled({"A1": "04A2"})], [BoardSettled({"A2": "DEADBEEF"})]])
    names = iter(["A", None])
    table = run_enrol(
        board,
        lambda _tag: next(names),
        tmp_path / "t.json",
        clock,
        shown.append,
        idle=clock.advance,
    )
    assert len(table) == 0
    refusals = [text for text in shown if text.startswith("A1:")]
    assert len(refusals) == 1
    assert "not a UID" in refusals[0]
    assert "already" not in refusals[0]


def test_overwrite_renames_an_enrolled_tag(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "tags.json"
    TagTable({"04A224B2": "A"}).save(path)
    board = ScriptedBoard(
        [[BoardSettled({"A1": "04A224B2"})], [BoardSettled({})], [BoardSettled({"A2": "DEADBEEF"})]]
    )
    table = run_enrol(
        board, ["B"], path, clock, lambda _t: None, overwrite=True, idle=clock.advance
    )
    assert TagTable.load(path).lookup("04A224B2") == "B"
    assert table.lookup("DEADBEEF") is None


def test_a_piece_without_a_readable_tag_is_pointed_out(tmp_path: Path) -> None:
    clock = FakeClock()
    shown: list[str] = []
    board = ScriptedBoard([[BoardSettled({"A3": OCCUPIED})], [BoardSettled({"A3": "DEADBEEF"})]])
    run_enrol(board, ["red"], tmp_path / "t.json", clock, shown.append, idle=clock.advance)
    assert "No tag read on A3: turn the piece or try another cell" in shown


def test_enrol_runs_on_the_simulated_rfid_board(tmp_path: Path) -> None:
    clock = FakeClock()
    cells = ["A1", "B1", "A2", "B2"]
    with SimulatedSerialBoard(2, 2, "rfid", clock, cells=cells) as sim:
        wiring = SerialWiring(port=sim.port_name, rows=2, columns=2, sensor="rfid")
        board = SerialSensorBoard(wiring, cells, clock=clock, settle_window_s=0.15)

        def idle(seconds: float) -> None:
            if clock.advance(seconds) > 10:
                raise AssertionError("enrolment did not finish")
            sim.step()

        sim.place("B2", tag="04A224B2C35E80")
        sim.place("A1", tag="DEADBEEF")
        # Cells are taken in name order: A1 first.
        table = run_enrol(board, ["?", "E"], tmp_path / "tags.json", clock, print, idle=idle)
        board.close()
    assert table.items() == [("04A224B2C35E80", "E"), ("DEADBEEF", "?")]
