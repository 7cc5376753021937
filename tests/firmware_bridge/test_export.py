"""A game record exported from the journal carries the facts the table showed."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.apps.export import export_game, result_text
from firmware_bridge.journal import Journal, JournalError
from games.core import Resign
from games.double_take.game import DoubleTake
from tests.tables import TableRig


def test_an_action_naming_its_player_is_exported_as_that_players(
    table_rig: TableRig, tmp_path: Path
) -> None:
    path = tmp_path / "g.sqlite"
    with Journal(path) as journal:
        game = DoubleTake()
        session = table_rig(game, journal=journal)
        assert game.to_move == 0
        session.commit(Resign(1))
        assert session.last_move is not None
        shown = session.last_move["player"]
    record = export_game(path)
    assert [m["player"] for m in record["moves"]] == [shown] == ["green"]


def test_an_entry_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Journal(path) as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "t")
        journal.append(game_id, "action", {"type": "step", "frm": "z9", "to": "a4"})
    with pytest.raises(JournalError, match="entry 1"):
        export_game(path)


def test_each_computer_seat_is_exported_with_its_level(tmp_path: Path) -> None:
    from firmware_bridge.apps.export import text_record

    path = tmp_path / "g.sqlite"
    with Journal(path) as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "t")
        journal.append(game_id, "seats", {"computer": [0, 1], "levels": {"1": 3}})
        journal.append(game_id, "seats", {"computer": [1], "levels": {"1": 1}})
    record = export_game(path)
    seats = record["seats"]
    # The last seats entry stands: seat 1 at beginner, seat 0 a person's again.
    assert record["computer"] == {seats[1]: "beginner"}
    assert f"{seats[0]}, {seats[1]} computer (beginner)" in text_record(record)


def test_a_computer_seat_at_the_default_level_is_exported_as_standard(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Journal(path) as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "t")
        journal.append(game_id, "seats", {"computer": [0]})
    record = export_game(path)
    assert record["computer"] == {record["seats"][0]: "standard"}
    plain = tmp_path / "p.sqlite"
    with Journal(plain) as journal:
        journal.new_game("double-take", 2, 1, {}, "t")
    assert export_game(plain)["computer"] == {}


def test_a_result_says_who_won_a_draw_or_an_abandoned_game() -> None:
    seats = ["red", "green"]
    assert result_text(None, seats) == "not finished"
    assert result_text({"winners": [1], "reason": "red resigned"}, seats) == (
        "green wins: red resigned"
    )
    assert result_text({"winners": [], "draw": True, "reason": "no moves"}, seats) == (
        "draw: no moves"
    )
    abandoned = {
        "winners": [],
        "draw": False,
        "reason": "bob abandoned the game",
        "abandoned": "bob",
    }
    # Nobody won a game given up while it waited for the other board.
    assert result_text(abandoned, seats) == "abandoned: bob abandoned the game"


def test_moves_are_numbered_by_their_place_in_the_game_whatever_was_taken_back(
    tmp_path: Path,
) -> None:
    """A journal that took moves back (as a guest board does when the host refuses
    one) exports the same record as one that played the standing moves straight."""
    game = DoubleTake()
    first, second = game.legal_actions()[:2]
    game.apply(first)
    reply = game.legal_actions()[0]
    records = []
    for name, inputs in {
        "straight": [("action", first), ("action", reply)],
        "taken back": [
            ("action", second),
            ("takeback", {"undo": [1]}),
            ("action", first),
            ("action", reply),
        ],
    }.items():
        path = tmp_path / f"{name}.sqlite"
        with Journal(path) as journal:
            game_id = journal.new_game("double-take", 2, 1, {}, "t")
            for kind, payload in inputs:
                data = payload if isinstance(payload, dict) else payload.to_dict()
                journal.append(game_id, kind, data)
        record = export_game(path)
        for move in record["moves"]:
            del move["at"]
        records.append({k: v for k, v in record.items() if k not in ("started", "finished")})
    straight, taken_back = records
    assert [m["n"] for m in straight["moves"]] == [1, 2]
    assert taken_back == straight
