"""Take-back: a long press of back, then "take back last", withdraws the last action.

The take-back is journaled as an entry of its own (the withdrawn action stays in the
journal), the board is set back by fixes, and a resumed game replays it.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.journal import Journal, JournalError
from firmware_bridge.runtime.replay import in_force
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import parse_all
from tests.firmware_bridge.sim_runs import Play, SimRun, reason

MOVES = "lift a3\nplace b4 red\nlift d7\nplace e6 green\n"
"""Red a3-b4, green d7-e6 (Double Take's first moves)."""


TABLETOP = (sys.executable, "-m", "firmware_bridge.apps.cli")


def sim_states(play: Play, script: str, journal: Path | None = None) -> SimRun:
    return play("double-take", script=script, journal=journal)


def test_take_back_withdraws_the_last_move_and_shows_the_fixes(tmp_path: Path, play: Play) -> None:
    journal = tmp_path / "game.db"
    last = sim_states(play, MOVES + "takeback\n", journal).last
    assert last.moves_played == 1 and last.turn == "green"
    assert last.oled[0] == "Take back"
    assert "Taken back: d7-e6" in " ".join(last.oled)
    assert [(f["action"], f["cell"]) for f in last.fixes] == [("lift", "e6"), ("place", "d7")]
    with Journal(journal, read_only=True) as book:
        entries = book.entries(1)
    assert [e.kind for e in entries] == ["action", "action", "takeback"]
    assert entries[2].payload == {"undo": [entries[1].seq]}
    assert [e.payload["to"] for e in in_force(entries, "test")] == ["b4"]


def test_play_goes_on_once_the_board_is_set_back(play: Play) -> None:
    script = MOVES + "takeback\nlift e6\nplace d7 green\nlift h7\nplace h5 green\n"
    run = sim_states(play, script)
    last = run.last
    assert last.fixes == [] and last.moves_played == 2
    assert last.move is not None and last.move["text"] == "h7-h5"
    assert run.played[-1].text == "h7-h5"
    assert last.layout["h5"]["owner"] == 1 and "e6" not in last.layout


def test_nothing_to_take_back_at_the_start(play: Play) -> None:
    run = sim_states(play, "takeback\n")
    refused = run.refused()
    assert refused and reason(refused[-1]) == "there is nothing to take back"
    assert len(run.game.history) == 0


def test_a_take_back_is_replayed_when_the_game_resumes(tmp_path: Path, play: Play) -> None:
    journal = tmp_path / "game.db"
    sim_states(play, MOVES + "takeback\nlift e6\nplace d7 green\n", journal)
    sim = Simulation(SimOptions("double-take", journal=journal))
    try:
        assert sim.resumed
        assert [a.to_dict()["to"] for a in sim.session.game.history] == ["b4"]
        assert sim.session.game.to_move == 1
        sim.start()
        sim.run_script(parse_all("lift h7\nplace h5 green\n"))
        assert [a.to_dict()["to"] for a in sim.session.game.history] == ["b4", "h5"]
    finally:
        sim.close()


def test_a_take_back_naming_no_standing_action_is_refused_on_replay(
    tmp_path: Path, play: Play
) -> None:
    journal = tmp_path / "game.db"
    sim_states(play, MOVES, journal)
    with Journal(journal) as book:
        book.append(1, "takeback", {"undo": [99]})
    with pytest.raises(JournalError, match="take-back names \\[99\\]"):
        Simulation(SimOptions("double-take", journal=journal))


def test_a_game_killed_after_a_take_back_resumes_without_the_move(tmp_path: Path) -> None:
    journal = tmp_path / "game.db"
    proc = subprocess.Popen(
        [*TABLETOP, "sim", "--game", "double-take", "--journal", str(journal), "--script", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdin is not None
    proc.stdin.write(MOVES + "takeback\nlift e6\n")
    proc.stdin.flush()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if journal.exists():
                with Journal(journal, read_only=True) as book:
                    if any(e.kind == "takeback" for e in book.entries(1)):
                        break
            time.sleep(0.2)
        else:
            pytest.fail("the take-back never reached the journal")
        time.sleep(1.0)  # let it lift e6 too: the kill comes half-way through the fixes
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    sim = Simulation(SimOptions("double-take", journal=journal))
    try:
        sim.start()
        assert [a.to_dict()["to"] for a in sim.session.game.history] == ["b4"]
        sim.set_up()  # the fixes the OLED asks for put green back on d7
        assert sim.world.contents.get("d7") == "green" and "e6" not in sim.world.contents
        sim.run_script(parse_all("lift d7\nplace e6 green\n"))
        assert [a.to_dict()["to"] for a in sim.session.game.history] == ["b4", "e6"]
    finally:
        sim.close()


def test_a_spectator_following_the_journal_drops_the_move_taken_back(tmp_path: Path) -> None:
    from firmware_bridge.spectate.follow import Follower

    journal = tmp_path / "game.db"
    sim = Simulation(SimOptions("double-take", journal=journal))
    try:
        sim.start()
        follower = Follower(journal)
        for line in parse_all(MOVES):
            sim.run_line(line)
        follower.poll()
        assert [m["action"]["to"] for m in follower.moves] == ["b4", "e6"]
        sim.run_line(parse_all("takeback\n")[0])
        follower.poll()
        assert [m["action"]["to"] for m in follower.moves] == ["b4"]
        assert follower.game is not None and follower.game.to_move == 1
    finally:
        sim.close()
