"""The Double Take referee in a session, fed settled boards by hand."""

from __future__ import annotations

from firmware_bridge.kits.double_take.referee import DoubleTakeReferee
from games.core import Pass, Resign
from games.double_take.game import GREEN, RED, DoubleTake, Step
from hardware.board import OCCUPIED, BoardSettled
from tests.tables import TableRig


def test_a_resumed_stuck_player_passes_once_the_board_is_seen(table_rig: TableRig) -> None:
    # Red has no piece left to move: the power went before its pass was journaled.
    pieces = dict.fromkeys(("h3", "e6", "f5", "a2", "f3"), GREEN)
    game = DoubleTake.from_position(pieces, RED)
    session = table_rig(game)
    journal = session.journal
    session.handle(BoardSettled(dict.fromkeys(game.layout(), OCCUPIED)))
    assert game.history == [Pass()]
    assert [e.payload for e in journal.entries(session.game_id)] == [Pass().to_dict()]
    assert session.screen().lines[0] == "Red cannot move: passes"
    assert session.state().oled[1:3] == ["Red cannot", "move: passes"], "wrapped as drawn"


def test_footprints_follow_the_position_move_after_move(table_rig: TableRig) -> None:
    game = DoubleTake()
    session = table_rig(game)
    referee = session.referee
    assert isinstance(referee, DoubleTakeReferee)
    for _ in range(12):
        steps = [a for a in game.legal_actions() if isinstance(a, Step)]
        prints = referee.footprints()
        assert [fp.action for fp in prints] == steps
        assert all(fp.places == {s.to} for fp, s in zip(prints, steps, strict=True))
        assert all(fp.lifts == {s.frm, *s.captures} for fp, s in zip(prints, steps, strict=True))
        session.commit(max(steps, key=lambda s: (len(s.captures), s.frm, s.to)))
    game.apply(Resign(game.to_move))
    assert referee.footprints() == []
