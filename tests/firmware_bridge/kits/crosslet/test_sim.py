"""Crosslet played in simulation on the simulated RFID serial board."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.runtime.session_state import TableState
from games.lexicon import Lexicon
from tests.firmware_bridge.kits.crosslet.referee_helpers import COUNTS, VALUES, bag
from tests.firmware_bridge.sim_runs import Play, SimRun, reason

SCENARIOS = Path(__file__).parents[2] / "scenarios"
DEALT = bag("CATERS?", "DOGINQU")
"""The bag every scenario is played with: the racks its comments name."""


pytestmark = pytest.mark.usefixtures("kit_lexicon")


def scenario(play: Play, name: str) -> SimRun:
    return play("crosslet", options=[f"bag={DEALT}", "first=1"], script=SCENARIOS / name)


def moves(run: SimRun) -> list[str]:
    """The accepted moves, in order, each once."""
    return [f"{p.player} {p.text}" for p in run.played]


def refusals(states: list[TableState]) -> list[TableState]:
    """The first state of each refusal (a new reason with fixes pending)."""
    out: list[TableState] = []
    for s in states:
        verdict = s.verdict
        refused = s.fixes and verdict and not verdict["accepted"]
        if refused and (not out or out[-1].verdict != verdict):
            out.append(s)
    return out


# -- scripted turns ----------------------------------------------------------------------
def test_each_refused_placement_shows_its_reason_and_fixes_then_legal_ones_play(
    play: Play,
) -> None:
    run = scenario(play, "cl_refusals.txt")
    refused = refusals(run.states)
    assert [reason(s) for s in refused] == [
        "the first move must cover H8",
        "a word needs two letters or more: place at least two tiles",
        "the tiles are not joined to each other",
        "TCA is not a word",
        "you have no Q",
        "the tiles are not joined to the board",
    ]
    assert [[f["cell"] for f in s.fixes] for s in refused] == [
        ["A1", "B1"],
        ["H8"],
        ["H8", "I8", "K8"],
        ["H8", "I8", "J8"],
        ["H8", "I8"],
        ["A1", "B1"],
    ]
    assert all(f["action"] == "lift" for s in refused for f in s.fixes)
    for s in refused:
        # The lines as drawn: the reason and the first fix, wrapped to the screen.
        count = f" (1/{len(s.fixes)})" if len(s.fixes) > 1 else ""
        first = s.fixes[0]
        lift = f"Lift {first['text'].split()[2]} from {first['cell']}{count}"
        # The reason stands whole on the first page, with the fix when they fit
        # together (else the fix takes the next page); the scores stay.
        drawn = " ".join(s.oled[1:])
        scores = f"P1 {s.scores['player 1']} P2 {s.scores['player 2']}"
        said = f"No: {reason(s)}"
        assert drawn in (f"{said} {lift} {scores}", f"{said} {scores}")
    assert moves(run) == ["player 1 CAT 10", "player 2 DOT 8"]
    last = run.last
    assert last.scores == {"player 1": 10, "player 2": 8}
    assert last.fixes == [] and last.turn == "player 1"
    assert "P2: DOT 8 = 8" in last.oled and last.oled[-1] == "P1 10 P2 8"


def test_accepted_placement_shows_words_points_total_and_the_tiles_to_take(play: Play) -> None:
    run = scenario(play, "cl_refusals.txt")
    after = next(s for s in run.states if s.moves_played == 1)
    assert after.oled == [
        "P2 to play bag 83",
        "P1: CAT 10 = 10",
        "P1 takes A A A",
        "Rack D G I N O Q U",
        "Lay tiles, then ok.",
        "P1 10 P2 0",
    ]
    assert after.extra["dealt"] == {"player": "player 1", "tiles": ["A", "A", "A"]}
    assert after.move is not None
    assert after.move["action"] == {
        "type": "place",
        "tiles": [["H8", "C"], ["I8", "A"], ["J8", "T"]],
        "blanks": [],
    }


def test_a_blank_is_named_with_the_menu_and_a_knocked_tile_goes_back(play: Play) -> None:
    run = scenario(play, "cl_blank.txt")
    states = run.states
    asked = [
        s
        for s in states
        if s.oled[0].startswith("Blank on J8") and "Reading the board..." not in s.oled
    ]
    shown = list(dict.fromkeys(s.oled[2] for s in asked))
    assert shown == [f"< {ch} >" for ch in "ABCDEFGHIJKLMNOPQRST"]
    assert moves(run) == ["player 1 CAT 8"]
    played = next(s for s in states if s.moves_played == 1)
    assert played.layout["J8"] == {"kind": "tile", "label": "?", "owner": 0, "state": "blank:T"}
    assert played.move is not None and played.move["action"]["blanks"] == [["J8", "T"]]
    knocked = [s for s in states if s.fixes]
    assert knocked[0].oled[1:-1] == ["No: put A back", "on I8", "Put A on I8"]
    assert [(f["action"], f["cell"]) for f in knocked[0].fixes] == [("place", "I8")]
    assert run.last.fixes == [] and run.last.scores["player 1"] == 8


def test_hint_exchange_and_pass_from_the_buttons(play: Play) -> None:
    run = scenario(play, "cl_hint_exchange_pass.txt")
    states = run.states
    hinted = next(s for s in states if s.extra["hint"])
    assert hinted.oled[1].startswith("Hint: ") and hinted.moves_played == 0
    assert hinted.extra["hint"]["points"] >= 10
    assert moves(run) == ["player 1 CAT 10", "player 2 exchanges Q U", "player 1 passes"]
    bagging = next(s for s in states if s.moves_played == 2)
    assert " ".join(bagging.oled[1:-1]) == "Put Q U in the bag. Lift Q from A1 (1/2)"
    dealt = bagging.extra["dealt"]
    assert dealt["player"] == "player 2" and len(dealt["tiles"]) == 2
    rack = bagging.extra["racks"]["player 2"]
    assert "Q" not in rack and len(rack) == 7
    assert run.last.turn == "player 2" and run.last.fixes == []


def test_a_word_on_too_few_cells_is_a_script_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's exit code and stderr are what is tested."""
    bad = tmp_path / "bad.txt"
    bad.write_text("place H8,I8 CAT\n")
    out = io.StringIO()
    assert main(["sim", "--game", "crosslet", "--script", str(bad)], out=out) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and "place H8,I8,J8 CA?" in err


