from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.runtime.table import sensor_board
from hardware.board import OCCUPIED, BoardEvent, BoardSettled, BoardSynced, BoardSyncFailed
from hardware.clock import FakeClock
from hardware.matrix import GpioMatrixBoard, MatrixScanner
from hardware.settle import SettleFilter
from hardware.sim_matrix import SimulatedMatrix
from wiring.profile import ButtonWiring, MatrixWiring, OledWiring, Profile

WIRING = MatrixWiring(row_pins=(5, 6, 12), column_pins=(13, 19, 26))
CELLS = ("a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1")


@pytest.fixture(params=[True, False], ids=["active-low", "active-high"])
def wiring(request: pytest.FixtureRequest) -> MatrixWiring:
    return MatrixWiring(WIRING.row_pins, WIRING.column_pins, active_low=request.param)


@pytest.fixture
def rig(
    mock_factory: MockFactory, wiring: MatrixWiring
) -> Iterator[tuple[SimulatedMatrix, MatrixScanner]]:
    sim = SimulatedMatrix(mock_factory, wiring, CELLS)
    scanner = MatrixScanner(wiring, CELLS, pin_factory=mock_factory)
    yield sim, scanner
    scanner.close()
    sim.close()


def occupied(*cells: str) -> dict[str, str]:
    return dict.fromkeys(cells, OCCUPIED)


def test_empty_board_scans_empty(rig: tuple[SimulatedMatrix, MatrixScanner]) -> None:
    _, scanner = rig
    assert scanner.scan() == {}


def test_scan_reads_each_placed_piece_at_its_cell(
    rig: tuple[SimulatedMatrix, MatrixScanner],
) -> None:
    sim, scanner = rig
    for cell in CELLS:
        sim.load([cell])
        assert scanner.scan() == occupied(cell)


def test_lifted_piece_no_longer_reads(rig: tuple[SimulatedMatrix, MatrixScanner]) -> None:
    sim, scanner = rig
    sim.load(["a1", "b2", "c3"])
    sim.lift("b2")
    assert scanner.scan() == occupied("a1", "c3")
    assert sim.occupied == {"a1", "c3"}


def test_three_pieces_on_a_square_read_as_three_without_ghosting(
    mock_factory: MockFactory, wiring: MatrixWiring
) -> None:
    small = MatrixWiring(wiring.row_pins[:2], wiring.column_pins[:2], wiring.active_low)
    cells = ("a2", "b2", "a1", "b1")
    sim = SimulatedMatrix(mock_factory, small, cells)
    scanner = MatrixScanner(small, cells, pin_factory=mock_factory)
    # Without diodes, a2-b2-a1 closed would make b1 read too.
    sim.load(["a2", "b2", "a1"])
    assert scanner.scan() == occupied("a2", "b2", "a1")
    scanner.close()


def test_full_board_reads_every_cell(rig: tuple[SimulatedMatrix, MatrixScanner]) -> None:
    sim, scanner = rig
    sim.load(CELLS)
    assert scanner.scan() == occupied(*CELLS)


def test_rows_are_idle_between_scans(
    mock_factory: MockFactory, rig: tuple[SimulatedMatrix, MatrixScanner], wiring: MatrixWiring
) -> None:
    sim, scanner = rig
    sim.load(CELLS)
    scanner.scan()
    idle = wiring.active_low  # an undriven active-low row sits high
    assert [mock_factory.pin(p).state for p in wiring.row_pins] == [idle] * 3
    # ...so no column reads a piece while nothing is scanning.
    assert [mock_factory.pin(p).state for p in wiring.column_pins] == [idle] * 3


def test_each_row_is_driven_once_per_scan(
    mock_factory: MockFactory, rig: tuple[SimulatedMatrix, MatrixScanner], wiring: MatrixWiring
) -> None:
    _, scanner = rig
    pins = [mock_factory.pin(p) for p in wiring.row_pins]
    for pin in pins:
        pin.clear_states()
    scanner.scan()
    driven = not wiring.active_low
    assert [[s.state for s in pin.states] for pin in pins] == [[not driven, driven, not driven]] * 3


