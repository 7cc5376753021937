"""Through a real Mosquitto: Bob's start menu gives green to Ann's board, on line at
its own menu; Ann's menu offers the invitation and accepts it, and the whole game is
played board to board as ``--host-remote`` and ``--join`` play it (the two boards in
this process, each on its own thread); both journals end with the same game. A
refused invitation is said on Bob's menu, and no game is journaled there."""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import threading
from pathlib import Path

import pytest

from firmware_bridge.apps.remote_menu import host_chosen, join_accepted
from firmware_bridge.journal import Journal
from firmware_bridge.remote.menu_link import MenuLink
from firmware_bridge.runtime.lobby import Lobby
from firmware_bridge.screen.layout import lay_out
from firmware_bridge.spectate.broker_config import REMOTE
from firmware_bridge.spectate.mqtt import BrokerSettings, club_settings
from games.registry import find_listed
from tests.remote.test_acl import Login, club_broker
from tests.remote.test_invites import (
    DOUBLE_TAKE,
    _choose,
    _wait_offer,
    accept,
    press,
    refuse,
)
from tests.remote.test_two_boards import _export
from tests.spectate.tools import mosquitto, stop, tabletop

OLED = (128, 64)


def _args(journal: Path) -> argparse.Namespace:
    return argparse.Namespace(journal=journal, json=False, profile=None, seed=1)


def _menus(url: str) -> tuple[BrokerSettings, MenuLink, Lobby, MenuLink, Lobby]:
    settings = BrokerSettings.from_url(url)
    bob, ann = MenuLink(settings, "bob"), MenuLink(settings, "ann")
    bob.start()
    ann.start()
    bob_lobby, ann_lobby = Lobby([DOUBLE_TAKE]), Lobby([DOUBLE_TAKE])
    for _ in range(100):  # the retained presences, and each other's as they come
        bob.pump(bob_lobby, 0.1)
        ann.pump(ann_lobby, 0.1)
        if bob_lobby.online == ["ann"] and ann_lobby.online == ["bob"]:
            break
    assert bob_lobby.online == ["ann"] and ann_lobby.online == ["bob"]
    return settings, bob, bob_lobby, ann, ann_lobby


def _oled(lobby: Lobby) -> str:
    return " ".join(lay_out(lobby.screen(), OLED, 0.0).text())


def test_invited_at_the_menu_the_boards_play_a_whole_game(tmp_path: Path) -> None:
    with mosquitto() as running:
        settings, bob, bob_lobby, ann, ann_lobby = _menus(running.url)
        _choose(bob_lobby)
        host_out, host_said = io.StringIO(), []
        bob_journal, ann_journal = tmp_path / "bob.sqlite", tmp_path / "ann.sqlite"

        def host() -> None:
            host_said.append(host_chosen(bob, bob_lobby, _args(bob_journal), host_out, settings))

        thread = threading.Thread(target=host)
        thread.start()
        try:
            _wait_offer(ann, ann_lobby)
            assert "join: Double Take from bob's board, seat 2" in _oled(ann_lobby)
            invite = accept(ann, ann_lobby)
            guest_out = io.StringIO()
            said = join_accepted(ann, invite, _args(ann_journal), guest_out, settings)
        finally:
            thread.join(300)
        assert not thread.is_alive()
        assert said == 0 and host_said == [0]
        host_lines, guest_lines = (
            host_out.getvalue().splitlines(),
            guest_out.getvalue().splitlines(),
        )
        assert host_lines[0] == guest_lines[0] == "Double Take, seed 1: red (bob) vs green (ann)"
        assert host_lines[-1] == guest_lines[-1]  # the same end, said at both boards
        assert host_lines[-1].startswith(("Draw:", "Red wins", "Green wins"))
    with Journal(bob_journal, read_only=True) as kept:
        record = kept.newest()
        assert record is not None and record.finished is not None
        moves = len(kept.entries(record.id))
    assert moves > 10
    assert _export(bob_journal) == _export(ann_journal)


def test_a_refused_invitation_is_said_on_the_hosts_oled(tmp_path: Path) -> None:
    with mosquitto() as running:
        settings, bob, bob_lobby, ann, ann_lobby = _menus(running.url)
        try:
            _choose(bob_lobby)
            said: list[int | None] = []
            journal = tmp_path / "bob.sqlite"
            thread = threading.Thread(
                target=lambda: said.append(
                    host_chosen(bob, bob_lobby, _args(journal), io.StringIO(), settings)
                )
            )
            thread.start()
            try:
                _wait_offer(ann, ann_lobby)
                refuse(ann, ann_lobby)
            finally:
                thread.join(60)
            assert said == [None]
            shown = _oled(bob_lobby)
            assert "Cannot start" in shown and "ann's board refused the invitation" in shown
            assert bob_lobby.chosen is None and bob_lobby.stage == "ready"
            assert not journal.exists()  # no game was dealt
        finally:
            bob.stop()
            ann.stop()


