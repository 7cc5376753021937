from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from games.errors import BadSettings, UnknownGame
from games.lexicon import Lexicon
from games.registry import GAMES, Listed, find_game, find_listed, game_names


@pytest.mark.parametrize("listed", GAMES, ids=[g.name for g in GAMES])
def test_the_list_agrees_with_each_game_class(listed: object) -> None:
    from games.registry import Listed

    assert isinstance(listed, Listed)
    game = listed.load()
    assert (game.name, game.title, game.min_players, game.max_players) == (
        listed.name,
        listed.title,
        listed.min_players,
        listed.max_players,
    )
    assert find_game(listed.name) is game
    assert game.about is listed.about, "the class takes what it is from its package"


@pytest.mark.parametrize("listed", GAMES, ids=[g.name for g in GAMES])
def test_a_games_option_ranges_are_its_abouts(listed: Listed) -> None:
    """The rules refuse a number option out of its declared range in the table's words."""
    game = listed.load()
    words = {"lexicon": Lexicon.build(["cat", "dog"])} if listed.name == "doublecross" else {}
    for spec in listed.about.options:
        if spec.kind != "number" or spec.seat:
            continue
        low = (spec.lo or 0) - 1
        with pytest.raises(BadSettings, match=f"{spec.name} must be a whole number.*not {low}"):
            game(listed.min_players, random.Random(1), {spec.name: low}, **words)


def test_names_are_unique_and_in_list_order() -> None:
    assert game_names() == [g.name for g in GAMES]
    assert len(set(game_names())) == len(GAMES)


def test_unknown_name_suggests_the_nearest() -> None:
    with pytest.raises(UnknownGame, match=r"no game called 'dominos'.*did you mean 'dominoes'"):
        find_listed("dominos")


# Run in a fresh interpreter: what the command line and a listing of the games load.
PROBE = """
import json, sys
import firmware_bridge.apps.cli as cli
from games.registry import GAMES
cli.build_parser()
listing = [(g.name, g.title, g.min_players, g.max_players) for g in GAMES]
print(json.dumps(sorted(sys.modules)))
"""


def test_the_command_line_and_the_game_list_load_no_engine_and_no_device_library() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    engines = {f"games.{g.package}.game" for g in GAMES}
    assert not loaded & engines
    assert {f"games.{g.package}" for g in GAMES} <= loaded, "the list reads each ABOUT"
    heavy = {m for m in loaded if m.split(".")[0] in ("gpiozero", "luma", "PIL", "sqlite3")}
    assert heavy == set()
    assert "firmware_bridge.apps.cli" in loaded
