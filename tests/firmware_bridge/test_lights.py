"""The lights under the squares: the layers and their order, a move's cells from the
layouts around it, and the computer's move lit on the board in every game."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from firmware_bridge.kits import KITS
from firmware_bridge.referees.fixes import Fix, FixAction
from firmware_bridge.runtime.lights import (
    Lighting,
    Lit,
    Moved,
    Situation,
    action_moved,
    compose,
    fix_lights,
    layout_moved,
    position_lights,
)
from firmware_bridge.runtime.lightsink import NoLights
from firmware_bridge.screen.palette import (
    COLOURS,
    FROM,
    HINT,
    LAST,
    LIFT,
    LIFT_NOW,
    PLACE,
    PLACE_NOW,
    SPOT,
    TO,
)
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line
from games.core import Action, Piece
from games.double_take.game import DoubleTake, Step

GAMES = sorted(KITS)


class Hooks:
    """A view's lights hooks: extra from cells for a move, the game's own lights."""

    def __init__(self, extra_from: tuple[str, ...] = (), own: Lit | None = None) -> None:
        self.extra_from = extra_from
        self.own = own or {}

    def move_cells(self, action: Action, moved: Moved) -> Moved:
        return Moved(moved.frm + self.extra_from, moved.to)

    def fix_colour(self, fix: Fix, first: bool) -> str:
        from firmware_bridge.runtime.lights import fix_colour

        return fix_colour(fix, first)

    def lights(self, hint: Action | None) -> Lit:
        return dict(self.own)


def red(label: str = "red") -> Piece:
    return Piece("man", label, 0)


# -- the layers -------------------------------------------------------------------------
def test_the_first_fix_is_lit_brighter_than_the_rest_and_no_fix_is_dark() -> None:
    fixes = [
        Fix(FixAction.LIFT, "a1"),
        Fix(FixAction.LIFT, "b1"),
        Fix(FixAction.PLACE, "c1", red()),
        Fix(FixAction.PLACE, "d1", red()),
    ]
    assert fix_lights(fixes) == {"a1": LIFT_NOW, "b1": LIFT, "c1": PLACE, "d1": PLACE}
    assert fix_lights(fixes[2:]) == {"c1": PLACE_NOW, "d1": PLACE}
    assert fix_lights([]) == {}


def test_a_move_leaving_arriving_and_changing_cells_is_read_off_the_layouts() -> None:
    before = {"a1": red(), "b2": red("blue"), "c3": red()}
    after = {"a2": red(), "b2": red("green"), "c3": red()}
    moved = layout_moved(before, after)
    assert set(moved.frm) == {"a1"}
    assert set(moved.to) == {"a2", "b2"}  # b2 changed piece; c3 stayed as it was
    assert layout_moved(before, dict(before)) == Moved()


def test_the_first_layer_wins_a_cell_and_only_allowed_cells_are_lit() -> None:
    lit = compose([{"a1": LIFT_NOW}, {"a1": FROM, "a2": TO}, {"a2": LAST, "z9": SPOT}])
    assert lit == {"a1": LIFT_NOW, "a2": TO, "z9": SPOT}
    assert compose([{"a1": LIFT_NOW}, {"z9": SPOT}], allowed={"a1"}) == {"a1": LIFT_NOW}


def test_a_tables_layers_go_fixes_computer_hint_game_last() -> None:
    game = DoubleTake()
    step = next(a for a in game.legal_actions() if isinstance(a, Step) and not a.captures)
    hint = next(a for a in game.legal_actions() if isinstance(a, Step) and a.frm not in (step.frm,))
    fix = Fix(FixAction.LIFT, step.to)
    last = Moved((hint.to,), ("a1",))
    used = {step.frm, step.to, hint.frm, hint.to, "a1"}
    other = next(c for c in game.cells() if c not in used)
    hooks = Hooks(own={hint.frm: SPOT, other: SPOT})
    lighting = Lighting()
    lit = lighting.lit(Situation(game, hooks, [fix], step, hint, last))
    assert lit[step.to] == LIFT_NOW  # the fix over the computer's move
    assert lit[step.frm] == FROM
    assert lit[hint.frm] == HINT  # the hint over the game's own
    assert lit[other] == SPOT
    assert lit["a1"] == LAST
    assert lit[hint.to] == HINT  # over the last move
    # Without the fix, the computer's move shows whole; without anything, all is dark.
    assert lighting.lit(Situation(game, Hooks(), expected=step)) == {step.frm: FROM, step.to: TO}
    assert lighting.lit(Situation(game, Hooks())) == {}


def test_a_moves_cells_come_from_playing_it_on_a_copy_and_the_view_may_add_some() -> None:
    game = DoubleTake()
    step = next(a for a in game.legal_actions() if isinstance(a, Step))
    layout = dict(game.layout())
    assert action_moved(game, step) == Moved((step.frm,), (step.to,))
    assert game.layout() == layout and game.history == []  # the game itself is unchanged
    lit = Lighting().lit(Situation(game, Hooks(extra_from=("rack1",)), expected=step))
    assert "rack1" not in lit  # not a game cell, and no chain lights it
    illegal = Step(step.frm, "a1", ())
    assert action_moved(game, illegal) == Moved()


def test_the_chain_is_told_once_per_change() -> None:
    told: list[Mapping[str, str]] = []

    class Sink(NoLights):
        def show_lights(self, lit: Mapping[str, str]) -> None:
            told.append(dict(lit))

    lighting = Lighting()
    for lit in ({}, {}, {"a1": LIFT_NOW}, {"a1": LIFT_NOW}, {}):
        lighting.show(lit, Sink())
    assert told == [{}, {"a1": LIFT_NOW}, {}]


def test_the_last_move_is_lit_until_the_next_event() -> None:
    lighting = Lighting()
    lighting.played({"a1": red()}, {"a2": red()})
    game = DoubleTake()
    lit = lighting.lit(Situation(game, Hooks(), last=lighting.last))
    assert lit == {"a1": LAST, "a2": LAST}
    lighting.played({"a2": red()}, {"a2": red()})  # a pass the move forced: nothing moves
    assert lighting.lit(Situation(game, Hooks(), last=lighting.last)) == lit
    lighting.event()
    assert lighting.lit(Situation(game, Hooks(), last=lighting.last)) == {}


def test_a_replayed_position_lights_the_computers_move_and_the_last_move() -> None:
    game = DoubleTake()
    assert position_lights(game) == {}
    before = dict(game.layout())
    first = next(a for a in game.legal_actions() if isinstance(a, Step))
    assert game.judge(first).accepted
    game.apply(first)
    lit = position_lights(game, {game.to_move}, seed=5, before=before)
    assert lit[first.frm] == LAST and lit[first.to] == LAST
    assert sorted(lit.values()).count(FROM) >= 1 and TO in lit.values()
    assert set(lit.values()) <= set(COLOURS)


# -- the computer's move at the table ------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_the_computers_move_is_lit_from_and_to_until_it_is_made(name: str) -> None:
    sim = Simulation(SimOptions(name, seed=3, humans=frozenset({0})))
    try:
        sim.start()
        session = sim.session
        person = sim.kit.make_player(session.game, random.Random(7))
        checked = 0
        for _ in range(60):
            game = session.game
            if game.outcome is not None or checked:
                break
            expected = session.expected()
            if expected is None:
                for step in sim.hand.steps(person.choose(game)):
                    sim.run_line(Line("person", 1, step[0], tuple(step[1:])))
                continue
            lit = session.leds()
            lit_from = {c for c, v in lit.items() if v == FROM}
            lit_to = {c for c, v in lit.items() if v == TO}
            before = dict(game.layout())
            n = len(game.history)
            for step in sim.hand.steps(expected):
                sim.run_line(Line("computer", n + 1, step[0], tuple(step[1:])))
            assert len(session.game.history) > n, "the computer's move was made"
            changed = layout_moved(before, session.game.layout())
            cells = set(game.cells())
            # Exactly the cells the move changed were lit, in the move's colours.
            assert lit_from == set(changed.frm) & cells
            assert lit_to == set(changed.to) & cells
            checked += bool(lit_from or lit_to)
            after = session.leds()
            again = session.expected()
            if again is None:
                assert not {FROM, TO} & set(after.values()), after
            for cell in lit_from | lit_to:
                assert after.get(cell) in (LAST, FROM, TO, SPOT, None), (cell, after)
        assert checked >= 1, f"{name}: a computer's move with cells was lit"
    finally:
        sim.close()