def test_on_the_clubs_broker_each_board_invites_and_answers_within_its_acl() -> None:
    """``tabletop club init``'s ACL: each menu logs in as the board's game link does
    (its ``.remote`` login); the boards see each other on line, Bob's invitation
    reaches Ann and her answer Bob; Carol, a board of the club not invited, hears
    neither."""
    with club_broker() as club:

        def login(board: str) -> BrokerSettings:
            return club_settings(club.config(f"{board}.remote"), None, board, None).broker

        carol = Login(club.port, "carol", club.password("carol"), [f"{REMOTE}/#"])
        bob, ann = MenuLink(login("bob"), "bob"), MenuLink(login("ann"), "ann")
        bob.start()
        ann.start()
        try:
            bob_lobby, ann_lobby = Lobby([DOUBLE_TAKE]), Lobby([DOUBLE_TAKE])
            for _ in range(100):
                bob.pump(bob_lobby, 0.1)
                ann.pump(ann_lobby, 0.1)
                if bob_lobby.online == ["ann"] and ann_lobby.online == ["bob"]:
                    break
            assert bob_lobby.online == ["ann"] and ann_lobby.online == ["bob"]
            said: list[str | None] = []
            thread = threading.Thread(
                target=lambda: said.append(bob.invite("double-take", ["bob", "ann"], wait_s=30))
            )
            thread.start()
            try:
                _wait_offer(ann, ann_lobby)
                assert accept(ann, ann_lobby).host == "bob"
            finally:
                thread.join(60)
            assert said == [None]
            assert bob.refused == [] and ann.refused == []
            heard = carol.topics_heard()
            assert f"{REMOTE}/bob/to/ann" not in heard and f"{REMOTE}/bob/from/ann" not in heard
            assert f"{REMOTE}/ann/presence/ann" in heard  # who is on line is the club's
        finally:
            bob.stop()
            ann.stop()
            carol.close()


def _invited(url: str, journal: Path) -> subprocess.Popen[str]:
    """Ann's board on line at its start menu (``tabletop sim --invited``), once it says so."""
    ann = tabletop(
        "sim", "--invited", "--broker", url, "--board-name", "ann", "--journal", str(journal),
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert ann.stderr is not None
    line = ann.stderr.readline()
    assert "waiting at the start menu for an invitation" in line, line
    return ann


@pytest.mark.parametrize("game", ["crosslet", "dominoes"])
def test_two_tabletop_sims_invite_and_join_and_play_a_whole_game(tmp_path: Path, game: str) -> None:
    """``tabletop sim --invited`` waits at its menu; ``--invite 2=ann`` asks it, it
    accepts, and the two processes play the game through a real Mosquitto."""
    with mosquitto() as running:
        ann = _invited(running.url, tmp_path / "ann.sqlite")
        bob = tabletop(
            "sim", "--game", game, "--invite", "2=ann", "--broker", running.url,
            "--board-name", "bob", "--journal", str(tmp_path / "bob.sqlite"),
        )  # fmt: skip
        try:
            bob_out, bob_err = bob.communicate(timeout=240)
            ann_out, ann_err = ann.communicate(timeout=60)
        finally:
            stop(bob)
            stop(ann)
    assert bob.returncode == 0, bob_err
    assert ann.returncode == 0, ann_err
    title = find_listed(game).title
    assert f"join: {title} from bob's board, seat 2: accepted" in ann_err
    assert bob_out.splitlines()[-1] == ann_out.splitlines()[-1]  # the same result line
    assert "refused 0 messages" in bob_err and "refused 0 messages" in ann_err
    assert _export(tmp_path / "bob.sqlite") == _export(tmp_path / "ann.sqlite")


def test_a_game_invited_to_a_board_not_on_line_does_not_start(tmp_path: Path) -> None:
    with mosquitto() as running:
        bob = tabletop(
            "sim", "--game", "double-take", "--invite", "2=ann", "--broker", running.url,
            "--board-name", "bob", "--journal", str(tmp_path / "bob.sqlite"),
        )  # fmt: skip
        try:
            _, bob_err = bob.communicate(timeout=60)
        finally:
            stop(bob)
    assert bob.returncode != 0
    assert "the game did not start: ann's board is not on line" in bob_err
    assert not (tmp_path / "bob.sqlite").exists()


def test_a_game_of_other_boards_only_is_not_hosted(tmp_path: Path) -> None:
    with mosquitto() as running:
        settings, bob, bob_lobby, ann, _ = _menus(running.url)
        try:
            press(bob_lobby, "ok")  # the seats page
            for seat in (0, 1):  # red, then green, to ann's board
                for _ in range(12):
                    if bob_lobby.remote.get(seat) == "ann":
                        break
                    press(bob_lobby, "right")
                press(bob_lobby, "ok")
            while bob_lobby.chosen is None:
                press(bob_lobby, "ok")
            assert bob_lobby.chosen is not None
            assert dict(bob_lobby.chosen.remote) == {0: "ann", 1: "ann"}
            journal = tmp_path / "bob.sqlite"
            assert host_chosen(bob, bob_lobby, _args(journal), io.StringIO(), settings) is None
            assert "every seat is another board's" in _oled(bob_lobby)
            assert not journal.exists() and not ann.invites
        finally:
            bob.stop()
            ann.stop()
