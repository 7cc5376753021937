"""The row-and-column RFID board (docs/rf.md) as the firmware's runner builds it from
config: the TPIC6B595 chain that selects one antenna, the TRF7962A's inventories of
a row or a column, and the combined scanner that places a new tile by the board's
ambiguity rule, on the pin-level fake board and the register-level fake reader."""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.sim.pico.fake_card import BenchWiringError
from firmware_bridge.sim.pico.fake_machine import FakeMachine, ShiftRegisterMatrix
from firmware_bridge.sim.pico.fake_rowcol import RowColumnBoard
from firmware_bridge.sim.pico.pty_line import SimulatedBoardError
from firmware_bridge.sim.pico.sim_config import ANTENNA_SETTLE_US
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from hardware.board import BoardSettled
from hardware.clock import FakeClock
from wiring.loader import load_profile
from wiring.profile import SerialWiring, Timing
from wiring.rf import placement
from wiring.rf.timing import inventory_s

# The firmware is untyped MicroPython, outside mypy: imported by name.
runner: Any = importlib.import_module("firmware_bridge.firmware.runner")
rowcol: Any = importlib.import_module("firmware_bridge.firmware.rowcol")
scanners: Any = importlib.import_module("firmware_bridge.firmware.scanners")

ROWS = COLUMNS = 4
PRESENT = b""


def uid(n: int) -> bytes:
    """An 8-byte ISO/IEC 15693 UID (E0h, the allocation class, last as sent on air)."""
    return n.to_bytes(7, "little") + b"\xe0"


def config(**overrides: object) -> SimpleNamespace:
    values: dict[str, object] = {
        "ROWS": ROWS,
        "COLUMNS": COLUMNS,
        "SENSOR": "occupancy+rfid",
        "RFID_BOARD": "rowcol",
        "MATRIX_SPI": 0,
        "MATRIX_SCK": 18,
        "MATRIX_MOSI": 19,
        "MATRIX_MISO": 16,
        "ROW_LATCH": 17,
        "COLUMN_LOAD": 20,
        "ACTIVE_LOW": True,
        "DEBOUNCE_MS": 30,
        "RFID_SPI": 1,
        "RFID_SCK": 10,
        "RFID_MOSI": 11,
        "RFID_MISO": 12,
        "RFID_CS": 13,
        "RFID_RST": 26,
        "RFID_IRQ": None,
        "ANTENNA_SER": 27,
        "ANTENNA_SRCK": 28,
        "ANTENNA_RCK": 21,
        "ANTENNA_G": 14,
        "ANTENNA_SRCLR": None,
        "ANTENNAS": ROWS + COLUMNS,
        "ANTENNA_SETTLE_US": 0,
        "TAG_POWER_US": 0,
        "TAG_RETRY_MS": 250,
        "TAG_RETRIES_PER_PASS": 4,
        "ROW_SETTLE_US": 0,
        "SWEEP_MS": 100,
    }
    values.update(overrides)
    return SimpleNamespace(**values)


