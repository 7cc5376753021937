"""The web view of a simulated game of each game, in real headless Chromium."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.kits import find_kit
from games.errors import GameError
from games.registry import GAMES
from tests.spectate.tools import chromium, free_port, get_json, stop, tabletop, wait_for_port

SHOTS = os.environ.get("TABLETOP_SCREENSHOTS")
"""A folder to save each game's page as a PNG in (the README's screenshots)."""


SNAPSHOT = """
const q = s => Array.from(document.querySelectorAll(s));
const svg = document.querySelector('#board svg.board');
const last = document.querySelector('#panel .last');
return {
  game: svg && svg.dataset.game,
  cells: q('#board .cell').length,
  pieces: q('#board .piece').length,
  seats: q('#panel table.scores tr').map(r => r.dataset.seat),
  scores: q('#panel td.score').map(td => td.textContent),
  moves: q('#moves li').length,
  last: last && last.textContent,
  version: Number(document.body.dataset.version),
};
"""


def _save_small(png: bytes, path: Path) -> None:
    """A screenshot in few colours, small enough to keep in the repository."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=48).save(path, optimize=True)


def _watchable() -> list[str]:
    names = []
    for game in GAMES:
        try:
            find_kit(game.name)
        except GameError:
            continue
        names.append(game.name)
    return names


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


def _wait(what: str, check: Any, timeout: float = 20.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.parametrize("game", _watchable())
def test_page_shows_the_game_and_follows_moves_without_reload(
    browser: Any, game: str, tmp_path: Path
) -> None:
    port = free_port()
    proc = tabletop(
        "sim",
        "--game",
        game,
        "--seed",
        "3",
        "--serve",
        f"127.0.0.1:{port}",
        "--realtime",
        "0.8",
        "--journal",
        str(tmp_path / "j.sqlite"),
    )
    try:
        wait_for_port(port, 30, proc)
        base = f"http://127.0.0.1:{port}"
        # Let a few moves be played so the board is worth a picture.
        _wait("three moves", lambda: get_json(base + "/state.json")["moves_played"] >= 3)
        browser.get(base + "/")
        browser.execute_script("window.sameLoad = 'yes';")
        # Read the page in one go: the event stream may replace its parts at any time.
        page = browser.execute_script(SNAPSHOT)
        assert page["game"] == game
        assert page["cells"] > 0
        assert page["pieces"] > 0 or game == "doubles-wild"
        state = get_json(base + "/state.json")
        assert page["seats"] == list(state["scores"])
        assert len(page["scores"]) == len(state["scores"])
        assert page["moves"] >= 3
        # The next move arrives by the event stream: the same page shows it.
        later = _wait(
            "the next move on the page",
            lambda: (p := browser.execute_script(SNAPSHOT))["moves"] > page["moves"] and p,
        )
        assert browser.execute_script("return window.sameLoad") == "yes"
        assert later["version"] > page["version"]
        assert later["last"] != page["last"]
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            _save_small(browser.get_screenshot_as_png(), Path(SHOTS) / f"view-{game}.png")
    finally:
        stop(proc)
