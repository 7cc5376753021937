"""Every frame of whole simulated games fits the OLED: nothing clipped, every score shown.

Each game is played by the computer for every player count, and every frame the
session draws is checked against the screen with the font it is drawn in: the
header, every line inside the screen and clear of the map and the picture, each
seat's score on every frame, the prompt on every frame but the page of a line too
long to stand whole above it, no letter alone on a line, and every
word of the screen on one of its pages. Every line of the screen (a refusal's reason,
who scored what) stands whole on one page, never cut between two; each score is the
game's. Every map of the lights under the squares the chain is told passes
``lights_check.py``: each fix asked for is lit in the fix colours, no other cell is.
``TABLETOP_SEEDS`` sets how many seeds of
each game and player count are played (2 by default; 50 for the full check).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageFont

from firmware_bridge.kits import KITS
from firmware_bridge.screen.layout import KEEP, PAGE_S, LaidOut, lay_out
from firmware_bridge.screen.screens import HEADER_H, Screen, printable
from firmware_bridge.sim.runner import SimOptions, Simulation
from games.registry import find_listed
from tests.firmware_bridge.lights_check import Checked

SEEDS = int(os.environ.get("TABLETOP_SEEDS", "2"))
CASES = [
    pytest.param(
        name,
        players,
        marks=[pytest.mark.slow]
        if name == "doublecross" or players > find_listed(name).min_players
        else [],
    )
    for name in sorted(KITS)
    for players in range(find_listed(name).min_players, find_listed(name).max_players + 1)
]
FONT = ImageFont.load_default_imagefont()
"""Measured independently of the layout, with the font the OLED is drawn in."""


@dataclass(frozen=True)
class Seen:
    """What the table knew when a frame was drawn: the refusal standing, the scores."""

    reason: str
    scores: tuple[int, ...]


class Recorder:
    """A display that keeps the layout of every frame the session draws."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        self.inner: Any = sim.session.display
        self.frames: list[LaidOut] = []
        self.seen: list[Seen] = []

    def show(self, image: Any) -> None:
        session = self.sim.session
        layout = session.layout
        assert layout is not None
        self.frames.append(layout)
        verdict = session.last_verdict
        reason = verdict.reason if verdict is not None and not verdict.accepted else ""
        self.seen.append(Seen(reason, tuple(session.game.scores())))
        self.inner.show(image)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def play(game: str, players: int, seed: int, journal: Path) -> tuple[Recorder, int]:
    sim = Simulation(SimOptions(game, players=players, seed=seed, journal=journal))
    recorder = Recorder(sim)
    sim.session.display = recorder
    lights = Checked(sim.session)
    sim.session.lights = lights
    try:
        sim.start()
        sim.play_computer()
        assert sim.session.game.outcome is not None, "the game was played to its end"
    finally:
        sim.close()
    assert lights.maps > 1 and not lights.wrong, lights.wrong[:5]
    assert lights.chain.scaled > 0, "no lit map needed the budget: the check proved nothing"
    return recorder, len(sim.session.game.history)


def box(text: str, x: int, y: int) -> tuple[int, int, int, int]:
    left, top, right, bottom = FONT.getbbox(text)
    return x + left, y + top, x + right, y + bottom


def problems(layout: LaidOut, players: int) -> list[str]:
    """What is wrong with one frame, in words (empty: nothing)."""
    found: list[str] = []
    screen = layout.screen
    width, height = layout.size
    header = box(layout.header, 1, 0)
    if header[2] > width or header[3] > HEADER_H:
        found.append(f"the header {layout.header!r} runs off the bar")
    if layout.status:
        status_w = int(FONT.getlength(layout.status))
        if header[2] >= width - status_w - 1 - 2:
            found.append(f"the header {layout.header!r} runs into {layout.status!r}")
    top = HEADER_H + 1 + (screen.picture.height if screen.picture is not None else 0)
    last_y = None
    for line in layout.lines:
        x0, y0, x1, y1 = box(line.text, line.x, line.y)
        if x0 < 0 or y0 < top or x1 > width or y1 > height:
            found.append(f"{line.text!r} is cut at the screen's edge ({x0},{y0},{x1},{y1})")
        if layout.map is not None and y0 <= layout.map.bottom and x1 >= layout.map.left - 1:
            found.append(f"{line.text!r} runs under the map")
        if last_y is not None and line.y - last_y < 10:
            found.append(f"{line.text!r} overlaps the line above")
        last_y = line.y
        if re.fullmatch(r"\s*\w\s*", line.text):
            found.append(f"{line.text!r} is a letter alone on a line")
    drawn = [layout.status, *(line.text for line in layout.lines)]
    for score in screen.scores:
        if not any(printable(score) in text for text in drawn):
            found.append(f"the score {score!r} is not shown whole: {drawn}")
    if screen.prompt and not _prompt_shown(layout, drawn) and not _prompt_on_a_page(layout):
        # A line too long to stand whole above the prompt takes a page of its own; the
        # prompt is on the screen's other pages.
        found.append(f"the prompt {screen.prompt!r} is not all shown: {drawn}")
    before_play = screen.header.startswith("Markers") or screen.header == "Set-up"
    if (
        len(screen.scores) != players
        and not before_play
        and screen.header
        not in (
            "Board offline",
            "Disk full",
        )
    ):
        found.append(f"{len(screen.scores)} scores for {players} players: {screen.scores}")
    found += _unpaged(screen, layout)
    return found


