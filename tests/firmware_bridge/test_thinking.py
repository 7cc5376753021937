"""The computer thinks off the loop's thread: while it thinks the board and the buttons
are handled at once, the OLED says it thinks after 300 ms, its move is shown once it
comes back, a move that comes back for a position since taken back is dropped, and the
simulated clock moves on by the time each think took. A hint (a long press of ok) is
thought the same way: the press returns at once, the table is handled meanwhile, the
hint shows once it comes back, and one for a position since changed is dropped."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from firmware_bridge.kits import KITS
from firmware_bridge.runtime.computer import Computer
from firmware_bridge.runtime.thinking import THINKING_AFTER_S, Thought, thinker
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line, parse_all
from games.core import Action, Game, Player
from games.double_take.game import Step
from games.levels import EXPERT

WAIT_S = 30.0
"""The longest a test waits (in real time) for the worker; it never takes nearly so long."""


class SlowPlayer(Player):
    """The standard player, thinking until the test lets it answer."""

    def __init__(self, inner: Player, started: threading.Event, release: threading.Event):
        self.inner, self.started, self.release = inner, started, release

    def choose(self, game: Game) -> Action:
        self.started.set()
        assert self.release.wait(WAIT_S), "the test never let the computer answer"
        return self.inner.choose(game)


class Slow:
    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()


def shown(sim: Simulation) -> str:
    return " ".join(sim.session.state().oled)


@pytest.fixture
def slow_table() -> Iterator[tuple[Simulation, Slow]]:
    """Double Take, red a person, green the computer, whose thinking the test holds."""
    sim = Simulation(SimOptions("double-take", seed=3, humans=frozenset({0})))
    slow = Slow()
    computer = sim.session.computer
    assert computer is not None and computer.deliver is not None  # it thinks on the worker
    make = KITS["double-take"].make_player

    def make_slow(game: Game, rng: random.Random, *level: int) -> Player:
        return SlowPlayer(make(game, rng, *level), slow.started, slow.release)

    computer.make_player = make_slow
    try:
        sim.start()
        for line in parse_all("lift a3\nplace b4 red\n"):
            sim.run_line(line)  # red's move; line by line, so the computer is not waited for
        assert len(sim.session.game.history) == 1
        assert slow.started.wait(WAIT_S), "the computer was never asked for its move"
        yield sim, slow
    finally:
        slow.release.set()
        thinker().wait(WAIT_S)
        sim.close()


def test_the_oled_says_the_computer_thinks_after_300_ms(
    slow_table: tuple[Simulation, Slow],
) -> None:
    sim, _ = slow_table
    computer = sim.session.computer
    assert computer is not None
    asked = computer.thinking(sim.session.game)
    assert asked is not None and asked.seat == 1
    sim.advance(THINKING_AFTER_S / 2)
    assert "Thinking" not in shown(sim)
    sim.advance(THINKING_AFTER_S)
    assert "Thinking... Green (standard)" in shown(sim)  # the font's "…"
    assert computer.expected(sim.session.game) is None  # not known yet


def test_a_button_and_a_piece_are_handled_while_the_computer_thinks_then_its_move_shows(
    slow_table: tuple[Simulation, Slow],
) -> None:
    sim, slow = slow_table
    sim.advance(0.5)
    # A press: the back menu opens at once, the computer still thinking.
    sim.run_line(Line("person", 1, "hold", ("back",)))
    assert "take back?" in shown(sim)
    assert not slow.release.is_set()
    sim.run_line(Line("person", 2, "press", ("ok",)))  # "no, play on"
    assert "take back?" not in shown(sim)
    # A piece of the computer's lifted: read and shown at once.
    layout = sim.session.game.layout()
    cell = next(c for c, piece in sorted(layout.items()) if piece.label == "green")
    sim.run_line(Line("person", 3, "lift", (cell,), deliberate=True))
    assert "Put the piece down." in shown(sim)
    assert len(sim.session.game.history) == 1 and not slow.release.is_set()
    sim.run_line(Line("person", 4, "place", (cell, "green"), deliberate=True))
    assert "Put the piece down." not in shown(sim)
    # Let the computer answer: its move is shown as soon as it comes back.
    slow.release.set()
    assert thinker().wait(WAIT_S)
    sim.advance(sim.step_s)
    expected = sim.session.expected()
    assert isinstance(expected, Step)
    assert f"Computer: {sim.session.view.instruct(expected)}" in shown(sim)
    assert "Thinking" not in shown(sim)
    sim.play_computer_seats()
    assert sim.session.game.history[1] == expected


def test_a_move_made_for_the_computer_while_it_thinks_is_refused(
    slow_table: tuple[Simulation, Slow],
) -> None:
    sim, slow = slow_table
    game = sim.session.game
    step = next(a for a in game.legal_actions() if isinstance(a, Step) and not a.captures)
    sim.run_line(Line("person", 1, "lift", (step.frm,), deliberate=True))
    sim.run_line(Line("person", 2, "place", (step.to, "green"), deliberate=True))
    state = sim.session.state()
    assert len(sim.session.game.history) == 1
    assert state.verdict is not None
    assert state.verdict["reason"] == "the computer is thinking: put the board back"
    assert not slow.release.is_set()


def test_a_move_thought_for_a_position_taken_back_is_dropped(
    slow_table: tuple[Simulation, Slow],
) -> None:
    sim, slow = slow_table
    computer = sim.session.computer
    assert computer is not None
    old_game = sim.session.game
    learnt: list[bool] = []
    learn = computer.learn

    def counted(thought: Thought, game: Game) -> bool:
        learnt.append(learn(thought, game))
        return learnt[-1]

    computer.learn = counted  # type: ignore[method-assign]
    for line in parse_all("takeback\n"):
        sim.run_line(line)  # red's move taken back while the computer thinks
    assert not slow.release.is_set()
    sim.set_up()
    assert sim.session.game is not old_game and sim.session.game.history == []
    slow.release.set()
    assert thinker().wait(WAIT_S)
    sim.advance(0.2)
    assert learnt == [False], "the move thought for the position taken back is dropped"
    assert sim.session.expected() is None  # red to move again
    assert sim.session.game.history == []
    assert "Computer:" not in shown(sim) and "Thinking" not in shown(sim)


def test_the_simulated_clock_moves_on_by_each_think() -> None:
    sim = Simulation(SimOptions("double-take", seed=2, humans=frozenset(), levels={0: EXPERT}))
    computer = sim.session.computer
    assert computer is not None
    thinks: list[tuple[float, float]] = []
    learn = computer.learn

    def timed(thought: Thought, game: Game) -> bool:
        asked = computer.asked
        if asked is not None and asked.game is thought.game:
            thinks.append((asked.since, thought.seconds))
        return learn(thought, game)

    computer.learn = timed  # type: ignore[method-assign]
    made: list[float] = []
    sim.commits.append(lambda played: made.append(sim.clock.now()))
    try:
        sim.start()
        sim.play_computer(max_plies=12)
    except Exception as exc:  # the game did not end in 12 plies: enough were made
        assert "did not end" in str(exc)
    finally:
        sim.close()
    assert len(thinks) >= 12 and len(made) >= 12
    # Each move is made after the clock passed its think: since + seconds.
    for (since, seconds), at in zip(thinks, made, strict=False):
        assert at >= since + seconds - 1e-9
    assert sum(seconds for _, seconds in thinks) > 0


def test_a_computer_not_on_a_loop_chooses_at_once() -> None:
    kit = KITS["double-take"]
    game = kit.new_game(2, random.Random(1), {})
    computer = Computer(kit.make_player, 9, {0})
    assert computer.deliver is None
    assert computer.expected(game) == computer.advise(game)
    assert computer.thinking(game) is None


def test_a_thought_for_another_game_or_move_is_dropped() -> None:
    kit = KITS["double-take"]
    game = kit.new_game(2, random.Random(1), {})
    came: list[Any] = []
    now = [0.0]
    computer = Computer(kit.make_player, 9, {0})
    computer.deliver, computer.clock = came.append, lambda: now[0]
    assert computer.expected(game) is None  # asked of the worker
    assert thinker().wait(WAIT_S) and len(came) == 1
    other = kit.new_game(2, random.Random(1), {})
    assert not computer.learn(Thought(other, 0, came[0].action, 0.0), game)
    assert not computer.learn(Thought(game, 1, came[0].action, 0.0), game)
    now[0] = 60.0  # the loop's clock past the think
    assert computer.learn(came[0], game)
    assert (
        computer.expected(game) == came[0].action == Computer(kit.make_player, 9, {0}).advise(game)
    )


@pytest.fixture
def slow_hint() -> Iterator[tuple[Simulation, Slow, list[Thought]]]:
    """Double Take between two people, the hints' thinking held by the test; the hints
    that came back to the session, as they came."""
    sim = Simulation(SimOptions("double-take", seed=3, humans=frozenset({0, 1})))
    slow = Slow()
    computer = sim.session.computer
    assert computer is not None and computer.deliver is not None
    make = KITS["double-take"].make_player

    def make_slow(game: Game, rng: random.Random, *level: int) -> Player:
        return SlowPlayer(make(game, rng, *level), slow.started, slow.release)

    came: list[Thought] = []
    thought = sim.session.thought

    def kept(each: Thought) -> None:
        came.append(each)
        thought(each)

    sim.session.thought = kept  # type: ignore[method-assign,assignment]
    computer.make_player = make_slow
    try:
        sim.start()
        sim.run_line(Line("person", 1, "hold", ("ok",)))  # the hint asked for
        assert slow.started.wait(WAIT_S), "the computer was never asked for the hint"
        yield sim, slow, came
    finally:
        slow.release.set()
        thinker().wait(WAIT_S)
        sim.close()


def test_a_hint_asked_for_returns_at_once_and_says_it_thinks(
    slow_hint: tuple[Simulation, Slow, list[Thought]],
) -> None:
    sim, slow, came = slow_hint
    assert not slow.release.is_set() and came == []  # the press was handled: no hint yet
    assert "Hint: thinking... " in shown(sim) + " "
    assert sim.session.facts.prompt.hint_action is None


def test_a_button_and_a_piece_are_handled_while_the_hint_thinks_then_it_shows(
    slow_hint: tuple[Simulation, Slow, list[Thought]],
) -> None:
    sim, slow, came = slow_hint
    sim.run_line(Line("person", 2, "hold", ("back",)))
    assert "take back?" in shown(sim)
    sim.run_line(Line("person", 3, "press", ("ok",)))  # "no, play on"
    assert "take back?" not in shown(sim)
    sim.run_line(Line("person", 4, "lift", ("a3",)))
    assert "Put the piece down." in shown(sim)
    sim.run_line(Line("person", 5, "place", ("a3", "red"), deliberate=True))
    assert "Put the piece down." not in shown(sim)
    assert not slow.release.is_set() and came == [] and sim.session.game.history == []
    assert "Hint: thinking..." in shown(sim)  # still thought, over the events since
    slow.release.set()
    assert thinker().wait(WAIT_S)
    sim.computer.await_thought()  # the clock runs on by the think
    assert len(came) == 1 and came[0].hint
    advice, seed = came[0].action, sim.session.computer.seed  # type: ignore[union-attr]
    assert advice is not None
    assert advice == Computer(KITS["double-take"].make_player, seed).advise(sim.session.game)
    assert f"Hint: {sim.session.view.instruct(advice)}" in shown(sim)
    assert sim.session.facts.prompt.hint_action == advice
    assert sim.session.game.history == []
    assert sim.clock.now() >= came[0].seconds  # shown no sooner than it was thought


def test_a_hint_thought_for_a_position_since_changed_is_dropped(
    slow_hint: tuple[Simulation, Slow, list[Thought]],
) -> None:
    sim, slow, came = slow_hint
    for line in parse_all("lift a3\nplace b4 red\n"):
        sim.run_line(line)  # red moves while the hint thinks
    assert len(sim.session.game.history) == 1 and not slow.release.is_set()
    assert "Hint:" not in shown(sim)  # the hint was for the position before
    slow.release.set()
    assert thinker().wait(WAIT_S)
    sim.advance(0.2)
    assert len(came) == 1 and came[0].hint and came[0].played == 0
    assert "Hint:" not in shown(sim) and sim.session.facts.prompt.hint_action is None
    assert len(sim.session.game.history) == 1


def test_a_hint_not_on_a_loop_is_thought_at_once() -> None:
    kit = KITS["double-take"]
    game = kit.new_game(2, random.Random(1), {})
    computer = Computer(kit.make_player, 9)
    assert computer.deliver is None
    assert computer.hint(game) == computer.advise(game)
    assert computer.hint_asked is None and computer.hint_note(game) == ""


def test_a_hint_that_comes_while_a_menu_is_open_is_not_shown(
    slow_hint: tuple[Simulation, Slow, list[Thought]],
) -> None:
    sim, slow, came = slow_hint
    sim.run_line(Line("person", 2, "hold", ("back",)))
    assert "take back?" in shown(sim)
    slow.release.set()
    assert thinker().wait(WAIT_S)
    sim.computer.await_thought()
    assert len(came) == 1 and came[0].action is not None
    assert "take back?" in shown(sim) and sim.session.facts.prompt.hint_action is None
    sim.run_line(Line("person", 3, "press", ("ok",)))  # "no, play on"
    assert "Hint:" not in shown(sim)


def test_crosslets_own_hint_is_thought_off_the_loop_too(kit_lexicon: Any) -> None:
    """Crosslet's hint is the generator's best placement, not the computer's choice: it
    is found on the worker as well, the table handled meanwhile."""
    from tests.firmware_bridge.kits.crosslet.test_sim import DEALT

    options = {"bag": DEALT, "first": 1}
    sim = Simulation(SimOptions("crosslet", options=options, humans=frozenset({0, 1})))
    slow = Slow()
    try:
        sim.start()
        game = sim.session.game
        best = game.hint()
        assert best is not None

        def slow_hint() -> Action | None:
            slow.started.set()
            assert slow.release.wait(WAIT_S), "the test never let the hint answer"
            return best

        game.hint = slow_hint  # type: ignore[method-assign]
        sim.run_line(Line("person", 1, "hold", ("ok",)))
        assert slow.started.wait(WAIT_S), "the hint was never asked of the worker"
        turn = sim.session.referee.turn  # type: ignore[attr-defined]
        assert not turn.hint_asked and "Hint: thinking... " in shown(sim) + " "
        sim.run_line(Line("person", 2, "press", ("back",)))  # the menu opens meanwhile
        assert "pass" in shown(sim)
        sim.run_line(Line("person", 3, "press", ("back",)))
        slow.release.set()
        assert thinker().wait(WAIT_S)
        sim.computer.await_thought()
        sim.run_line(Line("person", 4, "hold", ("ok",)))  # asked again: known at once
        assert turn.hint_asked and turn.hint == best
    finally:
        slow.release.set()
        thinker().wait(WAIT_S)
        sim.close()
