"""One kit per game: every game in the rules' list has one, every part of it resolves,
importing the kits loads none of the heavy parts, and a Crosslet game loads its move
generator only when asked."""

from __future__ import annotations

import json
import pkgutil
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest

from firmware_bridge import kits
from firmware_bridge.kits import KITS, Kit, find_kit, words
from firmware_bridge.kits.hand import Hand
from firmware_bridge.kits.options import check_options, options_of
from firmware_bridge.referees.facts import Facts
from firmware_bridge.referees.referee import Referee
from firmware_bridge.referees.view import View
from firmware_bridge.spectate.geometry import geometry
from games.core import Game, Player
from games.crosslet.game import Crosslet
from games.double_take import ABOUT
from games.errors import UnknownGame
from games.registry import GAMES, PACKAGES, find_listed
from wiring.loader import load_profile


def kit_folders() -> dict[str, Kit]:
    """Every ``KIT`` declared in a folder of ``firmware_bridge/kits/``, by folder."""
    found = {}
    for info in pkgutil.iter_modules(kits.__path__):
        if not info.ispkg:
            continue
        module = __import__(f"firmware_bridge.kits.{info.name}.kit", fromlist=["KIT"])
        kit = getattr(module, "KIT", None)
        if kit is not None:
            found[info.name] = kit
    return found


def test_every_listed_game_has_exactly_one_kit_and_every_kit_is_listed() -> None:
    declared = kit_folders()
    names = [kit.name for kit in declared.values()]
    assert sorted(names) == sorted(g.name for g in GAMES), "one kit folder per game"
    assert {name: kit.name for name, kit in KITS.items()} == {n: n for n in names}
    listed = sorted(id(kit) for kit in KITS.values())
    assert listed == sorted(id(kit) for kit in declared.values()), "a kit is left out of KITS"
    for folder, kit in declared.items():
        assert find_kit(kit.name) is kit
        assert kit.folder == folder, "a kit's folder is its game's package name"
        assert find_listed(kit.name).package == folder


@pytest.mark.parametrize("name", sorted(KITS))
def test_every_kit_folder_has_every_part(name: str) -> None:
    kit = KITS[name]
    assert kit.missing_parts() == [], f"{name}'s kit lacks parts"
    assert issubclass(kit.part("referee").REFEREE, Referee)
    assert issubclass(kit.part("view").VIEW, View)
    assert issubclass(kit.part("hand").HAND, Hand)
    assert callable(kit.part("turn").new_turn)
    assert kit.part("kit").KIT is kit


def test_a_kit_lacking_a_part_is_told_which(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sixth game's folder with its kit, referee and turn but no view or hand."""
    folder = tmp_path / "firmware_bridge" / "kits" / "double_take_six"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "referee.py").write_text("REFEREE = object\n")
    (folder / "turn.py").write_text("def new_turn(game, facts): return None\n")
    (folder / "view.py").write_text("SEEN = 1\n")
    (folder / "kit.py").write_text("KIT = None\n")
    monkeypatch.setattr(
        kits, "__path__", [*kits.__path__, str(tmp_path / "firmware_bridge" / "kits")]
    )
    six = msgspec.structs.replace(KITS["double-take"], about=replace(ABOUT, name="double-take-six"))
    assert six.missing_parts() == [
        "kits/double_take_six/view.py: no VIEW",
        "kits/double_take_six/hand.py: no such module (it defines HAND)",
    ]
    assert KITS["double-take"].missing_parts() == []


def test_an_unknown_game_is_told_the_games_and_the_nearest() -> None:
    with pytest.raises(UnknownGame, match="did you mean 'dominoes'") as told:
        find_kit("domino")
    assert "double-take" in str(told.value)