def _prompt_shown(layout: LaidOut, drawn: list[str]) -> bool:
    words = " ".join([*drawn, layout.header])
    return all(w in words for w in printable(layout.screen.prompt).split())


def _prompt_on_a_page(layout: LaidOut) -> bool:
    for n in range(layout.pages):
        page = lay_out(layout.screen, layout.size, n * PAGE_S)
        if _prompt_shown(page, [page.status, *(line.text for line in page.lines)]):
            return True
    return False


def _pages(layout: LaidOut) -> list[str]:
    """Each page's lines, joined without spaces (so that wrapping does not count)."""
    return [
        "".join(
            line.text for line in lay_out(layout.screen, layout.size, n * PAGE_S).lines
        ).replace(" ", "")
        for n in range(layout.pages)
    ]


def _whole(text: str) -> str:
    return printable(text).replace(KEEP, "").replace(" ", "").replace("\n", "")


def cut_between_pages(layout: LaidOut, seen: Seen) -> list[str]:
    """Lines of the screen no page shows whole, and a refusal's reason cut in two."""
    pages = _pages(layout)
    found = [
        f"{line!r} is cut between pages: {pages}"
        for line in layout.screen.lines
        if line and not any(_whole(line) in page for page in pages)
    ]
    shown = " ".join(layout.screen.lines).lower()
    reason = seen.reason.lower()
    refused = bool(reason) and "no:" in shown and reason[:12] in shown
    if refused and not any(_whole(reason).lower() in page.lower() for page in pages):
        found.append(f"the reason {seen.reason!r} is on no page whole: {pages}")
    return found


def wrong_scores(layout: LaidOut, seen: Seen) -> list[str]:
    """Scores on the screen that are not the game's (the seat's label aside)."""
    shown = layout.screen.scores
    if len(shown) != len(seen.scores):
        return []
    found = []
    for item, score in zip(shown, seen.scores, strict=True):
        numbers = re.findall(r"-?\d+", re.sub(r"\bP\d+ ", "", item))
        if numbers != [str(score)]:
            found.append(f"the score {item!r} is not the game's {score}")
    return found


def _unpaged(screen: Screen, layout: LaidOut) -> list[str]:
    """Words of the screen that no page shows."""
    seen = layout.header + layout.status
    for page in range(layout.pages):
        shown = lay_out(screen, layout.size, page * PAGE_S)
        seen += "".join(line.text for line in shown.lines).replace(" ", "")
    texts = [screen.header, screen.status, *screen.lines, screen.prompt, *screen.scores]
    words = {w for text in texts for w in printable(text).split()}
    return [f"{w!r} is on no page" for w in sorted(words) if w not in seen]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_frame_fits_the_screen_and_shows_every_score(
    game: str, players: int, tmp_path: Path
) -> None:
    checked = 0
    for seed in range(1, SEEDS + 1):
        recorder, moves = play(game, players, seed, tmp_path / f"{game}-{players}-{seed}.sqlite")
        frames = recorder.frames
        assert moves > 0 and frames, f"seed {seed}: the game was played and drawn"
        for n, (layout, seen) in enumerate(zip(frames, recorder.seen, strict=True), 1):
            found = problems(layout, players)
            found += cut_between_pages(layout, seen) + wrong_scores(layout, seen)
            assert not found, f"{game}, {players} players, seed {seed}, frame {n}: {found}"
        checked += len(frames)
    assert checked >= SEEDS * 10, "whole games were drawn"
