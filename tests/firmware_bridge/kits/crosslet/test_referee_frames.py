"""The OLED frames of Crosslet, compared with reference PNGs.

Regenerate the references only on purpose: ``pytest --update-golden``.
"""

from __future__ import annotations

import random

import pytest
from PIL import Image

from firmware_bridge.screen.layout import render
from games.crosslet.game import Crosslet
from games.crosslet.player import CrossletPlayer
from games.lexicon import Lexicon
from tests.firmware_bridge.kits.crosslet.referee_helpers import Table, generator_of, new_game
from tests.firmware_bridge.test_oled_frames import check_frame


@pytest.fixture
def table(lexicon: Lexicon) -> Table:
    return Table(new_game(lexicon, "CATERS?", "DOGINQU"))


def frame(table: Table) -> Image.Image:
    return render(table.session.screen())


def test_opening_frame_shows_the_rack(table: Table, update_golden: bool) -> None:
    check_frame(frame(table), "cl_opening", update_golden)


def test_laid_tiles_frame_previews_the_words(table: Table, update_golden: bool) -> None:
    table.lay("H8,I8,J8", "CAT")
    check_frame(frame(table), "cl_laid", update_golden)


def test_played_frame_shows_words_points_and_the_deal(table: Table, update_golden: bool) -> None:
    table.lay("H8,I8,J8", "CAT")
    table.press("ok")
    check_frame(frame(table), "cl_played", update_golden)


def test_rejected_frame_maps_the_fix(table: Table, update_golden: bool) -> None:
    table.lay("H8,I8,J8", "TCA")
    table.press("ok")
    check_frame(frame(table), "cl_rejected", update_golden)


def test_blank_menu_frame(table: Table, update_golden: bool) -> None:
    table.lay("H8,I8,J8", "CA?")
    for _ in range(4):
        table.press("right")
    check_frame(frame(table), "cl_blank_menu", update_golden)


def test_turn_menu_frame(table: Table, update_golden: bool) -> None:
    table.press("back")
    table.press("right")
    check_frame(frame(table), "cl_turn_menu", update_golden)


def test_hint_frame(table: Table, update_golden: bool) -> None:
    table.press("ok", long=True)
    check_frame(frame(table), "cl_hint", update_golden)


def test_exchange_frame_asks_to_bag_the_tiles(table: Table, update_golden: bool) -> None:
    table.lay("A1,B1", "CT")
    table.press("back")
    table.choose("exchange")
    check_frame(frame(table), "cl_exchange", update_golden)


def test_result_frame(lexicon: Lexicon, update_golden: bool) -> None:
    game = Crosslet(
        2, random.Random(3), {"first": 1}, lexicon=lexicon, generator=generator_of(lexicon)
    )
    player = CrossletPlayer(game.generator, random.Random(3))
    while game.outcome is None:
        game.apply(player.choose(game))
    check_frame(frame(Table(game)), "cl_result", update_golden)


# -- the table's own bag -------------------------------------------------------------------
def table_bag(lexicon: Lexicon, profile: str = "test") -> Table:
    options = {"first": 1} if profile != "test" else {"first": 1, "racks": "table"}
    game = Crosslet(2, random.Random(1), options, lexicon=lexicon, generator=generator_of(lexicon))
    return Table(game, profile=profile)


def test_draw_frame_says_how_many_tiles_to_draw(lexicon: Lexicon, update_golden: bool) -> None:
    table = table_bag(lexicon)
    table.lay("H8,I8,J8", "CAT")
    table.press("ok")
    check_frame(frame(table), "cl_table_draw", update_golden)


def test_count_frame_asks_to_lay_the_rack(lexicon: Lexicon, update_golden: bool) -> None:
    table = table_bag(lexicon)
    for _ in range(4):
        table.press("back")
        table.choose("pass")
    check_frame(frame(table), "cl_table_lay_rack", update_golden)


def test_rack_seen_frame(lexicon: Lexicon, update_golden: bool) -> None:
    table = table_bag(lexicon, "rfid-15x15-racks-pico")
    table.lay("A16,B16,C16,D16,E16,F16,G16", "CATERS?")
    check_frame(frame(table), "cl_table_rack_seen", update_golden)