@pytest.mark.parametrize("name", sorted(KITS))
def test_every_part_of_a_kit_resolves(name: str) -> None:
    kit = KITS[name]
    assert kit.rules is find_listed(name).load()
    assert kit.rules.name == name
    game = kit.followed_game(2, random.Random(3), {})
    assert isinstance(game, kit.rules)
    facts = Facts()
    referee = kit.referee_for(game, facts)
    assert isinstance(referee, Referee) and referee.game is game
    assert type(referee) is kit.part("referee").REFEREE, "the kit finds its referee"
    view = kit.part("view").VIEW
    assert issubclass(view, View) and type(referee.view) is view, "the kit finds its view"
    # The kit makes the turn state, and hands the same one to the referee and the view.
    assert referee.view.turn is referee.turn and referee.turn is not None
    assert referee.view.game is game and referee.view.facts is facts
    alone = kit.view_for(game, Facts())
    assert type(alone) is view and type(alone.turn) is type(referee.turn)
    hand = kit.hand_for(referee)
    assert isinstance(hand, Hand) and type(hand) is kit.part("hand").HAND
    played = kit.new_game(2, random.Random(3), {})
    assert type(played) is type(game) and played.state_dict() == game.state_dict()
    assert isinstance(kit.make_player(played, random.Random(1)), Player)
    profile = load_profile(kit.default_profile)
    assert name in profile.games, f"{kit.default_profile} does not list {name}"


@pytest.mark.parametrize("name", sorted(KITS))
def test_a_kits_options_and_board_are_what_the_table_reads(name: str) -> None:
    kit = KITS[name]
    assert options_of(name) == kit.options
    assert len({spec.name for spec in kit.options}) == len(kit.options)
    check_options(name, kit.rules.title, {}, 2)  # no options: every default holds
    assert kit.word_game == any(spec.name == "words" for spec in kit.options)
    game: Game = kit.followed_game(2, random.Random(3), {})
    geo = geometry(game)
    assert set(geo["special"]) <= set(game.cells())
    assert bool(geo["special"]) == (kit.board.specials is not None)
    assert ("values" in geo) == (kit.board.values is not None)


def test_the_first_rank_of_an_upside_down_board_is_drawn_at_the_bottom() -> None:
    game = KITS["double-take"].followed_game(2, random.Random(1), {})
    geo = geometry(game)
    rank_one = [c for c in game.cells() if c.endswith("1") and not c.endswith("11")]
    assert rank_one and {geo["cells"][c][1] for c in rank_one} == {geo["rows"] - 1}


PROBE = """
import json, sys
import firmware_bridge.kits, firmware_bridge.kits.options, firmware_bridge.spectate.geometry
from firmware_bridge.kits import KITS
for kit in KITS.values():
    kit.options, kit.board, kit.word_game, kit.default_profile
print(json.dumps(sorted(sys.modules)))
"""


def test_the_kits_import_no_referee_view_hand_or_word_list() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout))
    parts = tuple(f"firmware_bridge.kits.{f}.{m}" for f in kits.FOLDERS for m in Kit.PARTS)
    heavy = {
        m
        for m in loaded
        if (
            m.startswith(("firmware_bridge.referees", "firmware_bridge.sim", *parts))
            and not m.endswith(".kit")
        )
        or m in {"firmware_bridge.kits.lexicon_store", "firmware_bridge.kits.hand"}
        or m in {"firmware_bridge.kits.dominoes.count", "games.crosslet.movegen", "games.lexicon"}
    }
    assert heavy == set()
    light = {"games.core", "games.errors", "games.options", "games.registry"} | {
        f"games.{p}" for p in PACKAGES
    }
    assert not {m for m in loaded if m.startswith("games.")} - light, (
        "no rules are imported before a game is made"
    )


def test_a_crosslet_game_loads_its_move_generator_when_first_asked_and_shares_it() -> None:
    words._generator.cache_clear()
    game = kits.find_kit("crosslet").new_game(2, random.Random(1), {})
    assert isinstance(game, Crosslet)
    assert words._generator.cache_info().currsize == 0, "loaded before anything asked"
    generator = game.generator
    assert words._generator.cache_info().currsize == 1
    assert game.generator is generator
    other = kits.find_kit("crosslet").new_game(3, random.Random(2), {})
    assert isinstance(other, Crosslet)
    assert other.generator is generator, "games of one word list share one generator"
    assert game.shortlist(), "the generator it loaded finds moves"
