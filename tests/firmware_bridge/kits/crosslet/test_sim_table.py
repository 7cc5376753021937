"""Crosslet from the table's own bag, played in simulation: the count laid out, rack cells."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.journal import Journal
from games.lexicon import Lexicon
from tests.firmware_bridge.kits.crosslet.referee_helpers import VALUES
from tests.firmware_bridge.kits.crosslet.test_sim import moves, point, score_turn
from tests.firmware_bridge.sim_runs import Play

ROW = "A1,B1,C1,D1,E1,F1,G1"
COUNT_SCRIPT = f"""\
# The table's bag: player 1 lays CAT, then four passes end the game.
place H8,I8,J8 CAT
press ok
press back
press ok
press back
press ok
press back
press ok
press back
press ok
# The count: player 1 lays the seven tiles left (45 points), then clears them off.
place {ROW} QZJXKW?
press ok
{chr(10).join(f"lift {c}" for c in ROW.split(","))}
# Player 2 lays seven Es (7 points).
place {ROW} EEEEEEE
press ok
{chr(10).join(f"lift {c}" for c in ROW.split(","))}
"""


pytestmark = pytest.mark.usefixtures("kit_lexicon")


def test_the_racks_laid_out_at_the_end_are_taken_off_the_scores(
    play: Play,
) -> None:
    run = play("crosslet", options=["racks=table", "first=1"], script=COUNT_SCRIPT)
    states = run.states
    assert run.scores == {"player 1": 10 - 45, "player 2": -7}
    outcome = run.outcome
    assert outcome is not None and not outcome.draw
    assert [run.game.seat_name(p) for p in outcome.winners] == ["player 2"]
    assert "two scoreless turns" in outcome.reason
    played = next(s for s in states if s.moves_played == 1)
    assert played.oled[2] == "P1: draw 3 tiles"
    assert any(s.oled[0] == "Count: P1 bag 83" for s in states)
    assert moves(run)[-2:] == [
        "player 1 P1 shows J K Q W X Z ?",
        "player 2 P2 shows E E E E E E E",
    ]
    result = run.last
    assert result.fixes == []
    assert result.oled[1:] == [
        "P2 wins",
        "Two scoreless rounds.",
        "Racks: P1 -45 P2 -7",
        "ok: new game",
        "P1 -35 P2 -7",
    ]


def test_computer_seats_need_rack_cells_with_the_table_bag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command line's exit code and stderr are what is tested."""
    out = io.StringIO()
    assert main(["sim", "--game", "crosslet", "--option", "racks=table"], out=out) == 2
    err = capsys.readouterr().err
    assert "has no rack cells on this board" in err and "rfid-15x15-racks-pico" in err


def recount_table(actions: list[dict[str, Any]], players: int, lexicon: Lexicon) -> list[int]:
    """Final scores from the journal alone: racks as the board saw them, draws as counts."""
    assert actions[0] == {"type": "table-bag"}
    racks: list[list[str]] = [[] for _ in range(players)]
    sizes = [7] * players
    bag = 100 - 7 * players
    board: dict[tuple[int, int], tuple[str, int]] = {}
    scores = [0] * players
    mover = 0
    for action in actions[1:]:
        kind = action["type"]
        if kind in ("set-rack", "reveal-rack"):
            seat = action["player"]
            assert len(action["letters"]) == sizes[seat]
            racks[seat] = list(action["letters"])
            continue
        if kind == "place":
            named = dict(action["blanks"])
            placed = {}
            for cell, tile in action["tiles"]:
                placed[point(cell)] = (named[cell] if tile == "?" else tile, VALUES[tile])
                racks[mover].remove(tile)
            gained, words = score_turn(board, placed)
            assert all(lexicon.is_word(w.lower()) for w in words), words
            scores[mover] += gained
            board.update(placed)
            sizes[mover] -= len(placed)
            drawn = min(7 - sizes[mover], bag)
            sizes[mover] += drawn
            bag -= drawn
        elif kind == "exchange":
            for tile in action["letters"]:
                racks[mover].remove(tile)
        else:
            assert kind == "pass", kind
        mover = (mover + 1) % players
    assert [len(r) for r in racks] == sizes
    left = [sum(VALUES[t] for t in rack) for rack in racks]
    for seat in range(players):
        scores[seat] -= left[seat]
    out = [seat for seat in range(players) if not racks[seat]]
    if out and bag == 0:
        scores[out[0]] += sum(left)
    return scores


@pytest.mark.parametrize(("players", "seed"), [pytest.param(2, 3, marks=pytest.mark.slow), (4, 1)])
def test_computer_game_on_rack_cells_scores_equal_a_recount_of_the_journal(
    play: Play, tmp_path: Path, lexicon: Lexicon, players: int, seed: int
) -> None:
    path = tmp_path / "game.sqlite"
    run = play(
        "crosslet",
        profile="rfid-15x15-racks-pico",
        players=players,
        seed=seed,
        journal=path,
        options=["first=1"],
    )
    outcome = run.outcome
    assert outcome is not None
    with Journal(path) as journal:
        record = journal.games()[-1]
        actions = [e.payload for e in journal.entries(record.id) if e.kind == "action"]
    assert record.profile == "rfid-15x15-racks-pico" and record.outcome == outcome.to_dict()
    kinds = {a["type"] for a in actions}
    assert {"table-bag", "set-rack", "place"} <= kinds
    scores = recount_table(actions, players, lexicon)
    names = [f"player {p + 1}" for p in range(players)]
    assert run.scores == dict(zip(names, scores, strict=True))
    modes = [s.extra["racks_mode"] for s in run.states[1:] if "racks_mode" in s.extra]
    assert all(mode == "table" for mode in modes)