# -- whole computer games, recounted from the journal -------------------------------------
# RULES.md §1's bonus layout, written out again here on purpose.
LAYOUT = """
R . . G . . . R . . . G . . R
. B . . . Y . . . Y . . . B .
. . B . . . G . G . . . B . .
G . . B . . . G . . . B . . G
. . . . B . . . . . B . . . .
. Y . . . Y . . . Y . . . Y .
. . G . . . G . G . . . G . .
R . . G . . . * . . . G . . R
. . G . . . G . G . . . G . .
. Y . . . Y . . . Y . . . Y .
. . . . B . . . . . B . . . .
G . . B . . . G . . . B . . G
. . B . . . G . G . . . B . .
. B . . . Y . . . Y . . . B .
R . . G . . . R . . . G . . R
"""
BONUS = [row.split() for row in LAYOUT.strip().splitlines()]
LETTER_BONUS = {"G": 2, "Y": 3}
WORD_BONUS = {"B": 2, "*": 2, "R": 3}


def point(cell: str) -> tuple[int, int]:
    return "ABCDEFGHIJKLMNO".index(cell[0]), int(cell[1:]) - 1


def score_turn(
    board: dict[tuple[int, int], tuple[str, int]], placed: dict[tuple[int, int], tuple[str, int]]
) -> tuple[int, list[str]]:
    """Points and words of one placement: every run of 2+ letters holding a new tile."""
    grid = {**board, **placed}
    total = 0
    words: list[str] = []
    for dc, dr in ((1, 0), (0, 1)):
        starts = set()
        for tile in placed:
            c, r = tile
            while (c - dc, r - dr) in grid:
                c, r = c - dc, r - dr
            starts.add((c, r))
        for start in starts:
            c, r = start
            run = []
            while (c, r) in grid:
                run.append((c, r))
                c, r = c + dc, r + dr
            if len(run) < 2:
                continue
            letters = 0
            multiply = 1
            for p in run:
                value = grid[p][1]
                if p in placed:
                    kind = BONUS[p[1]][p[0]]
                    value *= LETTER_BONUS.get(kind, 1)
                    multiply *= WORD_BONUS.get(kind, 1)
                letters += value
            total += letters * multiply
            words.append("".join(grid[p][0] for p in run))
    if len(placed) == 7:
        total += 15
    return total, words


