"""The computer's levels at the table: every game played to its end at every level,
the levels chosen in ``tabletop sim`` and on the start menu, journaled, and kept by a
game resumed after a kill while the computer was thinking."""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import random
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.journal import Journal
from firmware_bridge.journal.entries import SeatsEntry
from firmware_bridge.kits import KITS
from firmware_bridge.runtime.computer import Computer, parse_levels
from firmware_bridge.runtime.lobby_levels import change_seat, saved_levels, who
from firmware_bridge.sim.runner import SimOptions, Simulation
from games.core import Action, Game
from games.double_take.game import DoubleTake, Step
from games.levels import BEGINNER, EXPERT, NAMES, STANDARD
from tests.firmware_bridge import level_kill

MAX_ACTIONS = 5000


def _decide(player: object, game: Game, dice: random.Random) -> Action:
    decide = getattr(player, "decide", None)
    if decide is None:
        return player.choose(game)  # type: ignore[attr-defined, no-any-return]
    action: Action | None = decide(game)
    if action is not None:
        return action
    from games.doubles_wild.game import dice_action

    kind, count = player.roll_needed(game)  # type: ignore[attr-defined]
    return dice_action(kind, tuple(dice.randint(1, 6) for _ in range(count)))


@pytest.mark.parametrize("level", sorted(NAMES))
@pytest.mark.parametrize("name", sorted(KITS))
def test_every_game_is_played_to_its_end_by_a_computer_at_every_level(
    name: str, level: int
) -> None:
    kit = KITS[name]
    game = kit.new_game(2, random.Random(11), {})
    players = [
        kit.make_player(game, random.Random(seat), lv) for seat, lv in enumerate((level, STANDARD))
    ]
    dice = random.Random(3)
    for _ in range(MAX_ACTIONS):
        if game.outcome is not None:
            break
        action = None
        for seat in game.out_of_turn_seats():
            action = players[seat].out_of_turn(game, seat)
            if action is not None:
                break
        if action is None:
            action = _decide(players[game.to_move], game, dice)
        verdict = game.judge(action)
        assert verdict.accepted, (action, verdict.reason)
        game.apply(action)
    assert game.outcome is not None, f"{name} at level {level} did not finish"


@pytest.mark.parametrize("name", sorted(KITS))
def test_a_level_asked_for_by_name_or_number_is_the_same_player(name: str) -> None:
    kit = KITS[name]
    game = kit.new_game(2, random.Random(2), {})
    by_number = type(kit.make_player(game, random.Random(0), EXPERT))
    assert type(kit.make_player(game, random.Random(0), "expert")) is by_number  # type: ignore[arg-type]
    assert type(kit.make_player(game, random.Random(0))) is type(
        kit.make_player(game, random.Random(0), STANDARD)
    )


def test_the_same_position_gets_the_same_move_at_every_level() -> None:
    kit = KITS["double-take"]
    game = kit.new_game(2, random.Random(1), {})
    for level in NAMES:
        computer = Computer(kit.make_player, 9, {0}, {0: level})
        first = computer.advise(game)
        again = Computer(kit.make_player, 9, {0}, {0: level}).advise(game)
        assert first == again


def test_levels_are_read_from_seats_and_names() -> None:
    assert parse_levels(["2=expert"], [], 2) == {1: EXPERT}
    assert parse_levels(["1=1"], ["3"], 2) == {0: BEGINNER, 1: EXPERT}
    assert parse_levels([], ["standard"], 3) == {}  # the default is not recorded
    with pytest.raises(ValueError, match="seat from 1 to 2"):
        parse_levels(["3=expert"], [], 2)
    with pytest.raises(ValueError, match="is not a level; give 1 \\(beginner\\)"):
        parse_levels(["1=grandmaster"], [], 2)


def _sim(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["sim", *args], out=out)
    return code, out.getvalue(), err.getvalue()


def _seats(path: Path) -> list[SeatsEntry]:
    journal = Journal(path)
    try:
        record = journal.games()[-1]
        return [e for e in journal.entries(record.id) if isinstance(e, SeatsEntry)]
    finally:
        journal.close()


