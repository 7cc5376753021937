"""The OLED frames of DoubleCross, compared with reference PNGs.

Regenerate the references only on purpose: ``pytest --update-golden``.
"""

from __future__ import annotations

import random

import pytest
from PIL import Image

from firmware_bridge.screen.layout import render
from games.doublecross.game import DoubleCross
from games.lexicon import Lexicon
from hardware.buttons import ButtonEvent
from tests.firmware_bridge.tagged_table import TaggedTable
from tests.firmware_bridge.test_oled_frames import check_frame

OPTIONS = {
    "start_word": "CAT",
    "racks": ["AXERST", "OEDINS"],
    "bag": "EEEAAOOIINNRRTTLLSSUDG",
    "specials": {"H9": "ns", "A1": "bomb-1", "O1": "bomb-2", "C3": "bonus", "D12": "block"},
    "first": 1,
}


@pytest.fixture
def table(lexicon: Lexicon) -> TaggedTable:
    game = DoubleCross(2, random.Random(1), OPTIONS, lexicon=lexicon)
    return TaggedTable(game)


def press(table: TaggedTable, name: str, times: int = 1) -> None:
    for _ in range(times):
        table.session.handle(ButtonEvent(name, False))


def lay(table: TaggedTable, cell: str, letter: str) -> None:
    table.board[cell] = table.tag(letter)
    table.settle()


def lift(table: TaggedTable, cell: str) -> None:
    del table.board[cell]
    table.settle()


def frame(table: TaggedTable) -> Image.Image:
    return render(table.session.screen())


def test_set_up_frame_lists_the_markers(table: TaggedTable, update_golden: bool) -> None:
    check_frame(frame(table), "dc_markers", update_golden)


def test_a_tile_frame_says_what_it_made(table: TaggedTable, update_golden: bool) -> None:
    press(table, "ok", 2)
    lay(table, "H9", "A")
    check_frame(frame(table), "dc_partial", update_golden)
    press(table, "ok")
    lay(table, "H10", "S")
    check_frame(frame(table), "dc_complete", update_golden)


def test_a_destroyed_tile_frame_maps_it(table: TaggedTable, update_golden: bool) -> None:
    press(table, "ok", 2)
    lay(table, "J8", "X")
    check_frame(frame(table), "dc_destroyed", update_golden)


def test_the_map_and_the_bomb_cursor(table: TaggedTable, update_golden: bool) -> None:
    press(table, "ok", 2)
    lay(table, "H9", "A")
    lay(table, "I9", "T")
    press(table, "ok")
    lay(table, "H10", "N")
    press(table, "ok")
    press(table, "roll")
    check_frame(frame(table), "dc_map", update_golden)
    press(table, "roll")
    press(table, "back")
    press(table, "ok")
    press(table, "right", 7)
    press(table, "ok")
    press(table, "right", 2)
    check_frame(frame(table), "dc_aim", update_golden)
    press(table, "ok")
    check_frame(frame(table), "dc_blast", update_golden)


def test_the_result_frame(table: TaggedTable, update_golden: bool) -> None:
    press(table, "ok", 2)
    press(table, "ok")  # player 1 passes
    press(table, "ok")  # player 2 passes, and may end the game
    press(table, "back")
    press(table, "right")  # past new letters, to end the game
    press(table, "ok")
    assert table.session.game.outcome is not None
    check_frame(frame(table), "dc_result", update_golden)
