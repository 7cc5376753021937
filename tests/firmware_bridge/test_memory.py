"""Memory over a long session: the journal's and the simulated pins' stay bounded."""

from __future__ import annotations

import _sqlite3
import ctypes
from pathlib import Path

import pytest

from firmware_bridge.journal import Journal
from hardware.matrix import MatrixScanner
from hardware.pins import PIN_HISTORY, mock_pin_factory
from hardware.sim_matrix import SimulatedMatrix
from wiring.loader import load_profile


def sqlite_heap() -> int:
    """Bytes SQLite has allocated in this process (its own count, sqlite3_memory_used)."""
    try:
        used = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used
    except AttributeError:
        pytest.skip("this Python's sqlite3 does not expose sqlite3_memory_used")
    used.restype = ctypes.c_int64
    return int(used())


def test_the_journal_does_not_keep_every_page_of_a_growing_file(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    payload = {"move": "x" * 1000}
    with Journal(path) as journal:

        def play_a_game() -> None:
            game_id = journal.new_game("double-take", 2, 1, {}, "double-take-gpio")
            for _ in range(20):
                journal.append(game_id, "action", payload)
            assert len(list(journal.entries(game_id))) == 20
            journal.finish(game_id, {"winner": "red"})

        for _ in range(20):
            play_a_game()
        size, heap = path.stat().st_size, sqlite_heap()
        for _ in range(40):
            play_a_game()
        journal_grew = path.stat().st_size - size
        heap_grew = sqlite_heap() - heap
    # 40 more games, some 800 KB more journal: the page cache is already full.
    assert journal_grew > 700_000
    assert heap_grew < 64 * 1024, f"SQLite grew {heap_grew} bytes over 40 games"


def test_simulated_pins_remember_only_their_last_changes() -> None:
    profile = load_profile("double-take-gpio")
    assert profile.matrix is not None
    factory = mock_pin_factory()
    board = SimulatedMatrix(factory, profile.matrix, profile.cells)
    scanner = MatrixScanner(profile.matrix, profile.cells, pin_factory=factory)
    button = factory.pin(profile.buttons.pins["ok"])
    try:
        board.load(["a1", "c3"])
        for _ in range(200):  # each scan drives every row on and off: 400 changes
            assert set(scanner.scan()) == {"a1", "c3"}
        rows = [factory.pin(pin) for pin in profile.matrix.row_pins]
        assert all(len(pin.states) == PIN_HISTORY for pin in rows)
        for _ in range(PIN_HISTORY):
            button.drive_low()
            button.drive_high()
        assert len(button.states) == PIN_HISTORY
    finally:
        scanner.close()
        board.close()
        factory.reset()
