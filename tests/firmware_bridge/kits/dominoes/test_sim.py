"""Double Double Dominoes played in simulation on the simulated RFID serial board."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.runtime.takeback import rebuild
from tests.firmware_bridge.sim_runs import Play, SimRun, reason

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def scenario(play: Play, name: str, seed: int) -> SimRun:
    return play("dominoes", seed=seed, script=SCENARIOS / name)


def moves(run: SimRun) -> list[str]:
    """The accepted moves, in order, each once."""
    return [f"{p.player} {p.text}" for p in run.played]


def test_legal_placement_is_played_from_the_dealt_hand(play: Play) -> None:
    run = scenario(play, "dd_legal_placement.txt", 1)
    body = run.states
    assert moves(run) == ["player 1 draws 1-1", "player 1 2-1 on H8–I8"]
    drawn = next(s for s in body if s.extra["phase"] == "play")
    assert "P1: take 1-1." in drawn.oled
    assert drawn.extra["hand"] == ["0-4", "1-1", "1-2", "4-5"]
    last = body[-1]
    assert last.layout["H8"]["label"] == "2-1:2" and last.layout["I8"]["label"] == "2-1:1"
    assert last.turn == "player 2" and last.extra["phase"] == "draw"
    assert last.extra["boneyard"] == 49
    assert all(s.verdict is None or s.verdict["accepted"] for s in body)


def test_illegal_placement_is_refused_with_reason_and_fixes_then_corrected(play: Play) -> None:
    run = scenario(play, "dd_illegal_then_fixed.txt", 1)
    body = run.states
    refused = [s for s in body if s.fixes]
    assert [reason(s) for s in refused] == [
        "the first domino must lie on the star H8",
        "the tail 5 does not match the 1 on I8",
    ]
    star, tail = refused
    assert [(f["action"], f["cell"]) for f in star.fixes] == [("lift", "A1"), ("lift", "A2")]
    # The reason whole, above the fix and the scores.
    drawn = " ".join(star.oled[1:])
    assert drawn == "No: the first domino must lie on the star H8 Lift A1 (4-5) (1/2) P1 0 P2 0"
    assert [f["cell"] for f in tail.fixes] == ["J8", "K8"]
    assert tail.turn == "player 2" and "J8" not in tail.layout
    assert moves(run) == [
        "player 1 draws 1-1",
        "player 1 2-1 on H8–I8",
        "player 2 draws 0-3",
        "player 2 1-2 on I9–J9",
    ]
    assert body[-1].fixes == [] and body[-1].turn == "player 1"


def test_chain_is_offered_after_a_double_and_ok_ends_the_turn(play: Play) -> None:
    run = scenario(play, "dd_chain_ended_with_ok.txt", 4)
    body = run.states
    chain = [s for s in body if s.extra["phase"] == "chain"]
    assert chain and chain[0].turn == "player 2"
    assert chain[0].extra["chain_double"] == "3-3 on H7–H8"
    assert any("or ok to end" in line for line in chain[0].oled)
    assert moves(run) == [
        "player 2 draws 1-3",
        "player 2 3-3 on H7–H8",
        "player 2 ends the turn",
    ]
    assert body[-1].turn == "player 1" and body[-1].extra["phase"] == "draw"


def test_draw_and_discard_are_button_actions(play: Play) -> None:
    run = scenario(play, "dd_draw_discard.txt", 4)
    body = run.states
    picking = [s for s in body if s.extra["phase"] == "discard"]
    cursor = [line for s in picking for line in s.oled if line.startswith("<")]
    # Each place of the cursor once (it stays shown while ok waits for the board).
    assert [line for i, line in enumerate(cursor) if i == 0 or cursor[i - 1] != line] == [
        "< 0-4 >  ok: pit it",
        "< 0-6 >  ok: pit it",
        "< 2-4 >  ok: pit it",
        "< 5-5 >  ok: pit it",
    ]
    assert moves(run)[-3:] == [
        "player 2 3-1 on I8–J8, takes 0-5",
        "player 1 draws 0-4",
        "player 1 puts 5-5 in the pit",
    ]
    assert body[-1].extra["pit"] == 1 and body[-1].turn == "player 2"
    assert body[-1].extra["boneyard"] == 47


def test_a_domino_on_three_cells_is_a_script_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's exit code, stderr and transcript are what is tested."""
    bad = tmp_path / "bad.txt"
    bad.write_text("press roll\nplace H8,I8,J8 6-3\n")
    out = io.StringIO()
    assert main(["sim", "--game", "dominoes", "--script", str(bad)], out=out) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "place H8,H9 6-3" in err
    assert "draws" not in out.getvalue(), "line 1 must not run before the typo is found"


