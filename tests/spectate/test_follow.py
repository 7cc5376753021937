"""Following a journal read-only while a simulated table writes it, and the live file."""

from __future__ import annotations

import json
import logging
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from firmware_bridge import kits
from firmware_bridge.apps.export import export_game
from firmware_bridge.kits import KITS, JournaledWords, find_kit, lexicon_for, new_game
from firmware_bridge.referees.decisions import Played
from firmware_bridge.runtime.live import LiveFile, live_path, read_live
from firmware_bridge.screen.palette import FROM, LAST, TO
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line
from firmware_bridge.spectate.follow import Follower
from firmware_bridge.spectate.project import describe
from firmware_bridge.spectate.server import BoardView
from games.crosslet.game import Crosslet
from games.double_take.game import Step
from games.errors import GameError


def test_live_file_holds_the_latest_state_whole(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    live = LiveFile(journal, 4)
    live({"moves_played": 1, "oled": ["a"]})
    live({"moves_played": 2, "oled": ["b"]})
    assert live_path(journal) == tmp_path / "j.sqlite.live.json"
    assert read_live(journal) == (4, {"moves_played": 2, "oled": ["b"]})
    assert [p.name for p in tmp_path.iterdir()] == ["j.sqlite.live.json"]


def test_live_file_that_cannot_be_written_is_logged_once_and_play_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    live = LiveFile(tmp_path / "missing-folder" / "j.sqlite", 1)
    with caplog.at_level(logging.WARNING, logger="tabletop"):
        live({"moves_played": 1})
        live({"moves_played": 2})
    assert len(caplog.records) == 1
    assert "cannot write the live file" in caplog.records[0].getMessage()


def test_damaged_live_file_reads_as_none(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    live_path(journal).write_text("{not json", encoding="utf-8")
    assert read_live(journal) is None
    live_path(journal).write_text(json.dumps({"game_id": "x", "state": {}}), encoding="utf-8")
    assert read_live(journal) is None


def test_follower_keeps_up_move_by_move_and_agrees_with_export(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    sim = Simulation(SimOptions(game="double-take", seed=5, journal=journal))
    follower = Follower(journal)
    seen: list[tuple[int, int]] = []
    told: list[int] = []
    try:
        sim.listeners.append(LiveFile(journal, sim.session.game_id))

        def check(played: Played) -> None:
            follower.poll()
            state = follower.state()
            assert state is not None
            seen.append((state["moves_played"], len(sim.session.game.history)))
            if played.number == len(sim.session.game.history):
                # The live file is current: the follower shows the session's own state.
                # (Moves one event plays together, such as a move and the pass it
                # forces, are saved in one commit and told after it: the state is
                # the session's once the last of them is told.)
                assert state["oled"] == sim.session.state().oled
                told.append(played.number)

        sim.commits.append(check)
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    assert seen and all(a == b for a, b in seen)
    assert len(told) > len(seen) // 2
    follower.poll()
    record = follower.record()
    exported = export_game(journal)
    follower.close()
    assert record is not None
    assert record["scores"] == exported["scores"]
    assert [m["action"] for m in record["moves"]] == [m["action"] for m in exported["moves"]]
    assert [m["points"] for m in record["moves"]] == [m["points"] for m in exported["moves"]]
    assert record["result"] and record["result"].lower().startswith(("red", "green", "draw"))
    # The referee's own words for the moves, as the live file told them.
    assert all("-" in m["text"] for m in record["moves"] if m["action"]["type"] == "step")


def test_follower_without_a_journal_says_what_to_do(tmp_path: Path) -> None:
    follower = Follower(tmp_path / "none.sqlite")
    assert follower.poll()
    assert follower.error is not None and "no journal" in follower.error
    assert follower.view() is None
    assert not follower.poll()


def test_generic_description_of_actions() -> None:
    assert describe({"type": "step", "frm": "a1", "to": "b2", "captures": ["c3"]}) == "a1-b2 xc3"
    assert describe({"type": "place", "tiles": [["B8", "N"]], "blanks": []}) == "place B8N"
    assert describe({"type": "pass"}) == "pass"


# Run in a fresh interpreter: what the web view loads to serve a followed game.
WEB_PROBE = """
import json, sys
from pathlib import Path
import firmware_bridge.apps.cli as cli
from firmware_bridge.spectate.follow import Follower
from firmware_bridge.spectate.server import BoardView, web_app
from waitress.server import create_server
cli.build_parser()
board = BoardView(Follower(Path(sys.argv[1])))
web_app(board)
board.poll()
assert board.follower.record()["moves"], "the game was followed"
board.parts()
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("game", ["double-take", "crosslet"])
def test_the_web_view_loads_no_session_or_device_library(tmp_path: Path, game: str) -> None:
    journal = tmp_path / "j.sqlite"
    sim = Simulation(SimOptions(game=game, seed=2, journal=journal))
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    done = subprocess.run(
        [sys.executable, "-c", WEB_PROBE, str(journal)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout))
    # The game's own view words each move as the table did (its screens bring Pillow);
    # no device library, no session.
    heavy = {m for m in loaded if m.split(".")[0] in ("gpiozero", "luma")}
    assert heavy == set()
    ours = {m for m in loaded if m.startswith(("firmware_bridge.", "hardware."))}
    assert not ours & {"firmware_bridge.runtime.session", "firmware_bridge.apps.install"}
    # Crosslet is followed without its word list: the journal's words are trusted.
    assert "firmware_bridge.kits.lexicon_store" not in ours
    assert "importlib.metadata" not in loaded
    # No event loop, and so no OpenSSL: the server is threaded.
    assert not {"asyncio", "ssl"} & loaded


@pytest.mark.parametrize("seed", [2, 9])
def test_crosslet_followed_on_trust_shows_what_the_word_list_would(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = tmp_path / "j.sqlite"
    sim = Simulation(SimOptions(game="crosslet", seed=seed, journal=journal))
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    trusting = BoardView(Follower(journal))
    trusting.poll()
    assert isinstance(trusting.follower.game, Crosslet)
    assert isinstance(trusting.follower.game.lexicon, JournaledWords)

    def judging(players: int, rng: random.Random, options: dict[str, Any]) -> Crosslet:
        return Crosslet(players, rng, options, lexicon=lexicon_for(options.get("words")))

    followed = msgspec.structs.replace(kits.KITS["crosslet"], follow_game=judging)
    monkeypatch.setitem(kits.KITS, "crosslet", followed)
    checked = BoardView(Follower(journal))
    checked.poll()
    assert not isinstance(checked.follower.game.lexicon, JournaledWords)
    try:
        assert trusting.follower.record() == checked.follower.record()
        assert trusting.parts() == checked.parts()
        exported = export_game(journal)
        record = trusting.follower.record()
        assert record is not None and record["scores"] == exported["scores"]
        assert [m["points"] for m in record["moves"]] == [m["points"] for m in exported["moves"]]
    finally:
        trusting.close()
        checked.close()


def test_a_followed_crosslet_has_no_word_list_to_search() -> None:
    game = new_game("crosslet", 2, random.Random(1), {})
    assert isinstance(game, Crosslet)
    with pytest.raises(GameError, match="on trust"):
        game.generator  # noqa: B018


@pytest.mark.parametrize("name", sorted(KITS))
def test_every_game_of_a_board_can_be_made_to_follow(name: str) -> None:
    # What the followers make is what the table plays: the same class, the same start.
    followed = new_game(name, 2, random.Random(7), {})
    played = find_kit(name).new_game(2, random.Random(7), {})
    assert type(followed) is type(played)
    assert followed.state_dict() == played.state_dict()


@pytest.mark.parametrize(
    "game",
    [
        "double-take",
        "dominoes",
        "doubles-wild",
        "crosslet",
        pytest.param("doublecross", marks=pytest.mark.slow),
    ],
)
def test_every_reader_words_each_move_as_the_table_did(tmp_path: Path, game: str) -> None:
    journal = tmp_path / "j.sqlite"
    sim = Simulation(SimOptions(game=game, seed=2, journal=journal))
    table: list[str] = []
    story: list[str] = []
    sim.commits.append(lambda played: table.append(played.text))
    sim.commits.append(lambda played: story.append(played.story or played.text))
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    follower = Follower(journal)
    follower.poll()
    follower.close()
    assert [m["text"] for m in follower.moves] == table, "the web view and the hub"
    # The export tells the game's story: the table's words and what else each move did.
    assert [m["text"] for m in export_game(journal)["moves"]] == story, "the export"


def test_a_followed_position_lights_the_computers_move_and_the_last_move(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    sim = Simulation(SimOptions("double-take", seed=3, humans=frozenset({0}), journal=journal))
    try:
        sim.start()
        person = sim.kit.make_player(sim.session.game, random.Random(7))
        first = person.choose(sim.session.game)
        for step in sim.hand.steps(first):
            sim.run_line(Line("person", 1, step[0], tuple(step[1:])))
        expected = sim.session.expected()
        table = sim.session.leds()
    finally:
        sim.close()
    assert isinstance(expected, Step) and isinstance(first, Step)
    follower = Follower(journal)  # no live file: the journal alone
    follower.poll()
    state = follower.state()
    follower.close()
    assert state is not None
    lit = {first.frm: LAST, first.to: LAST, expected.frm: FROM, expected.to: TO}
    assert state["leds"] == lit == table
