"""The computer at a real table: its move shown as an instruction, carried out by the
people (here the simulated hand reading the OLED), and a different move refused."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.kits import KITS
from firmware_bridge.runtime.computer import parse_seats, same_move
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line, parse_all
from games.double_take.game import DoubleTakePlayer, Step
from games.doubles_wild.actions import Roll


def shown(sim: Simulation) -> str:
    return " ".join(sim.session.state().oled)


def test_a_person_plays_the_computer_whose_moves_are_made_as_the_oled_says() -> None:
    sim = Simulation(SimOptions("double-take", seed=3, humans=frozenset({0})))
    person = DoubleTakePlayer(random.Random(7))
    computer_moves = 0
    try:
        sim.start()
        for _ in range(400):
            game = sim.session.game
            if game.outcome is not None:
                break
            if game.to_move == 0:
                # The person's move, as script lines.
                for step in sim.hand.steps(person.choose(game)):
                    sim.run_line(Line("person", 1, step[0], tuple(step[1:])))
                continue
            expected = sim.session.expected()
            assert expected is not None
            instruction = sim.session.view.instruct(expected)
            assert f"Computer: {instruction}" in shown(sim)
            before = len(game.history)
            sim.play_computer_seats()
            assert sim.session.game.history[before] == expected
            computer_moves += 1
        assert sim.session.game.outcome is not None, "the game must end"
        assert computer_moves > 5
    finally:
        sim.close()


def test_a_move_that_is_not_the_computers_is_refused_with_fixes() -> None:
    sim = Simulation(SimOptions("double-take", seed=3, humans=frozenset({0})))
    try:
        sim.start()
        for line in parse_all("lift a3\nplace b4 red\n"):
            sim.run_line(line)  # line by line: run_script would let the computer move too
        expected = sim.session.expected()
        assert isinstance(expected, Step)
        other = next(
            a
            for a in sim.session.game.legal_actions()
            if isinstance(a, Step) and a.frm != expected.frm and not a.captures
        )
        sim.run_line(Line("person", 1, "lift", (other.frm,)))
        sim.run_line(Line("person", 2, "place", (other.to, "green")))
        state = sim.session.state()
        assert state.verdict["accepted"] is False
        assert state.verdict["reason"].startswith("the computer plays")
        assert {f["cell"] for f in state.fixes} == {other.frm, other.to}
        assert len(sim.session.game.history) == 1
    finally:
        sim.close()


def test_a_roll_is_the_computers_roll_whatever_the_dice_show() -> None:
    assert same_move(Roll((1, 2), (3, 4)), Roll((6, 6), (5, 5)))
    assert not same_move(Step("a3", "b4", ()), Step("a3", "c4", ()))


def test_the_seats_of_people_are_checked() -> None:
    assert parse_seats("1,3", 4) == {0, 2}
    with pytest.raises(ValueError, match="'5' is not a seat; give seats from 1 to 4"):
        parse_seats("5", 4)
    with pytest.raises(ValueError, match="seat 1 is named twice"):
        parse_seats("1,1", 4)
    with pytest.raises(ValueError, match="'x' is not a seat"):
        parse_seats("x", 2)


def test_humans_without_a_script_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sim", "--game", "double-take", "--humans", "1"], io.StringIO())
    assert code == 2
    assert "--humans: the people's seats are played by a --script" in capsys.readouterr().err


def test_a_resumed_game_keeps_its_computer_seats(tmp_path: Path) -> None:
    journal = tmp_path / "game.db"
    sim = Simulation(SimOptions("double-take", seed=3, journal=journal, humans=frozenset({0})))
    try:
        sim.start()
        for line in parse_all("lift a3\nplace b4 red\n"):
            sim.run_line(line)
    finally:
        sim.close()
    again = Simulation(SimOptions("double-take", journal=journal))
    try:
        computer = again.session.computer
        assert computer is not None and computer.seats == {1}
        assert again.session.expected() is not None
    finally:
        again.close()


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n == "doublecross" else n for n in sorted(KITS)],
)
def test_every_game_plays_a_person_against_the_computer_to_the_end(name: str) -> None:
    sim = Simulation(SimOptions(name, seed=3, humans=frozenset({0})))
    try:
        sim.start()
        person = sim.kit.make_player(sim.session.game, random.Random(7))
        for _ in range(3000):
            game = sim.session.game
            if game.outcome is not None:
                break
            expected = sim.session.expected()
            before = len(game.history)
            if expected is None:
                for step in sim.hand.steps(person.choose(game)):
                    sim.run_line(Line("person", 1, step[0], tuple(step[1:])))
            else:
                assert f"Computer: {sim.session.view.instruct(expected)}" in shown(sim)
                sim.play_computer_seats()
                assert same_move(expected, sim.session.game.history[before])
            assert len(sim.session.game.history) > before, sim.session.state().oled
        assert sim.session.game.outcome is not None
    finally:
        sim.close()


def test_a_computer_that_cannot_choose_leaves_the_turn_to_the_people() -> None:
    from firmware_bridge.runtime.computer import Computer
    from games.core import Game, Player

    class Stuck(Player):
        def choose(self, game: Game) -> Step:
            raise ValueError("its rack was never seen")

    sim = Simulation(SimOptions("double-take", seed=3))
    try:
        computer = Computer(lambda game, rng: Stuck(), 3, {0})
        assert computer.expected(sim.session.game) is None
        assert computer.expected(sim.session.game) is None  # asked again: no second try
    finally:
        sim.close()


def _stuck_doublecross(tmp_path: Path) -> dict[str, object]:
    """DoubleCross options where no one can lay a tile and the bag is empty: only a
    round of passes and the last passer's end can finish the game."""
    from firmware_bridge.apps.setup_file import game_options

    words = tmp_path / "words.txt"
    words.write_text("cat\ncats\nact\n", encoding="utf-8")
    options = game_options("doublecross", ["start_word=CAT", "first=1"], None, 2, words)
    return {**options, "racks": ["ZJ", "QX"], "bag": "", "specials": {}}