class Rig:
    """The scanner runner.build_scanner makes, on the fake switches and antennas."""

    def __init__(self, **overrides: object) -> None:
        self.machine = FakeMachine()
        cfg = self.cfg = config(**overrides)
        bench = self.machine.bench
        self.switches = ShiftRegisterMatrix(
            bench,
            spi_bus=cfg.MATRIX_SPI,
            latch_pin=cfg.ROW_LATCH,
            load_pin=cfg.COLUMN_LOAD,
            rows=ROWS,
            columns=COLUMNS,
        )
        self.board = RowColumnBoard(
            bench,
            rows=ROWS,
            columns=COLUMNS,
            spi_bus=cfg.RFID_SPI,
            cs_pin=cfg.RFID_CS,
            ser_pin=cfg.ANTENNA_SER,
            srck_pin=cfg.ANTENNA_SRCK,
            rck_pin=cfg.ANTENNA_RCK,
            g_pin=cfg.ANTENNA_G,
            enable_pin=cfg.RFID_RST,
        )
        self.scanner = runner.build_scanner(self.machine, cfg)
        self.antennas = self.scanner.antennas
        self.now = 0
        self.reported: dict[int, bytes | None] = {}

    def lay(self, cell: int, tag: bytes | None, switch: bool = True) -> None:
        if tag is not None:
            self.board.tags[cell] = tag
        if switch:
            self.switches.closed.add(cell)

    def lift(self, cell: int) -> None:
        self.board.tags.pop(cell, None)
        self.switches.closed.discard(cell)

    def run(self, ms: int, step: int = 10) -> list[tuple[int, bytes | None]]:
        changes: list[tuple[int, bytes | None]] = []
        for _ in range(ms // step):
            self.now += step
            for i, value in self.scanner.poll(self.now):
                changes.append((i, value))
                self.reported[i] = value
        return changes


def test_the_chain_selects_exactly_one_antenna_and_none_until_started() -> None:
    rig = Rig()
    chain = rig.board.chain
    assert rig.scanner.problem is None
    assert chain.enabled and chain.selected() == []
    for k in range(ROWS + COLUMNS):
        rig.antennas.chain.select(k)
        assert chain.selected() == [k]
    rig.antennas.chain.select(None)
    assert chain.selected() == []


def test_before_start_g_holds_every_output_off() -> None:
    machine = FakeMachine()
    board = RowColumnBoard(
        machine.bench,
        rows=2,
        columns=2,
        spi_bus=1,
        cs_pin=13,
        ser_pin=27,
        srck_pin=28,
        rck_pin=21,
        g_pin=14,
    )
    pins = {n: machine.Pin(n, machine.Pin.OUT, value=0) for n in (27, 28, 21)}
    g = machine.Pin(14, machine.Pin.OUT, value=1)
    chain = rowcol.SelectChain(pins[27], pins[28], pins[21], 4, g=g)
    chain.select(2)
    assert board.chain.storage == 1 << 2 and board.chain.selected() == []
    g.value(0)
    assert board.chain.selected() == [2]


def test_a_row_and_a_column_inventory_see_the_tags_on_them() -> None:
    rig = Rig()
    rig.board.tags.update({0: uid(1), 1: uid(2), 5: uid(3), 13: uid(4)})
    antennas = rig.antennas
    assert antennas.inventory(antennas.row(0)) == {uid(1), uid(2)}
    assert antennas.inventory(antennas.row(1)) == {uid(3)}
    assert antennas.inventory(antennas.column(1)) == {uid(2), uid(3), uid(4)}
    assert antennas.inventory(antennas.column(3)) == set()
    assert rig.board.max_selected == 1
    assert rig.board.hot_switches == 0
    assert not rig.board.reader.field


def test_too_few_chain_outputs_for_the_antennas_is_refused() -> None:
    with pytest.raises(ValueError, match="ANTENNAS"):
        Rig(ANTENNAS=ROWS + COLUMNS - 1)
    with pytest.raises(BenchWiringError, match="TPIC6B595"):
        RowColumnBoard(
            FakeMachine().bench,
            rows=4,
            columns=4,
            spi_bus=1,
            cs_pin=13,
            ser_pin=27,
            srck_pin=28,
            rck_pin=21,
            g_pin=14,
            antennas=7,
        )


def test_a_tile_laid_is_read_with_one_inventory_of_its_row() -> None:
    rig = Rig()
    rig.run(100)
    before = rig.board.inventories
    rig.lay(6, uid(7))
    assert rig.run(100) == [(6, uid(7))]
    assert rig.board.inventories - before == 1
    assert rig.board.per_antenna[1] == 1  # row 1


def test_a_square_emptied_reports_none() -> None:
    rig = Rig()
    rig.lay(6, uid(7))
    rig.run(100)
    rig.lift(6)
    assert rig.run(100) == [(6, None)]


def test_two_new_tiles_in_one_row_and_one_column_at_once_are_all_placed() -> None:
    # docs/rf.md, the ambiguity rule 4: (r, c1), (r, c2) and (r2, c1).
    rig = Rig()
    rig.run(100)
    for cell, n in ((1 * COLUMNS + 0, 1), (1 * COLUMNS + 2, 2), (3 * COLUMNS + 0, 3)):
        rig.lay(cell, uid(n))
    rig.run(100)
    assert rig.reported == {4: uid(1), 6: uid(2), 12: uid(3)}


def test_a_tag_the_switches_do_not_explain_leaves_the_new_square_unread() -> None:
    # A tile on square 5 whose switch has not closed (a tile laid across the gap,
    # or still being laid) is seen by row 1 beside the tile laid on square 6: both
    # UIDs agree with square 6, which is reported without a tag, never guessed.
    rig = Rig()
    rig.run(100)
    rig.lay(5, uid(9), switch=False)
    rig.lay(6, uid(7))
    assert rig.run(100) == [(6, PRESENT)]
    assert rig.run(300) == []  # retried, still ambiguous
    rig.board.tags.pop(5)
    assert rig.run(300) == [(6, uid(7))]


def test_a_tile_that_does_not_answer_is_retried_until_it_does() -> None:
    rig = Rig()
    rig.run(100)
    rig.lay(6, None)
    assert rig.run(100) == [(6, PRESENT)]
    rig.board.tags[6] = uid(7)
    assert rig.run(300) == [(6, uid(7))]
    assert rig.scanner.gap(6) > 0


def test_a_tile_swapped_in_one_movement_is_found_by_the_background_sweep() -> None:
    rig = Rig()
    rig.lay(6, uid(7))
    rig.lay(9, uid(8))
    rig.run(100)
    rig.board.tags[6] = uid(11)  # the switch never opened
    changes = rig.run(2000)
    assert changes == [(6, uid(11))]


def test_placing_a_square_places_the_unread_squares_of_its_row_with_it() -> None:
    rig = Rig(TAG_RETRY_MS=100_000)  # no retry of its own: only the reads for others
    rig.run(100)
    rig.lay(5, None)  # a tile whose tag does not answer
    assert rig.run(100) == [(5, PRESENT)]
    rig.lay(6, uid(7))
    assert rig.run(100) == [(6, uid(7))]  # columns 1 and 2 read: 6 is certain
    rig.board.tags[5] = uid(9)  # now it answers
    rig.board.tags[6] = uid(11)  # and the tile on 6 is swapped in one movement
    changes = rig.run(2000)
    # The background sweep sees row 1's new UIDs: square 6 is placed again, and the
    # unread square 5 of the same row with it.
    assert sorted(changes) == [(5, uid(9)), (6, uid(11))]


def test_a_tag_missed_by_the_sweep_changes_nothing() -> None:
    rig = Rig()
    rig.lay(6, uid(7))
    rig.run(100)
    rig.board.tags.pop(6)  # the tag stops answering; the tile stays
    assert rig.run(2000) == []


def test_a_reader_that_stops_answering_is_reported_and_found_again() -> None:
    rig = Rig()
    rig.run(100)
    rig.board.reader.dead = True
    rig.lay(6, uid(7))
    assert rig.run(100) == [(6, PRESENT)]
    assert rig.scanner.problem is not None
    rig.board.reader.dead = False
    rig.run(1500)
    assert rig.scanner.problem is None
    assert rig.reported[6] == uid(7)


Square = tuple[int, int]
Case = tuple[
    dict[Square, str | None], set[Square], set[Square], dict[int, set[str]], dict[int, set[str]]
]


def _random_case(rnd: random.Random) -> Case:
    rows, columns = 5, 5
    squares = [(r, c) for r in range(rows) for c in range(columns)]
    before: dict[Square, str | None] = {
        sq: f"u{i}" for i, sq in enumerate(rnd.sample(squares, rnd.randint(0, 8)))
    }
    for sq in rnd.sample(sorted(before), min(len(before), rnd.randint(0, 2))):
        before[sq] = None  # unread from before
    free = [sq for sq in squares if sq not in before]
    laid = set(rnd.sample(free, rnd.randint(1, 4)))
    lifted = set(rnd.sample(sorted(before), min(len(before), rnd.randint(0, 2))))
    lying: dict[Square, str | None] = {sq: tag for sq, tag in before.items() if sq not in lifted}
    for i, sq in enumerate(sorted(laid)):
        lying[sq] = f"n{i}"
    for sq, tag in lying.items():
        if tag is None:
            lying[sq] = f"x{sq[0]}{sq[1]}"
    occupied = set(lying)
    changed = laid | lifted
    targets = (changed & occupied) | {sq for sq in occupied if before.get(sq, "") is None}
    rows_read, cols_read = placement.reads_needed(targets)
    miss = rnd.random() < 0.3

    def seen(line: list[Square]) -> set[str]:
        return {str(lying[sq]) for sq in line if sq in lying and not (miss and rnd.random() < 0.3)}

    rows_seen = {r: seen([(r, c) for c in range(columns)]) for r in rows_read}
    cols_seen = {c: seen([(r, c) for r in range(rows)]) for c in cols_read}
    return before, changed, occupied, rows_seen, cols_seen


def test_the_firmware_places_exactly_as_the_rule_in_wiring_rf_placement() -> None:
    rnd = random.Random(15693)
    for _ in range(3000):
        before, changed, occupied, rows_seen, cols_seen = _random_case(rnd)
        expected = placement.place(before, changed, occupied, rows_seen, cols_seen)
        targets = (changed & occupied) | {sq for sq in occupied if before.get(sq, "") is None}
        kept = {sq: t for sq, t in before.items() if sq in occupied and sq not in targets}
        assert rowcol.reads_needed(targets) == placement.reads_needed(targets)
        placed = rowcol.place(kept, targets, rows_seen, cols_seen)
        got = {**kept, **dict.fromkeys(targets), **placed}
        assert got == expected


def shipped_config() -> SimpleNamespace:
    config: dict[str, Any] = {}
    exec((Path(runner.__file__).parent / "config.py").read_text(), config)
    return SimpleNamespace(**{k: v for k, v in config.items() if k.isupper()})


def test_the_shipped_config_gives_every_pin_one_use() -> None:
    cfg = shipped_config()
    assert cfg.RFID_BOARD == "rowcol"
    assert cfg.ANTENNAS == cfg.ROWS + cfg.COLUMNS == 30
    pins = [cfg.UART_TX, cfg.UART_RX, cfg.MATRIX_SCK, cfg.MATRIX_MOSI, cfg.MATRIX_MISO]
    pins += [cfg.ROW_LATCH, cfg.COLUMN_LOAD, cfg.RFID_SCK, cfg.RFID_MOSI, cfg.RFID_MISO]
    pins += [cfg.RFID_CS, cfg.RFID_RST, cfg.RECOVERY_PIN, *cfg.RFID_SELECT]
    pins += [cfg.ANTENNA_SER, cfg.ANTENNA_SRCK, cfg.ANTENNA_RCK, cfg.ANTENNA_G]
    assert len(pins) == len(set(pins))
    # The LED chain's data pin in every shipped profile (GP15), and the GPIOs the
    # Pico keeps on its own board (23-25, 29), stay free.
    assert not {15, 23, 24, 25, 29} & set(pins)


def test_the_shipped_config_builds_the_row_and_column_board() -> None:
    cfg = shipped_config()
    cfg.SENSOR = "occupancy+rfid"
    cfg.TAG_POWER_US = cfg.ANTENNA_SETTLE_US = cfg.ROW_SETTLE_US = 0
    machine = FakeMachine()
    board = RowColumnBoard(
        machine.bench,
        rows=cfg.ROWS,
        columns=cfg.COLUMNS,
        spi_bus=cfg.RFID_SPI,
        cs_pin=cfg.RFID_CS,
        ser_pin=cfg.ANTENNA_SER,
        srck_pin=cfg.ANTENNA_SRCK,
        rck_pin=cfg.ANTENNA_RCK,
        g_pin=cfg.ANTENNA_G,
        enable_pin=cfg.RFID_RST,
        antennas=cfg.ANTENNAS,
    )
    board.tags = {14 * 15 + 14: uid(5)}
    scanner = runner.build_scanner(machine, cfg)
    assert scanner.problem is None
    assert scanner.antennas.inventory(scanner.antennas.column(14)) == {uid(5)}
    assert board.chain.selected() == [15 + 14]


# -- the simulated serial board ---------------------------------------------------------


def sim_observations(firmware: str, tags: dict[int, str], timing: Timing | None = None) -> Any:
    """What the host settles on for ``tags`` laid on a 3 × 3 simulated board."""
    clock = FakeClock(100.0)
    names = [f"{'ABC'[c]}{r + 1}" for r in range(3) for c in range(3)]
    with SimulatedSerialBoard(
        3, 3, "occupancy+rfid", clock, cells=names, firmware=firmware, timing=timing
    ) as sim:
        assert sim.rfid_kind == "rowcol"
        wiring = SerialWiring(port=sim.port_name, rows=3, columns=3, sensor="rfid")
        host = SerialSensorBoard(wiring, names, clock=clock, settle_window_s=0.15)
        for cell, tag in tags.items():
            sim.place(cell, tag=tag)
        settled = []
        for _ in range(150):
            clock.advance(0.01)
            sim.step()
            events = host.poll(clock.now())
            settled += [dict(e.observation) for e in events if isinstance(e, BoardSettled)]
        host.close()
        return settled[-1] if settled else None


TAGS = {0: "0102030405060AE0", 1: "1102030405060AE0", 4: "2102030405060AE0"}
SEEN = {"A1": "0102030405060AE0", "B1": "1102030405060AE0", "B2": "2102030405060AE0"}


@pytest.mark.parametrize("firmware", ["python", "micropython"])
def test_the_simulated_board_reads_tags_on_its_rows_and_columns(firmware: str) -> None:
    assert sim_observations(firmware, TAGS) == SEEN


def test_the_simulated_board_refuses_a_tag_that_is_not_an_iso_15693_uid() -> None:
    with (
        SimulatedSerialBoard(2, 2, "occupancy+rfid") as sim,
        pytest.raises(SimulatedBoardError, match="8 bytes, not 4"),
    ):
        sim.place(0, tag="01020304")


def test_a_pass_that_reads_a_tile_lasts_as_long_as_the_real_parts_take() -> None:
    timing = load_profile("rfid-15x15-pico").timing
    clock = FakeClock(100.0)
    with SimulatedSerialBoard(15, 15, "occupancy+rfid", clock, timing=timing) as sim:
        scanner = sim.firmware.scanner
        passes: list[tuple[float, int]] = []
        step = sim.firmware.step

        def timed(now: int) -> None:
            before = scanner.antennas.inventories
            step(now)
            passes.append((sim.pass_us, scanner.antennas.inventories - before))

        sim.firmware.step = timed
        for _ in range(50):
            clock.advance(0.01)
            sim.step()
        sim.place(16, tag="0102030405060AE0")
        for _ in range(20):
            clock.advance(0.01)
            sim.step()
        reading = [us for us, reads in passes if reads == 1]
        quiet = [us for us, reads in passes if reads == 0]
    # One inventory of row 1 (one tag): the air time of ISO/IEC 15693 (wiring.rf.timing),
    # the tags' power-up and the antenna's settling, the driver's SPI transactions.
    least = inventory_s(1) + timing.power_up_ms / 1e3 + ANTENNA_SETTLE_US / 1e6
    assert reading and min(reading) - max(quiet) >= least * 1e6
    assert min(reading) - max(quiet) < (least + 0.005) * 1e6