# -- a whole computer game, recounted from its journal --------------------------------
# The published scoring rules (RULES.md §3), written out again here on purpose.
DIAMOND_ROWS = [
    "5..4...3...4..5",
    "..3..4...4..3..",
    ".3..2.....2..3.",
    "4..3.2...2.3..4",
    "..2.1.1.1.1.2..",
    ".4.2.1...1.2.4.",
    "....1.....1....",
    "3.............3",
    "....1.....1....",
    ".4.2.1...1.2.4.",
    "..2.1.1.1.1.2..",
    "4..3.2...2.3..4",
    ".3..2.....2..3.",
    "..3..4...4..3..",
    "5..4...3...4..5",
]
TRACK = [
    int(p)
    for p in "1234560253 4622035416 2455063420 1513444506 3541320011"
    " 2363521066 5212503350 6140635142 6231656204 0164416630".replace(" ", "")
]
VICTORY = {2: 100, 3: 75, 4: 50, 5: 75, 6: 50}


def diamond(cell: str) -> int:
    row = DIAMOND_ROWS[int(cell[1:]) - 1]
    column = "ABCDEFGHIJKLMNO".index(cell[0])
    return int(row[column]) if row[column].isdigit() else 0


def recount(actions: list[dict[str, Any]], players: int, first: int) -> list[int]:
    """Scores from the journal's actions alone: diamonds, doubled for doubles, and +3s."""
    scores = [0] * players
    mover = first
    started = False
    for action in actions:
        if action["type"] == "draw":
            if started:
                mover = (mover + 1) % players
            started = True
        if action["type"] != "place":
            continue
        ends = (action["domino_a"], action["domino_b"])
        shown = [TRACK[min(s, 100) - 1] if s > 0 else None for s in scores]
        gained = diamond(action["cell_a"]) + diamond(action["cell_b"])
        scores[mover] += gained * (2 if ends[0] == ends[1] else 1)
        for seat in range(players):
            if shown[seat] in ends:
                scores[seat] += 3
    return scores


def test_diamond_and_track_tables_are_the_published_ones() -> None:
    assert len(TRACK) == 100 and TRACK[:10] == [1, 2, 3, 4, 5, 6, 0, 2, 5, 3]
    assert diamond("A1") == 5 and diamond("H8") == 0 and diamond("E5") == 1
    assert all(len(row) == 15 for row in DIAMOND_ROWS) and len(DIAMOND_ROWS) == 15
    # The board is the same seen from every side.
    assert DIAMOND_ROWS == DIAMOND_ROWS[::-1] == [row[::-1] for row in DIAMOND_ROWS]
    assert ["".join(col) for col in zip(*DIAMOND_ROWS, strict=True)] == DIAMOND_ROWS


@pytest.mark.parametrize(("players", "seed"), [(2, 11), pytest.param(5, 3, marks=pytest.mark.slow)])
def test_computer_game_scores_equal_a_recount_of_the_journal(
    play: Play, tmp_path: Path, players: int, seed: int
) -> None:
    from firmware_bridge.journal import Journal
    from firmware_bridge.kits import find_kit

    path = tmp_path / "game.sqlite"
    run = play("dominoes", players=players, seed=seed, journal=path)
    outcome = run.outcome
    assert outcome is not None
    with Journal(path) as journal:
        record = journal.games()[-1]
        actions = [e.payload for e in journal.entries(record.id) if e.kind == "action"]
        replayed = rebuild(journal, record.id, find_kit("dominoes").new_game)[0]
    assert record.players == players and record.outcome == outcome.to_dict()
    turn = run.states[0].turn
    assert turn is not None
    first = int(turn.split()[-1]) - 1
    scores = recount(actions, players, first)
    names = [f"player {p + 1}" for p in range(players)]
    assert run.scores == dict(zip(names, scores, strict=True))
    assert replayed.scores() == scores and replayed.outcome is not None
    assert len(run.game.history) == len(actions)
    best = max(scores)
    if "victory total" in outcome.reason:
        assert best >= VICTORY[players]
    assert all(scores[p] == best for p in outcome.winners)
