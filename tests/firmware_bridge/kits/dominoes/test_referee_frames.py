"""The OLED frames of Double Double Dominoes, compared with reference PNGs.

Regenerate the references only on purpose: ``pytest --update-golden``.
"""

from __future__ import annotations

import random

from PIL import Image

from firmware_bridge.screen.layout import render
from games.dominoes.game import Dominoes
from tests.firmware_bridge.kits.dominoes.referee_helpers import Table
from tests.firmware_bridge.test_oled_frames import check_frame


def frame(table: Table) -> Image.Image:
    return render(table.session.screen())


def test_draw_frame(update_golden: bool) -> None:
    table = Table(Dominoes(2, random.Random(1)))
    check_frame(frame(table), "dd_draw", update_golden)


def test_play_frame_names_the_drawn_domino(update_golden: bool) -> None:
    table = Table(Dominoes(2, random.Random(1)))
    table.press("roll")
    check_frame(frame(table), "dd_play", update_golden)


def test_rejected_frame_maps_the_fix(update_golden: bool) -> None:
    game = Dominoes.from_position(
        2, board=[(2, 1, "H8", "I8")], hands=[[(2, 5), (0, 3)], [(4, 4)]], phase="play"
    )
    table = Table(game)
    table.lay("J8,K8", "5-2")
    assert table.session.pending_fixes()
    check_frame(frame(table), "dd_rejected", update_golden)


def test_chain_frame(update_golden: bool) -> None:
    game = Dominoes.from_position(
        3, hands=[[(3, 3), (1, 3), (0, 2)], [(4, 4)], [(1, 1)]], scores=[12, 7, 0], phase="play"
    )
    table = Table(game)
    table.lay("H7,H8", "3-3")
    check_frame(frame(table), "dd_chain", update_golden)


def test_discard_frame(update_golden: bool) -> None:
    game = Dominoes.from_position(
        2,
        board=[(3, 3, "H7", "H8")],
        hands=[[(0, 4), (0, 6), (2, 4), (5, 5)], [(4, 4)]],
        phase="play",
    )
    table = Table(game)
    check_frame(frame(table), "dd_discard", update_golden)


def test_tie_result_frame(update_golden: bool) -> None:
    game = Dominoes.from_position(
        2,
        board=[(2, 1, "H8", "I8")],
        hands=[[(1, 5), (0, 0)], [(2, 2)]],
        boneyard=[(6, 6)],
        scores=[10, 10],
    )
    table = Table(game)
    table.press("roll")
    table.lay("J8,K8", "1-5")
    for dominoes in (["0-0", "6-6"], ["2-2"]):
        for where, domino in zip(["A15,B15", "C15,D15"], dominoes, strict=False):
            table.lay(where, domino)
        table.press("ok")
        table.lift(*(c for c in ["A15", "B15", "C15", "D15"][: 2 * len(dominoes)]))
    check_frame(frame(table), "dd_tie_result", update_golden)