def test_unknown_cell_is_rejected_by_name(rig: tuple[SimulatedMatrix, MatrixScanner]) -> None:
    sim, _ = rig
    with pytest.raises(ValueError, match="'z9'"):
        sim.place("z9")
    with pytest.raises(ValueError, match="'z9'"):
        sim.load(["a1", "z9"])
    assert sim.occupied == set()


def test_cell_count_must_match_the_matrix(mock_factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="9 cells but 2"):
        MatrixScanner(WIRING, ["a1", "b1"], pin_factory=mock_factory)


def test_repeated_cell_names_are_rejected(mock_factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="repeated: a1"):
        MatrixScanner(WIRING, ["a1", *CELLS[1:-1], "a1"], pin_factory=mock_factory)


def test_simulation_built_after_the_scanner_is_refused(mock_factory: MockFactory) -> None:
    scanner = MatrixScanner(WIRING, CELLS, pin_factory=mock_factory)
    with pytest.raises(ValueError, match="before the scanner"):
        SimulatedMatrix(mock_factory, WIRING, CELLS)
    scanner.close()


def test_closed_scanner_releases_its_pins(mock_factory: MockFactory) -> None:
    scanner = MatrixScanner(WIRING, CELLS, pin_factory=mock_factory)
    scanner.close()
    again = MatrixScanner(WIRING, CELLS, pin_factory=mock_factory)
    assert again.scan() == {}
    again.close()


class TestGpioMatrixBoard:
    @pytest.fixture
    def board(
        self, rig: tuple[SimulatedMatrix, MatrixScanner]
    ) -> Iterator[tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock]]:
        sim, scanner = rig
        board = GpioMatrixBoard(scanner, SettleFilter(CELLS, 0.15), scan_interval_s=0.02)
        yield sim, board, FakeClock()

    @staticmethod
    def run(board: GpioMatrixBoard, clock: FakeClock, seconds: float) -> list[BoardSettled]:
        """Poll every 10 ms for ``seconds``; return the settled events seen."""
        events: list[BoardSettled] = []
        for _ in range(round(seconds / 0.01)):
            clock.advance(0.01)
            for event in board.poll(clock.now()):
                assert isinstance(event, BoardSettled)
                events.append(event)
        return events

    def test_first_settled_event_is_the_initial_board(
        self, board: tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock]
    ) -> None:
        sim, gpio_board, clock = board
        sim.load(["a1", "c3"])
        assert gpio_board.cells == CELLS
        assert self.run(gpio_board, clock, 0.3) == [BoardSettled(occupied("a1", "c3"))]

    def test_placed_piece_shows_up_once_after_settling(
        self, board: tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock]
    ) -> None:
        sim, gpio_board, clock = board
        self.run(gpio_board, clock, 0.3)
        sim.place("b2")
        assert self.run(gpio_board, clock, 0.1) == []
        assert self.run(gpio_board, clock, 0.5) == [BoardSettled(occupied("b2"))]

    def test_lifted_piece_disappears_after_settling(
        self, board: tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock]
    ) -> None:
        sim, gpio_board, clock = board
        sim.load(["b2", "c1"])
        self.run(gpio_board, clock, 0.3)
        sim.lift("b2")
        assert self.run(gpio_board, clock, 0.5) == [BoardSettled(occupied("c1"))]

    def test_piece_slid_across_the_board_shows_only_where_it_stops(
        self, board: tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock]
    ) -> None:
        sim, gpio_board, clock = board
        self.run(gpio_board, clock, 0.3)
        for cell in ("a1", "b1", "c1", "c2"):
            sim.load([cell])
            assert self.run(gpio_board, clock, 0.1) == []
        assert self.run(gpio_board, clock, 0.5) == [BoardSettled(occupied("c2"))]

    @staticmethod
    def events(board: GpioMatrixBoard, clock: FakeClock, seconds: float) -> list[BoardEvent]:
        out: list[BoardEvent] = []
        for _ in range(round(seconds / 0.01)):
            clock.advance(0.01)
            out += board.poll(clock.now())
        return out

    def test_barrier_comes_after_the_piece_laid_before_it_has_settled(
        self, board: tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock]
    ) -> None:
        sim, gpio_board, clock = board
        self.run(gpio_board, clock, 0.3)
        sim.place("b2")
        token = gpio_board.sync(clock.now())
        asked = clock.now()
        seen: list[tuple[float, BoardEvent]] = []
        for _ in range(50):
            clock.advance(0.01)
            seen += [(clock.now(), e) for e in gpio_board.poll(clock.now())]
        assert [e for _, e in seen] == [BoardSettled(occupied("b2")), BoardSynced(token)]
        settled_at, synced_at = (t for t, _ in seen)
        assert synced_at == settled_at and synced_at - asked >= 0.15 - 1e-9

    def test_barrier_waits_a_settle_window_even_on_a_still_board(
        self, board: tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock]
    ) -> None:
        _, gpio_board, clock = board
        self.run(gpio_board, clock, 0.3)
        token = gpio_board.sync(clock.now())
        assert self.events(gpio_board, clock, 0.12) == []
        assert self.events(gpio_board, clock, 0.06) == [BoardSynced(token)]

    def test_barrier_fails_on_a_board_that_never_holds_still(
        self, board: tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock]
    ) -> None:
        sim, gpio_board, clock = board
        self.run(gpio_board, clock, 0.3)
        token = gpio_board.sync(clock.now())
        seen: list[BoardEvent] = []
        for i in range(60):
            # A switch that chatters every 50 ms never settles.
            if i % 5 == 0:
                sim.load([] if sim.occupied else ["a1"])
            seen += self.events(gpio_board, clock, 0.01)
        failed = [e for e in seen if isinstance(e, BoardSyncFailed)]
        assert [e.token for e in failed] == [token]
        assert "keeps changing" in failed[0].message
        assert not any(isinstance(e, BoardSynced) for e in seen)

    def test_polls_within_the_scan_interval_do_not_scan(
        self,
        board: tuple[SimulatedMatrix, GpioMatrixBoard, FakeClock],
        mock_factory: MockFactory,
    ) -> None:
        _, gpio_board, clock = board
        row = mock_factory.pin(WIRING.row_pins[0])
        gpio_board.poll(clock.now())
        row.clear_states()
        gpio_board.poll(clock.now() + 0.019)
        assert len(row.states) == 1
        gpio_board.poll(clock.now() + 0.02)
        assert len(row.states) == 3


