"""The OLED sizes a profile may name are those the screens can be laid out on: the
check refuses a display only when the layout cannot show the header, the
instruction and every score on it at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.apps.checks import OLED_SIZES, check_profile
from firmware_bridge.screen.layout import lay_out
from firmware_bridge.screen.screens import Screen
from firmware_bridge.sim.runner import SimOptions, Simulation
from wiring.loader import load_profile

SIZES = ((128, 64), (128, 32))
"""The common SSD1306 and SH1106 modules."""


def first_screen(game: str, players: int) -> Screen:
    sim = Simulation(SimOptions(game, players=players, seed=1))
    try:
        sim.start()
        layout = sim.session.layout
        assert layout is not None
        return layout.screen
    finally:
        sim.close()


def shows_everything(screen: Screen, size: tuple[int, int]) -> bool:
    """Whether the prompt and every score are on screen, on every page."""
    layout = lay_out(screen, size)
    drawn = " ".join(layout.text()).replace("\u00a0", " ")
    return (not screen.prompt or screen.prompt in drawn) and all(
        score in drawn for score in screen.scores
    )


@pytest.mark.parametrize(("game", "players"), [("double-take", 2), ("crosslet", 4)])
@pytest.mark.parametrize("size", SIZES)
def test_the_check_accepts_exactly_the_sizes_the_layout_can_show(
    tmp_path: Path, game: str, players: int, size: tuple[int, int]
) -> None:
    screen = first_screen(game, players)
    assert screen.scores, "the first screen has scores to show"
    drawable = shows_everything(screen, size)
    assert drawable == (size in OLED_SIZES)
    profile_file = tmp_path / "p.toml"
    profile_file.write_text(
        f'extends = "double-take-gpio"\n[board]\nname = "mine"\n'
        f"[oled]\nwidth = {size[0]}\nheight = {size[1]}\n"
    )
    problems = check_profile(load_profile(str(profile_file))).problems
    refused = [p for p in problems if "[oled] width" in p]
    assert bool(refused) == (not drawable)
    if refused:
        assert "the header, the instruction and every score" in refused[0]
        assert "set width = 128, height = 64" in refused[0]