def test_tabletop_sim_plays_each_seat_at_its_level_and_journals_it(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    code, out, _ = _sim(
        "--game", "double-take", "--level", "1=expert", "--option", "level=1",
        "--journal", str(path),
    )  # fmt: skip
    assert code == 0
    assert "red (computer, expert) vs green (computer, beginner)" in out
    assert "wins" in out
    (entry,) = _seats(path)
    assert entry.computer == {0, 1} and dict(entry.levels) == {0: EXPERT, 1: BEGINNER}
    assert entry.payload == {"computer": [0, 1], "levels": {"0": 3, "1": 1}}


def test_a_level_that_is_not_one_is_refused_in_a_line() -> None:
    code, _, err = _sim("--game", "double-take", "--level", "1=9")
    assert code == 2
    assert err.splitlines() == [
        "tabletop: --level: 9 is not a level; give 1 (beginner), 2 (standard), 3 (expert)"
    ]
    code, _, err = _sim("--game", "double-take", "--level", "expert")
    assert code == 2 and "give SEAT=LEVEL with a seat from 1 to 2" in err


def test_a_seat_at_the_default_level_is_journaled_as_it_always_was(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    sim = Simulation(SimOptions("double-take", seed=2, journal=path, humans=frozenset({0})))
    sim.close()
    (entry,) = _seats(path)
    assert entry.payload == {"computer": [1]}


def test_the_start_menu_moves_a_seat_along_person_and_the_levels() -> None:
    computer: set[int] = set()
    levels: dict[int, int] = {}
    seen = []
    for _ in range(4):
        change_seat(computer, levels, 0, +1)
        seen.append(who(computer, levels, 0))
    assert seen == ["computer", "computer expert", "person", "computer"]
    change_seat(computer, levels, 0, -1)
    assert who(computer, levels, 0) == "computer beginner" and levels == {0: BEGINNER}
    # Remembered as {"0": 1}; a seat no longer the computer's forgets its level.
    assert saved_levels({"0": 1, "1": 3}, {0}) == {0: BEGINNER}
    assert saved_levels({"0": 7}, {0}) == {}


def test_a_game_killed_while_the_expert_thinks_resumes_with_the_same_levels(
    tmp_path: Path,
) -> None:
    path = tmp_path / "killed.sqlite"
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=level_kill.life, args=(path, theirs))
    proc.start()
    theirs.close()
    try:
        assert ours.poll(120), "the simulated table never reached the expert's sixth move"
        assert ours.recv_bytes() == level_kill.THINKING
    finally:
        proc.kill()
        proc.join(30)
    assert proc.exitcode is not None and proc.exitcode < 0  # killed, not finished
    sim = Simulation(SimOptions("double-take", journal=path))
    try:
        assert sim.resumed
        computer = sim.session.computer
        assert computer is not None
        assert computer.seats == {0, 1} and computer.levels == level_kill.LEVELS
        assert computer.level_names() == {0: "expert", 1: "beginner"}
        assert computer.deliver is not None  # it thinks on the worker, as before the kill
        moves_before = len(sim.session.game.history)
        assert moves_before > 0 and sim.session.game.outcome is None
        sim.start()
        sim.play_computer()
        assert sim.session.game.outcome is not None
    finally:
        sim.close()
    (entry,) = _seats(path)
    assert dict(entry.levels) == level_kill.LEVELS


@pytest.mark.parametrize("name", sorted(KITS))
def test_every_game_is_finished_at_the_table_by_an_expert_and_a_beginner(name: str) -> None:
    # Both seats the computer's at the table: each move shown on the OLED and made by
    # the simulated hand, as the people at a real table would make it.
    sim = Simulation(SimOptions(name, seed=1, humans=frozenset(), levels={0: EXPERT, 1: BEGINNER}))
    try:
        sim.start()
        sim.play_computer()
        assert sim.session.game.outcome is not None
        computer = sim.session.computer
        assert computer is not None and computer.level_names() == {0: "expert", 1: "beginner"}
    finally:
        sim.close()


def test_a_persons_hint_comes_from_the_strongest_level() -> None:
    # Red has three home: h8-g9 wins, which the standard player passes by for c3-d4's take.
    red = dict.fromkeys(["a9", "c9", "e9", "h8", "c3", "f4"], 0)
    green = dict.fromkeys(["e4", "b7", "d7", "f5", "h5"], 1)
    game = DoubleTake.from_position({**red, **green}, 0)
    kit = KITS["double-take"]
    hint = Computer(kit.make_player, 4, seats={1}).advise(game)
    assert hint == Step("h8", "g9")
    # A computer seat still plays at its own level: the standard player takes.
    assert Computer(kit.make_player, 4, seats={0}).advise(game) == Step("c3", "d4", ("e4",))
