"""A full disk: the move is held, nothing is shown unsaved, and it is saved once space returns.

SQLite's ``max_page_count`` stands in for the disk: past it, SQLite fails a write
with the same SQLITE_FULL a full SD card gives.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.journal import Journal, JournalFull
from firmware_bridge.referees.decisions import Commit
from firmware_bridge.referees.events import Tick
from firmware_bridge.runtime.held import RETRY_FULL_DISK_S
from firmware_bridge.runtime.takeback import rebuild
from games.double_take.game import DoubleTake, Step
from hardware.board import OCCUPIED, BoardSettled, BoardStatus
from tests.tables import TableRig


def fill_the_disk(journal: Journal) -> None:
    """Write small inputs of another game until the journal can take no more."""
    pages = journal.db.execute("PRAGMA page_count").fetchone()[0]
    journal.db.execute(f"PRAGMA max_page_count = {pages}")
    filler = journal.new_game("double-take", 2, 99, {}, "filler")
    with pytest.raises(JournalFull):
        for _ in range(10_000):
            journal.append(filler, "action", {})


def fail_saves(journal: Journal, fails: Callable[[int], bool]) -> None:
    """Make the journal's commits that ``fails`` picks (counted from 1) fail as on a
    full disk: the input was written, the sync was not, and nothing staged is kept."""
    save = journal.save
    count = itertools.count(1)

    def failing_save() -> None:
        if fails(next(count)):
            journal.discard()
            raise JournalFull(f"the disk holding the journal {journal.path} is full (test)")
        save()

    journal.save = failing_save  # type: ignore[method-assign]


def free_space(journal: Journal) -> None:
    journal.db.execute("PRAGMA max_page_count = 1000000")


def actions(journal: Journal, game_id: int) -> list[dict[str, Any]]:
    return [e.payload for e in journal.entries(game_id) if e.kind == "action"]


def test_an_append_on_a_full_disk_says_so_and_records_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "sim")
        fill_the_disk(journal)
        with pytest.raises(JournalFull) as caught:
            journal.append(game_id, "action", {"type": "step", "frm": "a3", "to": "b4"})
        message = str(caught.value)
        assert f"the disk holding the journal {path} is full" in message
        assert "free some space" in message and "writable" not in message
        assert actions(journal, game_id) == []
        assert not journal.staged and not journal.db.in_transaction
        free_space(journal)
        assert journal.append(game_id, "action", {"type": "step", "frm": "a3", "to": "b4"}) == 1


def test_a_move_on_a_full_disk_is_held_and_saved_when_space_returns(
    table_rig: TableRig, tmp_path: Path
) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    game = DoubleTake()
    session = table_rig(game, journal=journal, journaled_as="sim")
    game_id = session.game_id
    shown: list[tuple[int, int, str]] = []
    session.listeners.append(
        lambda s: shown.append((s["moves_played"], len(actions(journal, game_id)), s["oled"][0]))
    )
    board = dict.fromkeys(game.layout(), OCCUPIED)
    session.handle(BoardSettled(dict(board)))
    fill_the_disk(journal)

    del board["a3"]
    board["b4"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    assert session.game.history == [], "a move that could not be saved is not played"
    assert session.disk_full is not None and "is full" in session.disk_full
    assert session.screen().header == "Disk full"
    assert session.wants_ticks(), "the session must be woken to try again"

    session.handle(Tick(0.5 * RETRY_FULL_DISK_S))
    assert session.game.history == []
    free_space(journal)
    session.handle(Tick(0.9 * RETRY_FULL_DISK_S))
    assert session.game.history == [], "it waits a little between tries"
    session.handle(Tick(1.5 * RETRY_FULL_DISK_S))

    assert session.game.history == [Step("a3", "b4")]
    assert [(a["frm"], a["to"]) for a in actions(journal, game_id)] == [("a3", "b4")]
    assert session.disk_full is None and session.screen().header != "Disk full"
    assert not session.wants_ticks()
    # Nothing was ever shown that was not in the journal.
    assert all(played <= journaled for played, journaled, _ in shown)
    assert any(header == "Disk full" for _, _, header in shown)
    journal.close()


def test_board_changes_while_the_disk_is_full_are_played_after_the_held_move(
    table_rig: TableRig,
    tmp_path: Path,
) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    game = DoubleTake()
    session = table_rig(game, journal=journal, journaled_as="sim")
    game_id = session.game_id
    board = dict.fromkeys(game.layout(), OCCUPIED)
    session.handle(BoardSettled(dict(board)))
    fill_the_disk(journal)
    del board["a3"]
    board["b4"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    # Green, not seeing the screen, answers: lifts b7, then puts it on a6.
    del board["b7"]
    session.handle(BoardSettled(dict(board)))
    board["a6"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    assert session.game.history == []
    free_space(journal)
    session.handle(Tick(2 * RETRY_FULL_DISK_S))
    assert session.game.history == [Step("a3", "b4"), Step("b7", "a6")]
    assert [a["to"] for a in actions(journal, game_id)] == ["b4", "a6"]
    journal.close()


def test_a_move_whose_save_fails_is_undone_and_never_shown(
    table_rig: TableRig, tmp_path: Path
) -> None:
    """The commit itself fails (the input was written, the sync was not): the game
    goes back to what the journal holds and the move is played again later."""
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    session = table_rig(DoubleTake(), journal=journal, journaled_as="sim")
    game_id = session.game_id
    saved = Journal(path, read_only=True)  # another reader sees only what was committed
    shown: list[tuple[int, int]] = []
    session.listeners.append(lambda s: shown.append((s["moves_played"], len(actions(saved, 1)))))
    told: list[object] = []
    session.played.append(told.append)
    board = dict.fromkeys(session.game.layout(), OCCUPIED)
    session.handle(BoardSettled(dict(board)))

    full = [True]
    fail_saves(journal, lambda _: full[0])
    del board["a3"]
    board["b4"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    assert session.game.history == [] and actions(journal, game_id) == []
    assert session.disk_full is not None and session.screen().header == "Disk full"
    assert told == [], "nothing is told of a move that was not saved"
    full[0] = False
    session.handle(Tick(1.5 * RETRY_FULL_DISK_S))
    assert session.game.history == [Step("a3", "b4")]
    assert [(a["frm"], a["to"]) for a in actions(saved, game_id)] == [("a3", "b4")]
    assert len(told) == 1 and session.disk_full is None
    assert all(played <= journaled for played, journaled in shown)
    assert shown[-1][0] == 1
    saved.close()
    journal.close()


@pytest.mark.parametrize(
    "game",
    ["crosslet", pytest.param("doublecross", marks=pytest.mark.slow), "dominoes", "doubles-wild"],
)
def test_a_game_plays_on_the_same_after_saves_that_failed(game: str, tmp_path: Path) -> None:
    """Whatever kind of turn a save fails in (tiles and a confirm, dice, a domino),
    the game goes on from the journal, and nothing is shown that it does not hold."""
    from firmware_bridge.kits import find_kit
    from firmware_bridge.sim.runner import SimError, SimOptions, Simulation

    path = tmp_path / "j.sqlite"
    sim = Simulation(SimOptions(game, seed=2, journal=path))
    journal = sim.journal
    saved = Journal(path, read_only=True)
    shown: list[tuple[int, int]] = []
    game_id = sim.session.game_id
    sim.session.listeners.append(
        lambda s: shown.append((s["moves_played"], len(actions(saved, game_id))))
    )
    failing = {4, 9, 10, 23}
    fail_saves(journal, failing.__contains__)
    held = 0
    try:
        sim.start()
        for _ in range(len(failing) + 1):
            try:
                sim.play_computer()
                break
            except SimError:
                # The move was refused by the disk: the OLED says so, and it goes in
                # once the disk takes it again.
                assert sim.session.disk_full is not None
                held += 1
                sim.advance(2 * RETRY_FULL_DISK_S)
                assert sim.session.disk_full is None
        session = sim.session
        assert session.game.outcome is not None
        assert held >= 2
        replayed = rebuild(saved, game_id, find_kit(game).new_game)[0]
        assert replayed.history == session.game.history
        assert replayed.outcome == session.game.outcome
        assert all(played <= journaled for played, journaled in shown)
    finally:
        sim.close()
        saved.close()


def test_events_held_stay_held_when_a_later_save_fails_before_their_retry(
    table_rig: TableRig,
    tmp_path: Path,
) -> None:
    """A board status is handled at once, also while events wait; if what it sets off
    cannot be saved either, the events already waiting are still played later."""
    journal = Journal(tmp_path / "j.sqlite")
    session = table_rig(DoubleTake(), journal=journal, journaled_as="sim")
    board = dict.fromkeys(session.game.layout(), OCCUPIED)
    session.handle(BoardSettled(dict(board)))
    fill_the_disk(journal)
    del board["a3"]
    board["b4"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    assert session.game.history == [] and session.disk_full is not None
    # The link drops, and what the referee decided meanwhile (here: the same move,
    # as a stand-in) cannot be saved either.
    session.referee._decisions.append(Commit(Step("a3", "b4")))
    session.handle(BoardStatus(False, "the board's cable is loose"))
    assert session.game.history == []
    session.handle(BoardStatus(True, ""))
    free_space(journal)
    session.handle(Tick(2 * RETRY_FULL_DISK_S))
    assert session.game.history == [Step("a3", "b4")]
    assert session.disk_full is None
    journal.close()
