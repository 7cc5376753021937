"""The session's own rules: what it compares, whom it credits, what it journals."""

from __future__ import annotations

from firmware_bridge.journal import Journal
from firmware_bridge.runtime.session import Session
from firmware_bridge.runtime.takeback import rebuild
from games.core import Resign
from games.double_take.game import DoubleTake, Step
from hardware.board import OCCUPIED, BoardSettled
from tests.tables import TableRig


def make(table_rig: TableRig) -> tuple[Session, Journal]:
    session = table_rig(DoubleTake())
    return session, session.journal


def test_fixes_look_only_at_the_games_own_cells(table_rig: TableRig) -> None:
    session, _ = make(table_rig)
    board = dict.fromkeys(session.game.layout(), OCCUPIED)
    board["scan-pad"] = OCCUPIED  # a cell of the board that the game does not use
    session.handle(BoardSettled(board))
    assert session.fixes() == []
    del board["a1"]
    session.handle(BoardSettled(board))
    assert [(f.action, f.cell) for f in session.fixes()] == [("place", "a1")]


def test_an_action_naming_its_player_is_credited_to_that_player(table_rig: TableRig) -> None:
    session, _ = make(table_rig)
    assert session.game.to_move == 0
    assert session.commit(Resign(1)).accepted
    assert session.last_move is not None and session.last_move["player"] == "green"


def test_an_accepted_action_is_journaled_before_it_is_announced(table_rig: TableRig) -> None:
    session, journal = make(table_rig)
    seen: list[tuple[int, int]] = []
    session.listeners.append(
        lambda state: seen.append((state["moves_played"], len(list(journal.entries(1)))))
    )
    board = dict.fromkeys(session.game.layout(), OCCUPIED)
    session.handle(BoardSettled(dict(board)))
    del board["a3"]
    board["b4"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    assert session.game.history == [Step("a3", "b4")]
    # Every state that shows the move finds it in the journal already.
    shown = [journaled for played, journaled in seen if played]
    assert shown and all(journaled == 1 for journaled in shown)
    assert [e.payload["type"] for e in journal.entries(1)] == ["step"]


def test_a_rejected_action_is_not_journaled(table_rig: TableRig) -> None:
    session, journal = make(table_rig)
    verdict = session.commit(Step("a3", "a4"))
    assert not verdict.accepted
    assert list(journal.entries(1)) == []


def test_a_replayed_game_that_ended_is_marked_over_in_the_journal() -> None:
    journal = Journal(":memory:")
    game_id = journal.new_game("double-take", 2, 1, {}, "t")
    # The power went after the resignation was journaled, before the game was marked over.
    journal.append(game_id, "action", Resign(0).to_dict())
    game = rebuild(journal, game_id, DoubleTake)[0]
    assert game.outcome is not None
    assert journal.unfinished() is None
    assert journal.game(game_id).outcome == game.outcome.to_dict()


class RecordedSignals:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def accepted(self) -> None:
        self.calls.append("accepted")

    def rejected(self) -> None:
        self.calls.append("rejected")

    def attention(self) -> None:
        self.calls.append("attention")

    def game_over(self) -> None:
        self.calls.append("game over")

    def led_status(self, state: object) -> None:
        self.calls.append(f"led {state}")


def test_the_last_action_of_a_game_sounds_game_over_not_accepted(table_rig: TableRig) -> None:
    game = DoubleTake()
    signals = RecordedSignals()
    session = table_rig(game, signals=signals)
    session.commit(Resign(0))
    assert game.outcome is not None
    assert signals.calls[-1] == "game over"
    assert "accepted" not in signals.calls
