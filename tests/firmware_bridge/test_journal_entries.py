"""The journal's inputs come back typed: an action, a take-back, the computer's seats,
each with its own fields; a stored row that is not what its kind says is refused with
what is wrong, not read as something else."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.journal import (
    ActionEntry,
    Journal,
    JournalError,
    SeatsEntry,
    TakeBackEntry,
)


def test_each_kind_is_read_into_its_type(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as journal:
        game = journal.new_game("dominoes", 2, 1, {}, "dominoes-gpio")
        first = journal.append(game, "action", {"type": "draw"})
        journal.append(game, "takeback", {"undo": [first]})
        journal.append(game, "seats", {"computer": [1]})
        action, takeback, seats = journal.entries(game)
    assert isinstance(action, ActionEntry) and action.action == {"type": "draw"}
    assert isinstance(takeback, TakeBackEntry) and takeback.undo == (first,)
    assert isinstance(seats, SeatsEntry) and seats.computer == frozenset({1})
    # What is stored is what each gives back.
    assert [e.payload for e in (action, takeback, seats)] == [
        {"type": "draw"},
        {"undo": [first]},
        {"computer": [1]},
    ]


@pytest.mark.parametrize(
    ("kind", "payload", "said"),
    [
        ("takeback", {"undo": "the last one"}, "take-back is 'the last one', not a list"),
        ("takeback", {}, "take-back is None, not a list"),
        ("seats", {"computer": [True]}, r"computer seats is \[True\], not a list"),
    ],
)
def test_a_row_that_is_not_what_its_kind_says_is_refused(
    tmp_path: Path, kind: str, payload: dict[str, object], said: str
) -> None:
    with Journal(tmp_path / "j.sqlite") as journal:
        game = journal.new_game("dominoes", 2, 1, {}, "dominoes-gpio")
        journal.append(game, kind, payload)
        with pytest.raises(JournalError, match=said):
            journal.entries(game)
