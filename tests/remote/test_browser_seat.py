"""A browser seat: a real Chromium plays one seat of a game hosted by a real ``tabletop
sim`` process, through a real Mosquitto and a real ``tabletop seat`` process, tapping
the board drawn as the spectators see it; the host's journal ends with the whole game.

The player at the browser plays as the game's computer player would (it is asked for
each move on a copy of the game), and says each move only by what a person would
tap: a piece and where it goes, a rack tile and its square, the dice's buttons.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.kits import find_kit
from firmware_bridge.spectate.project import describe
from games.core import Action, Game
from tests.remote.test_two_boards import _export
from tests.spectate.tools import chromium, free_port, mosquitto, stop, tabletop, wait_for_port

WAIT_S = 60.0


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


class Table:
    """A host board, a seat server, and the seat's link."""

    def __init__(self, tmp: Path, broker_url: str, game: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.tokens = tmp / "carol.token"
        self.journal = tmp / "bob.sqlite"
        self.port = free_port()
        self.host = tabletop(
            "sim", "--game", game, "--host-remote", "2=carol", "--broker", broker_url,
            "--board-name", "bob", "--journal", str(self.journal), env=env,
        )  # fmt: skip
        self.broker_url = broker_url
        self.game = game
        self.start_seat()

    def start_seat(self) -> None:
        """Start the seat's server (again): the link is the one its token file keeps."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.seat = tabletop(
            "seat", "--join", "bob", "--broker", self.broker_url, "--board-name", "carol",
            "--listen", f"127.0.0.1:{self.port}", "--tokens", str(self.tokens), env=env,
        )  # fmt: skip
        assert self.seat.stdout is not None
        first = self.seat.stdout.readline()
        assert f"carol's seat in bob's {self.game} game" in first, self._errors()
        self.link = self.seat.stdout.readline().strip()
        assert self.link.startswith(f"http://127.0.0.1:{self.port}/seat/"), self._errors()
        wait_for_port(self.port, 20, self.seat)

    def _errors(self) -> str:
        stop(self.seat)
        assert self.seat.stderr is not None
        return self.seat.stderr.read()

    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = _get(self.link + "/game.json")
        return data

    def close(self) -> None:
        stop(self.seat)
        stop(self.host)


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium(900, 1500) as driver:
        yield driver


def _replayed(state: dict[str, Any]) -> Game:
    kit = find_kit(state["game"])
    game = kit.new_game(state["players"], random.Random(state["seed"]), state["options"])
    for data in state["moves"]:
        game.apply(game.decode(data))
    return game


def _choose(game: Game, turn: int) -> Action:
    kit = find_kit(game.name)
    return kit.make_player(game, random.Random(turn)).choose(game)


class Page:
    """The seat's page in the browser, and the taps a person would make on it."""

    def __init__(self, driver: Any, link: str) -> None:
        self.driver = driver
        self.link = link
        driver.get(link)

    def _after(self, act: Any) -> None:
        """Do ``act`` (it sends a form) and wait for the page it leads to."""
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(5):
            self.driver.execute_script("window.seatTestOld = true;")
            try:
                act()
            except StaleElementReferenceException:
                continue  # the page reloaded itself (the game changed) meanwhile
            end = time.monotonic() + 10
            while self.driver.execute_script(
                "return window.seatTestOld === true || document.readyState !== 'complete'"
            ):
                assert time.monotonic() < end, "the form led to no page"
                time.sleep(0.02)
            return
        raise AssertionError("the page kept reloading")

    def tap(self, cell: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        def act() -> None:
            el = self.driver.find_element(By.CSS_SELECTOR, f'#board rect.cell[data-cell="{cell}"]')
            self.driver.execute_script("arguments[0].scrollIntoView({block:'center'})", el)
            ActionChains(self.driver).move_to_element(el).click().perform()

        self._after(act)

    def press(self, label: str, where: str = "#seat") -> None:
        from selenium.webdriver.common.by import By

        def act() -> None:
            buttons = self.driver.find_elements(By.CSS_SELECTOR, f"{where} button")
            for button in buttons:
                if button.text.strip() == label and button.is_enabled():
                    button.click()
                    return
            shown = [b.text for b in buttons]
            raise AssertionError(f"no button {label!r} on the page; it has {shown}")

        self._after(act)

    def note(self) -> str:
        from selenium.webdriver.common.by import By

        notes = self.driver.find_elements(By.CSS_SELECTOR, "#seat .note")
        return str(notes[0].text) if notes else ""

    def rack_index(self, letter: str, used: set[int]) -> int:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By

        for _ in range(20):  # the page may redraw itself while it is read: read it again
            try:
                for button in self.driver.find_elements(By.CSS_SELECTOR, ".rack button[name=i]"):
                    index = int(button.get_attribute("value"))
                    if button.text.strip() == letter and index not in used:
                        return index
                break
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise AssertionError(f"no {letter} on the rack")

    def wait_mine(self, table: Table, timeout: float = WAIT_S) -> bool:
        """Wait until the page says it is the player's turn (True) or the game is over."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.common.by import By

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            state = table.state()
            if state["over"]:
                return False
            if state["mine"]:
                try:
                    body = self.driver.find_element(By.TAG_NAME, "body")
                    status = self.driver.find_element(By.CSS_SELECTOR, "#seat .status")
                    if (
                        body.get_attribute("data-version") == str(state["version"])
                        and status.get_attribute("data-mine") == "yes"
                    ):
                        return True
                except WebDriverException:
                    pass  # the page is reloading itself
            assert table.host.poll() is None or state["over"], "the host stopped mid-game"
            time.sleep(0.05)
        shown = self.driver.execute_script("return document.body.innerText.slice(0, 300)")
        raise AssertionError(f"the page never showed the player's turn: it shows {shown!r}")

    def make(self, game: Game, action: Action) -> None:
        """Say ``action`` on the page as a person would."""
        data = action.to_dict()
        kind = data["type"]
        if kind == "step":
            self.tap(data["frm"])
            self.tap(data["to"])
            if self.driver.find_elements("css selector", "#seat .actions button[value^=choice]"):
                self.press(describe(data))
        elif kind in ("place", "attack") and "cell" in data:
            self.tap(data["cell"])
        elif kind == "place":
            used: set[int] = set()
            blanks = dict(map(tuple, data.get("blanks", [])))
            for cell, letter in data["tiles"]:
                index = self.rack_index(letter, used)
                used.add(index)
                self.press_value("i", str(index))
                self.tap(cell)
            for cell, letter in blanks.items():
                self.blank(cell, letter)
            self.press("Play these tiles")
        elif kind == "exchange":
            self.exchange(list(data["letters"]))
        elif kind == "keep":
            for index in data["dice"]:
                self.press_value("i", str(index), ".dice")
            self.press("Keep the picked dice")
        else:
            labels = {
                "roll": "Roll the dice",
                "battle-roll": "Roll the battle dice",
                "end-turn": "End the turn",
                "pass": "Pass",
                "reroll": f"Re-roll the {data.get('pair')} dice"
                if data.get("pair") != "both"
                else "Re-roll all four",
            }
            self.press(labels[kind])

    def press_value(self, name: str, value: str, where: str = "#seat") -> None:
        from selenium.webdriver.common.by import By

        def act() -> None:
            self.driver.find_element(
                By.CSS_SELECTOR, f'{where} button[name="{name}"][value="{value}"]'
            ).click()

        self._after(act)

    def blank(self, cell: str, letter: str) -> None:
        from selenium.webdriver.common.by import By

        def act() -> None:
            for form in self.driver.find_elements(By.CSS_SELECTOR, "#seat div.blank form"):
                if form.find_element(By.NAME, "cell").get_attribute("value") == cell:
                    form.find_element(By.NAME, "letter").send_keys(letter)
                    form.find_element(By.TAG_NAME, "button").click()
                    return
            raise AssertionError(f"no blank to name on {cell}: {self.note()!r}")

        self._after(act)

    def exchange(self, letters: list[str]) -> None:
        from selenium.webdriver.common.by import By

        def act() -> None:
            boxes = self.driver.find_elements(By.CSS_SELECTOR, "#seat div.exchange input[name=x]")
            want = list(letters)
            for box in boxes:
                letter = box.find_element(By.XPATH, "..").text.strip()
                if letter in want:
                    want.remove(letter)
                    box.click()
            assert not want, f"no {want} to tick"
            self.press_inline("Exchange the ticked tiles")

        self._after(act)

    def press_inline(self, label: str) -> None:
        from selenium.webdriver.common.by import By

        for button in self.driver.find_elements(By.CSS_SELECTOR, "#seat button"):
            if button.text.strip() == label:
                button.click()
                return
        raise AssertionError(f"no button {label!r}")


def _play_whole_game(table: Table, page: Page, moves: int | None = None) -> int:
    """Play the seat's every move on the page until the game ends (or ``moves`` of
    them); the seat's moves made."""
    made = 0
    while made != moves and page.wait_mine(table):
        state = table.state()
        game = _replayed(state)
        before = len(state["moves"])
        page.make(game, _choose(game, before))
        end = time.monotonic() + WAIT_S
        while len(table.state()["moves"]) <= before:
            assert not page.note() or "sent" in page.note(), page.note()
            assert time.monotonic() < end, f"move {before + 1} was never taken: {table.state()}"
            time.sleep(0.05)
        made += 1
    return made


@pytest.mark.slow
@pytest.mark.parametrize("game", ["double-take", "doubles-wild", "crosslet"])
def test_a_whole_game_with_a_browser_seat(tmp_path: Path, browser: Any, game: str) -> None:
    with mosquitto() as broker:
        table = Table(tmp_path, broker.url, game)
        try:
            page = Page(browser, table.link)
            made = _play_whole_game(table, page)
            host_out, host_err = table.host.communicate(timeout=120)
            final = table.state()
        finally:
            table.close()
    assert table.host.returncode == 0, host_err
    assert made > 3
    record = _export(table.journal)
    assert record["outcome"] is not None
    assert [m["action"] for m in record["moves"]] == final["moves"]
    assert "refused 0 messages" in host_err
    # The page shows the result as the host's transcript ends it.
    from selenium.webdriver.common.by import By

    result = browser.find_element(By.CSS_SELECTOR, "#panel .result").text
    assert result.split(":")[0] in host_out.splitlines()[-1]


@pytest.mark.slow
def test_the_seat_server_restarts_and_the_same_link_plays_on(tmp_path: Path, browser: Any) -> None:
    with mosquitto() as broker:
        table = Table(tmp_path, broker.url, "double-take")
        host_lines: list[str] = []
        assert table.host.stdout is not None
        host_stdout = table.host.stdout
        reader = threading.Thread(target=lambda: host_lines.extend(host_stdout), daemon=True)
        reader.start()
        try:
            page = Page(browser, table.link)
            assert _play_whole_game(table, page, moves=4) == 4
            link = table.link
            browser.execute_script("window.seatKept = true;")
            os.kill(table.seat.pid, signal.SIGKILL)  # the seat's computer loses its power
            table.seat.wait(10)
            end = time.monotonic() + WAIT_S
            while not any("waiting for carol's board" in line for line in host_lines):
                assert time.monotonic() < end, f"the host never waited for carol: {host_lines}"
                time.sleep(0.05)
            played = len(host_lines)
            time.sleep(1.0)
            assert len(host_lines) == played  # nothing is played while the seat is gone
            table.start_seat()
            assert table.link == link  # the token file keeps the link
            # The page the phone shows draws itself again (never left for an error
            # page while the server was away: the same window, not reloaded).
            assert page.wait_mine(table)
            assert browser.execute_script("return window.seatKept === true")
            made = _play_whole_game(table, page)
            table.host.wait(120)
            reader.join(10)
            final = table.state()
        finally:
            table.close()
    assert table.host.returncode == 0
    assert made > 3
    assert any("back: the game goes on" in line for line in host_lines[played:])
    record = _export(table.journal)
    assert record["outcome"] is not None
    assert [m["action"] for m in record["moves"]] == final["moves"]


def test_a_refused_tap_says_the_rules_reason_and_a_revoked_link_opens_nothing(
    tmp_path: Path, browser: Any
) -> None:
    with mosquitto() as broker:
        table = Table(tmp_path, broker.url, "double-take")
        try:
            page = Page(browser, table.link)
            assert page.wait_mine(table)
            game = _replayed(table.state())
            # A piece of the seat's, tapped, then an empty square it may not go to.
            from games.double_take.game import DoubleTake, Step

            assert isinstance(game, DoubleTake)
            frm = game.legal_steps()[0].frm
            layout = game.layout()
            legal = {(s.frm, s.to) for s in game.legal_steps()}
            far = next(c for c in game.cells() if c not in layout and (frm, c) not in legal)
            reason = game.judge(Step(frm, far, game.sandwiched(frm, far))).reason
            assert reason
            page.tap(frm)
            page.tap(far)
            assert page.note() == reason
            assert len(table.state()["moves"]) == len(game.history)  # nothing was sent
            # The host revokes the link: the page, its forms and its data answer 403.
            done = subprocess.run(
                [*_cli(), "seat", "--revoke", "--tokens", str(table.tokens)],
                capture_output=True, text=True, timeout=60, check=True,
            )  # fmt: skip
            assert "revoked" in done.stdout
            assert _status(table.link) == 403
            assert _status(table.link + "/game.json") == 403
            browser.get(table.link)
            assert "not valid" in browser.find_element("css selector", "body").text
        finally:
            table.close()


def _cli() -> list[str]:
    import sys

    return [sys.executable, "-m", "firmware_bridge.apps.cli"]