def test_computer_players_stuck_in_passes_end_the_game_as_the_last_passer(
    tmp_path: Path,
) -> None:
    from games.doublecross.game import EndGame, EndTurn

    sim = Simulation(SimOptions("doublecross", seed=1, options=_stuck_doublecross(tmp_path)))
    try:
        sim.start()
        sim.play_computer()
        game = sim.session.game
        assert game.history == [EndTurn(), EndTurn(), EndGame(1)]
        assert game.outcome is not None
        assert game.outcome.reason == "the last passer ended the game"
    finally:
        sim.close()


def test_a_computer_seat_that_passed_last_ends_the_game_while_a_person_is_to_move(
    tmp_path: Path,
) -> None:
    from games.doublecross.game import EndGame, EndTurn

    options = _stuck_doublecross(tmp_path)
    sim = Simulation(SimOptions("doublecross", seed=1, options=options, humans=frozenset({0})))
    try:
        sim.start()
        sim.set_up()
        game = sim.session.game
        assert sim.session.expected() is None  # the person's turn, and no one may end it
        sim.run_line(Line("person", 1, "press", ("ok",)))  # the person passes
        assert sim.session.expected() == EndTurn()  # the computer has nothing to lay
        for step in sim.hand.steps(EndTurn()):
            sim.run_line(Line("computer", 2, step[0], tuple(step[1:])))
        assert (game.to_move, game.outcome) == (0, None)
        # The computer was the last of the round of passes: it ends the game although
        # the person is to move, and the OLED says so.
        expected = sim.session.expected()
        assert expected == EndGame(1)
        assert f"Computer: {sim.session.view.instruct(expected)}" in shown(sim)
        sim.play_computer_seats()
        assert game.history[-1] == EndGame(1)
        assert game.outcome is not None
    finally:
        sim.close()
