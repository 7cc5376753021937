"""DoubleCross played in simulation on the simulated RFID board: whole games between
computer players, their scores recounted from the journal."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware_bridge.journal import Journal
from firmware_bridge.kits import find_kit
from games.doublecross.game import DoubleCross
from tests.firmware_bridge.sim_runs import Play

DESTROYED = -4
RACK_LEFT = -4
UNSTABLE_LEFT = -1
COLOURED = 8
DEFUSED = 16
PICKED_UP = {"ns": 2, "ew": 2, "nsew": 4}
"""RULES.md §2's points, copied here so the recount does not trust the engine's."""


pytestmark = pytest.mark.usefixtures("kit_lexicon")


def recount(journal: Path) -> tuple[list[int], int]:
    """The scores of the journal's game worked out again: its actions replayed on a new
    game, and every happening they report paid by the table of the rules (word
    lengths, −4 a destroyed tile, the specials, the end penalties); and the number of
    points earned by a seat in another seat's turn."""
    with Journal(journal) as j:
        record = j.games()[-1]
        game = find_kit("doublecross").new_game(
            record.players, random.Random(record.seed), record.options
        )
        assert isinstance(game, DoubleCross)
        scores = [0] * record.players
        elsewhere = 0
        for entry in j.entries(record.id):
            if entry.kind != "action":
                continue
            mover = game.to_move
            assert game.apply(game.decode(entry.payload)).accepted
            for note in game.last_notes:
                extra = dict(note.to_dict())
                seat = extra.get("player")
                if seat is None:
                    continue
                gained = {
                    "completed": len(str(extra.get("word", ""))),
                    "stable": len(str(extra.get("word", ""))),
                    "destroyed": DESTROYED,
                    "bonus": extra.get("value", 0),
                    "coloured-bomb": DEFUSED if extra.get("defused") else COLOURED,
                    "pickup": PICKED_UP.get(str(extra.get("bomb")), 0),
                    "rack-penalty": RACK_LEFT * extra.get("count", 0),
                    "unstable-penalty": UNSTABLE_LEFT * extra.get("count", 0),
                }[note.kind]
                scores[seat] += gained
                if seat != mover and gained and not note.kind.endswith("penalty"):
                    elsewhere += 1
        assert game.outcome is not None
    return scores, elsewhere


@pytest.mark.parametrize(
    ("players", "seed"),
    [
        (2, 3),
        pytest.param(3, 5, marks=pytest.mark.slow),
        pytest.param(4, 7, marks=pytest.mark.slow),
    ],
)
def test_a_whole_game_ends_with_the_scores_the_journal_recounts(
    play: Play, players: int, seed: int, tmp_path: Path
) -> None:
    journal = tmp_path / "dc.db"
    run = play("doublecross", players=players, seed=seed, journal=journal)
    assert run.outcome is not None
    scores = list(run.game.scores())
    assert list(run.scores) == [f"player {p + 1}" for p in range(players)]
    counted, elsewhere = recount(journal)
    assert scores == counted
    # Points flowed to owners in other players' turns, and tiles were destroyed.
    assert elsewhere > 0
    assert any(p < 0 for played in run.played for p in played.points)
    ended = run.last
    assert ended.oled[0].startswith("Game over")
    assert ended.fixes == [] or all(f["action"] == "lift" for f in ended.fixes)


def test_the_layout_names_each_tile_its_owner_and_whether_it_is_stable(play: Play) -> None:
    run = play("doublecross", players=2, seed=3)
    layout = run.last.layout
    assert layout and all(set(t) >= {"label", "owner", "stable"} for t in layout.values())
    assert {t["owner"] for t in layout.values()} <= {None, 0, 1}
    assert any(t["owner"] is None and t["stable"] for t in layout.values())
    assert any(t["owner"] is not None and t["stable"] for t in layout.values())
    assert all(len(t["label"]) == 1 and t["label"].isupper() for t in layout.values())