def recount(
    actions: list[dict[str, Any]], players: int, bag_order: str, lexicon: Lexicon
) -> list[int]:
    """Final scores from the journal, the bag order and the rules alone."""
    drawn = list(bag_order)
    racks: list[list[str]] = []
    for _ in range(players):
        racks.append(drawn[:7])
        del drawn[:7]
    board: dict[tuple[int, int], tuple[str, int]] = {}
    scores = [0] * players
    mover = 0
    for action in actions:
        assert action["type"] in ("place", "pass"), "an exchange reshuffles the bag"
        if action["type"] == "place":
            named = dict(action["blanks"])
            placed = {}
            for cell, tile in action["tiles"]:
                letter = named[cell] if tile == "?" else tile
                placed[point(cell)] = (letter, VALUES[tile])
                racks[mover].remove(tile)
            gained, words = score_turn(board, placed)
            assert all(lexicon.is_word(w.lower()) for w in words), words
            scores[mover] += gained
            board.update(placed)
            while len(racks[mover]) < 7 and drawn:
                racks[mover].append(drawn.pop(0))
        mover = (mover + 1) % players
    left = [sum(VALUES[t] for t in rack) for rack in racks]
    for seat in range(players):
        scores[seat] -= left[seat]
    out = [seat for seat in range(players) if not racks[seat]]
    if out and not drawn:
        scores[out[0]] += sum(left)
    return scores


def test_tile_table_is_the_published_one() -> None:
    assert sum(COUNTS.values()) == 100 and VALUES["Q"] == VALUES["Z"] == 10
    assert BONUS[7][7] == "*" and len(BONUS) == 15 and all(len(row) == 15 for row in BONUS)
    assert BONUS == BONUS[::-1] == [row[::-1] for row in BONUS]


@pytest.mark.parametrize(
    ("players", "seed"),
    [
        pytest.param(2, 1, marks=pytest.mark.slow),
        (3, 2),
        pytest.param(4, 3, marks=pytest.mark.slow),
    ],
)
def test_computer_game_scores_equal_a_recount_of_the_journal(
    play: Play, tmp_path: Path, lexicon: Lexicon, players: int, seed: int
) -> None:
    from firmware_bridge.journal import Journal

    order = bag(seed=seed)
    path = tmp_path / "game.sqlite"
    run = play(
        "crosslet",
        players=players,
        seed=seed,
        journal=path,
        options=[f"bag={order}", "first=1"],
    )
    outcome = run.outcome
    assert outcome is not None
    with Journal(path) as journal:
        record = journal.games()[-1]
        actions = [e.payload for e in journal.entries(record.id) if e.kind == "action"]
    assert record.outcome == outcome.to_dict() and len(run.game.history) == len(actions)
    scores = recount(actions, players, order, lexicon)
    names = [f"player {p + 1}" for p in range(players)]
    assert run.scores == dict(zip(names, scores, strict=True))
    best = max(scores)
    assert all(scores[p] == best for p in outcome.winners)
    assert run.last.oled[0].startswith("Game over")
