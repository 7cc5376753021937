"""``legal_actions`` and ``judge`` agree, for every game and player count.

Along seeded games, every listed action is accepted, and mutations of listed actions
(another cell, another number, a pass while a move is open, a seat that does not
exist) that are not listed are refused with a reason. Where a game's list is not
every legal action by design, its docstring says what is left out and ``unlisted``
below allows exactly that.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from games.core import Action, Game, Pass, Resign
from games.crosslet.actions import PlaceTiles
from games.crosslet.game import Crosslet
from games.dominoes.game import Place as DominoPlace
from games.doublecross.game import DoubleCross
from games.registry import GAMES
from tests.games.crosslet.helpers import SMALL_WORDS, WordSet
from tests.games.doublecross.helpers import small_lexicon

MOVES = 14
"""Actions played along each seeded game: enough to pass the openings, fast to check."""
SEEDS = (1, 2)


def cases() -> Iterator[tuple[str, int, int]]:
    for listed in GAMES:
        for players in range(listed.min_players, listed.max_players + 1):
            for seed in SEEDS:
                yield listed.name, players, seed


def key(action: Action) -> Action:
    """The action as ``legal_actions`` names it (dominoes list each placement once)."""
    if isinstance(action, DominoPlace):
        return action.normalised()
    return action


def may_be_unlisted(game: Game, action: Action, legal: list[Action]) -> bool:
    """Whether the rules may accept ``action`` although ``legal_actions`` leaves it out,
    as the game's ``legal_actions`` says."""
    if game.name == "doubles-wild" and action.type in ("roll", "reroll", "battle-roll"):
        # Listed once each, with placeholder faces: other faces are the same action.
        pair = getattr(action, "pair", None)
        return any(a.type == action.type and getattr(a, "pair", None) == pair for a in legal)
    if isinstance(action, PlaceTiles):
        # Crosslet leaves out placements over several lines.
        cells = [cell for cell, _ in action.tiles]
        return len({c[0] for c in cells}) > 1 and len({c[1:] for c in cells}) > 1
    # A resignation is open to every seat and is not a move to list.
    return isinstance(action, Resign) and 0 <= action.player < game.players


def mutations(game: Game, action: Action, rng: random.Random) -> Iterator[Action]:
    cells = game.cells()
    yield Pass()
    yield Resign(game.players)
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if isinstance(value, bool):
            continue
        if isinstance(value, str) and value in cells:
            yield dataclasses.replace(action, **{field.name: rng.choice(cells)})
        elif isinstance(value, int):
            for other in (value - 1, value + 1):
                yield dataclasses.replace(action, **{field.name: other})
        elif isinstance(value, tuple) and value and isinstance(value[0], tuple):
            # Crosslet's tiles: move one to another cell, or change its letter.
            i = rng.randrange(len(value))
            cell, letter = value[i]
            for tile in ((rng.choice(cells), letter), (cell, "Q" if letter != "Q" else "Z")):
                yield dataclasses.replace(
                    action, **{field.name: (*value[:i], tile, *value[i + 1 :])}
                )
        elif isinstance(value, tuple) and value:
            yield dataclasses.replace(action, **{field.name: value[1:]})
            if all(isinstance(v, str) and v in cells for v in value):
                yield dataclasses.replace(action, **{field.name: (*value, rng.choice(cells))})


def new_game(name: str, players: int, seed: int) -> Game:
    if name == "crosslet":
        return Crosslet(players, random.Random(seed), lexicon=WordSet(SMALL_WORDS))
    if name == "doublecross":
        return DoubleCross(players, random.Random(seed), lexicon=small_lexicon())
    cls = next(listed for listed in GAMES if listed.name == name).load()
    return cls(players, rng=random.Random(seed))


@pytest.mark.parametrize(("name", "players", "seed"), list(cases()))
def test_judge_accepts_exactly_the_listed_actions(name: str, players: int, seed: int) -> None:
    game = new_game(name, players, seed)
    rng = random.Random(seed)
    for _ in range(MOVES):
        legal = game.legal_actions()
        if game.outcome is not None or not legal:
            break
        listed = {key(a) for a in legal}
        for action in legal:
            verdict = game.judge(action)
            assert verdict.accepted, (action, verdict.reason)
        for action in rng.sample(legal, min(len(legal), 8)):
            for mutant in mutations(game, action, rng):
                if key(mutant) in listed:
                    continue
                verdict = game.judge(mutant)
                if verdict.accepted:
                    assert may_be_unlisted(game, mutant, legal), f"{mutant} accepted, not listed"
                else:
                    assert verdict.reason, mutant
        game.apply(rng.choice(legal))