def profile(matrix: MatrixWiring | None) -> Profile:
    return Profile(
        name="test-3x3",
        description="a 3×3 occupancy matrix",
        games=("double-take",),
        sensor="gpio-matrix",
        cells=CELLS,
        buttons=ButtonWiring(pins={"ok": 23}),
        oled=OledWiring(),
        matrix=matrix,
        settle_ms=100,
    )


def test_board_from_profile_uses_its_settle_window(mock_factory: MockFactory) -> None:
    sim = SimulatedMatrix(mock_factory, WIRING, CELLS)
    board = sensor_board(profile(WIRING), mock_factory, FakeClock())
    sim.place("b2")
    assert board.poll(0.0) == []
    assert board.poll(0.06) == []
    assert board.poll(0.1) == [BoardSettled(occupied("b2"))]
    board.close()


def test_board_from_profile_without_matrix_is_refused(mock_factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="neither \\[matrix\\] nor \\[serial\\] wiring"):
        sensor_board(profile(None), mock_factory, FakeClock())


def test_each_driven_row_settles_before_its_columns_are_read(
    rig: tuple[SimulatedMatrix, MatrixScanner], monkeypatch: pytest.MonkeyPatch
) -> None:
    import hardware.matrix

    _sim, scanner = rig
    driven_while_settling: list[list[bool]] = []

    def settle(seconds: float) -> None:
        assert seconds == hardware.matrix.SETTLE_S
        driven_while_settling.append([row.is_active for row in scanner._rows])

    monkeypatch.setattr(hardware.matrix, "_settle", settle)
    scanner.scan()
    rows = len(scanner._rows)
    # One wait per row, each with exactly that row driven.
    assert driven_while_settling == [[i == r for i in range(rows)] for r in range(rows)]
