"""A browser seat in the games of hidden pieces: a real Chromium plays one seat of a
Dominoes game, and of a DoubleCross game, hosted by a real ``tabletop sim`` process,
through a real Mosquitto and a real ``tabletop seat`` process; the host's journal
ends with the whole game, and the page and every JSON the seat serves hold the seat's
own hand or rack only: never the host's, nor the seed, nor the boneyard's or bag's
order; the seat's server killed mid-game and started again takes the game up.

The player at the browser plays as the game's computer player would, asked on the
real game (the test knows the seed it gave the host; the seat never does), and says
each move only by taps: a domino of the hand and its two squares, a rack tile or a
tray's bomb and its square, the buttons.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.remote.privacy import HIDDEN
from games.core import Action, Game
from tests.remote.test_browser_seat import WAIT_S, Page, Table, browser
from tests.remote.test_browser_seat_hidden import next_drawn
from tests.remote.test_two_boards import _export
from tests.spectate.tools import free_port, mosquitto, tabletop

__all__ = ["browser"]  # the fixture

SEED = 48213907
"""The seed that deals the host's game: a number no page could hold by chance."""


class HiddenTable(Table):
    """A host board dealing its game from :data:`SEED`, and the seat's server."""

    def __init__(self, tmp: Path, broker_url: str, game: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.tokens = tmp / "carol.token"
        self.journal = tmp / "bob.sqlite"
        self.port = free_port()
        self.host = tabletop(
            "sim", "--game", game, "--seed", str(SEED), "--host-remote", "2=carol",
            "--broker", broker_url, "--board-name", "bob", "--journal", str(self.journal),
            env=env,
        )  # fmt: skip
        self.broker_url = broker_url
        self.game = game
        self.start_seat()


def _real(state: dict[str, Any]) -> Game:
    """The host's game as it is: dealt from the seed the test gave it."""
    kit = find_kit(state["game"])
    game = kit.new_game(state["players"], random.Random(SEED), state["options"])
    for data in state["moves"]:
        game.apply(game.decode(data))
    return game


def _choose(game: Game, turn: int) -> Action:
    return find_kit(game.name).make_player(game, random.Random(turn)).choose(game)


def _text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return str(r.read().decode())


class HiddenPage(Page):
    def pieces(self) -> list[tuple[int, str]]:
        """The seat's hand or rack on the page: each button's index and label."""
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By

        for _ in range(20):  # the page may redraw itself while it is read: read it again
            try:
                buttons = self.driver.find_elements(By.CSS_SELECTOR, ".rack button[name=i]")
                return [(int(b.get_attribute("value")), b.text.strip()) for b in buttons]
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise AssertionError("the page kept redrawing its hand")

    def pick(self, *labels: str) -> None:
        for index, label in self.pieces():
            if label in labels:
                self.press_value("i", str(index))
                return
        raise AssertionError(f"none of {labels} in the hand: {self.pieces()}")

    def make(self, game: Game, action: Action) -> None:
        data = action.to_dict()
        kind = data["type"]
        if kind in ("place", "discard") and game.name == "dominoes":
            a, b = (
                (data["domino_a"], data["domino_b"]) if kind == "place" else (data["a"], data["b"])
            )
            self.pick(f"{a}-{b}", f"{b}-{a}")
            if kind == "discard":
                self.press("Put the picked domino in the pit")
                return
            self.tap(data["cell_a"])
            self.tap(data["cell_b"])
            if self.driver.find_elements("css selector", "#seat .actions button[value^=choice]"):
                self.press(f"{a} on {data['cell_a']}, {b} on {data['cell_b']}")
        elif kind == "place":
            self.pick(data["letter"])
            self.tap(data["cell"])
        elif kind == "bomb":
            self.pick(f"{data['kind']} bomb")
            self.tap(data["cell"])
        else:
            labels = {
                "draw": "Draw a domino",
                "end-turn": "End the turn",
                "end-game": "End the game",
                "undo": "Take the last tile back",
                "new-letters": "New letters",
                "pass": "Pass",
            }
            self.press(labels[kind])


def _check_private(table: Table, page: HiddenPage, game: Any) -> None:
    """What the seat serves holds its own pieces only: the page as the browser shows
    it and as it is served, ``game.json`` and ``changes``."""
    hidden = HIDDEN[game.name]
    data: dict[str, Any] = json.loads(_text(table.link + "/game.json"))
    served = _text(table.link)
    changes = _text(table.link + f"/changes?v={data['version'] - 1}")
    shown = page.driver.page_source
    everything = "\n".join([json.dumps(data), served, changes, shown])
    assert str(SEED) not in everything and "seed" not in data
    assert data[f"{hidden.what}s"] == [len(hidden.pieces(game, 0)), hidden.pieces(game, 1)]
    rack = re.search(r'aria-label="your rack">(.*?)</div>', served)
    labels = re.findall(r"<button[^>]*>([^<]*)</button>", rack.group(1)) if rack else []
    if game.name == "dominoes":
        assert sorted(labels) == sorted(hidden.pieces(game, 1))
    else:
        assert labels == [*game.rack(1), *(f"{k} bomb" for k in game.tray(1))]
    assert not any(text in everything for text in next_drawn(game))


def _play_whole_game(
    table: Table, page: HiddenPage, moves: int | None = None
) -> tuple[int, set[str]]:
    """Play the seat's moves on the page until the game ends (or ``moves`` of them),
    checking before each what the seat serves; the moves made, and their kinds."""
    made, kinds = 0, set()
    while made != moves and page.wait_mine(table):
        state = table.state()
        game = _real(state)
        _check_private(table, page, game)
        before = len(state["moves"])
        action = _choose(game, before)
        kinds.add(action.to_dict()["type"])
        page.make(game, action)
        end = time.monotonic() + WAIT_S
        while len(table.state()["moves"]) <= before:
            assert not page.note() or "sent" in page.note(), page.note()
            assert time.monotonic() < end, f"move {before + 1} was never taken: {table.state()}"
            time.sleep(0.05)
        made += 1
    return made, kinds


@pytest.mark.slow
@pytest.mark.parametrize("game", ["dominoes", "doublecross"])
def test_a_whole_game_of_hidden_pieces_with_a_browser_seat(
    tmp_path: Path, browser: Any, game: str
) -> None:
    with mosquitto() as broker:
        table = HiddenTable(tmp_path, broker.url, game)
        try:
            page = HiddenPage(browser, table.link)
            started = time.monotonic()
            made, kinds = _play_whole_game(table, page)
            host_out, host_err = table.host.communicate(timeout=120)
            took = time.monotonic() - started
            final = table.state()
        finally:
            table.close()
    assert table.host.returncode == 0, host_err
    record = _export(table.journal)
    print(f"{game}: {len(record['moves'])} moves, {made} at the page {sorted(kinds)}, {took:.0f} s")
    assert made > 5
    assert record["outcome"] is not None and record["seed"] == SEED
    assert [m["action"] for m in record["moves"]] == final["moves"]
    assert "refused 0 messages" in host_err
    assert "seed" not in final  # also once it is over
    from selenium.webdriver.common.by import By

    result = browser.find_element(By.CSS_SELECTOR, "#panel .result").text
    assert result.split(":")[0] in host_out.splitlines()[-1]


@pytest.mark.slow
def test_the_seat_server_of_a_hidden_game_restarts_and_takes_the_game_up(
    tmp_path: Path, browser: Any
) -> None:
    with mosquitto() as broker:
        table = HiddenTable(tmp_path, broker.url, "dominoes")
        try:
            page = HiddenPage(browser, table.link)
            first, _ = _play_whole_game(table, page, moves=4)
            assert first == 4
            played = len(table.state()["moves"])
            link = table.link
            browser.execute_script("window.seatKept = true;")
            os.kill(table.seat.pid, signal.SIGKILL)  # the seat's computer loses its power
            table.seat.wait(10)
            table.start_seat()  # dealt again from the host's views, the moves replayed
            assert table.link == link
            assert page.wait_mine(table)
            assert browser.execute_script("return window.seatKept === true")  # not reloaded
            assert len(table.state()["moves"]) >= played
            rest, _ = _play_whole_game(table, page)
            table.host.wait(120)
            final = table.state()
        finally:
            table.close()
    assert table.host.returncode == 0
    assert rest > 3
    record = _export(table.journal)
    print(f"dominoes: {len(record['moves'])} moves, the seat killed after move {played}")
    assert record["outcome"] is not None
    assert [m["action"] for m in record["moves"]] == final["moves"]
