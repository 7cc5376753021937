"""Each computer seat's level, from the journal's seats entry, on the spectators' views:
the web view's scores, the hub's card, the board picture's title, and the hub's schema."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.journal import Journal
from firmware_bridge.kits import find_kit
from firmware_bridge.spectate import schema
from firmware_bridge.spectate.club import Club
from firmware_bridge.spectate.errors import MessageRefused
from firmware_bridge.spectate.follow import Follower
from firmware_bridge.spectate.geometry import geometry
from firmware_bridge.spectate.page import card_html, parts
from firmware_bridge.spectate.project import view


def _followed(tmp_path: Path, seats: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "t")
        journal.append(game_id, "seats", seats)
    follower = Follower(path, "t")
    try:
        follower.poll()
        shown = follower.view()
    finally:
        follower.close()
    assert shown is not None
    return shown


def test_the_followed_view_names_each_computer_seat_with_its_level(tmp_path: Path) -> None:
    shown = _followed(tmp_path, {"computer": [0, 1], "levels": {"0": 3}})
    first, second = shown["seats"]
    assert shown["computer"] == {first: "expert", second: "standard"}
    schema.check_state(shown)
    geo = geometry(find_kit("double-take").new_game(2, random.Random(1), {}))
    now = parts(shown, geo, [])
    assert f"{first}: computer (expert)" in now["panel"]
    assert f"{second}: computer (standard)" in now["panel"]
    assert (
        f"<title>{first}: computer (expert), {second}: computer (standard)</title>"
        in (now["board"])
    )
    card = card_html("t", shown, geo, "/t")
    assert f"{first}: computer (expert)" in card


def test_a_game_of_people_names_no_computer(tmp_path: Path) -> None:
    shown = _followed(tmp_path, {"computer": []})
    assert shown["computer"] == {}
    geo = geometry(find_kit("double-take").new_game(2, random.Random(1), {}))
    now = parts(shown, geo, [])
    assert "computer (" not in now["panel"] + now["board"]


@pytest.mark.parametrize(
    ("computer", "reason"),
    [
        ({"nobody": "expert"}, "is not one of its seats"),
        ({"SEAT": "grandmaster"}, "is not one of beginner, standard, expert"),
        ({"SEAT": 3}, "is not one of beginner, standard, expert"),
        (["SEAT"], "computer seats"),
    ],
)
def test_the_hub_refuses_a_computer_level_outside_the_schema(computer: Any, reason: str) -> None:
    game = find_kit("double-take").new_game(2, random.Random(3), {})
    state = view(game, 1, [], None, "t")
    seat = state["seats"][0]
    if isinstance(computer, dict):
        computer = {seat if k == "SEAT" else k: v for k, v in computer.items()}
    else:
        computer = [seat]
    bad = {**state, "computer": computer}
    with pytest.raises(MessageRefused, match=reason):
        schema.check_state(bad)
    club = Club()
    geo = {"journal_game": 1, "geometry": geometry(game)}
    assert club.take("tabletop/t/board", json.dumps(geo).encode()) == "t"
    assert club.take("tabletop/t/state", json.dumps(bad).encode()) is None
    assert (
        club.take("tabletop/t/state", json.dumps({**state, "computer": {seat: "expert"}}).encode())
        == "t"
    )
