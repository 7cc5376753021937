"""A DoubleCross position as one board of a game played board to board knows it.

That board sees its own seats' racks, the board, the special spaces and the trays;
the other racks and the bag it only counts, and a mystery space's effect comes from
the game's random source. Its game is dealt from what it sees
(:func:`seat_options`: the start word, the special spaces, who starts, its own rack,
stand-ins for the rest) and, before each move, :func:`arrange` puts the stand-ins
(and the random source) so that the rules, playing the move, reach what the table
saw: a tile another seat lays is in its rack, the letters this board's seat draws
are the bag's next, and the rest are tried in other orders.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import Action, Outcome
from games.doublecross.actions import PlaceTile
from games.doublecross.board import MYSTERY, RACK_SIZE, TILE_COUNTS, cell_index
from games.doublecross.game import DoubleCross
from games.errors import GameError

TRIES = 400
"""Orders of the stand-ins (and random sources) tried for one move."""


def seat_options(
    players: int,
    first: int,
    start: Mapping[str, str],
    specials: Mapping[str, str],
    racks: Mapping[int, Sequence[str]],
) -> dict[str, Any]:
    """The options that deal a game as a board holding the seats of ``racks`` sees it:
    ``first`` (a seat from 0) starts; ``start`` is the start word's tiles by cell;
    ``specials`` the special spaces by cell; the other racks and the bag are
    stand-ins, the rest of the 98 tiles in order. Raises GameError when the tiles are
    more than the set holds."""
    word = "".join(start[cell] for cell in sorted(start, key=lambda c: cell_index(c) or 0))
    rest = Counter(TILE_COUNTS)
    rest.subtract(word)
    for rack in racks.values():
        rest.subtract(rack)
    if any(count < 0 for count in rest.values()):
        raise GameError("the start word and racks hold more tiles than the set has")
    pool = sorted(rest.elements())
    out: list[str] = []
    for seat in range(players):
        if seat in racks:
            out.append("".join(racks[seat]))
        else:
            out.append("".join(pool[:RACK_SIZE]))
            pool = pool[RACK_SIZE:]
    return {
        "first": first + 1,
        "start_word": word,
        "specials": dict(specials),
        "racks": out,
        "bag": "".join(pool),
    }


def arrange(
    game: DoubleCross,
    known: frozenset[int],
    action: Action,
    check: Callable[[DoubleCross], bool],
    drawn: Sequence[str] = (),
    tries: int = TRIES,
) -> bool:
    """Put the stand-ins of ``game`` (the racks of the seats not in ``known``, the bag,
    and the random source when the move lands on a mystery space) so that ``action``
    played from here passes ``check``: the tile a hidden seat lays is on its rack,
    ``drawn`` are the bag's next letters. False, ``game`` unchanged, when no order
    tried does."""
    s = game.state
    mover = s.turn
    hidden = [seat for seat in range(game.players) if seat not in known]
    forced: list[str] = []
    if mover in hidden and isinstance(action, PlaceTile) and isinstance(action.letter, str):
        forced = [action.letter.upper()]
    pool = [letter for seat in hidden for letter in s.racks[seat]] + list(s.bag)
    for letter in [*forced, *drawn]:
        if letter not in pool:
            return False  # this board has seen every such tile elsewhere
        pool.remove(letter)
    sizes = {seat: len(s.racks[seat]) for seat in hidden}
    if sizes.get(mover, 0) < len(forced):
        return False
    mystery = isinstance(action, PlaceTile) and s.specials.get(cell_index(action.cell) or -1) == (
        MYSTERY
    )
    shuffle = random.Random(len(game.history))
    for attempt in range(tries):
        order = list(pool)
        if attempt:
            shuffle.shuffle(order)
        racks: dict[int, list[str]] = {}
        if mover in sizes:
            take = sizes[mover] - len(forced)
            racks[mover], order = forced + order[:take], order[take:]
        for seat in hidden:
            if seat != mover:
                racks[seat], order = order[: sizes[seat]], order[sizes[seat] :]
        bag = list(drawn) + order
        trial = game.snapshot()
        for seat, rack in racks.items():
            trial.state.racks[seat] = list(rack)
        trial.state.bag = list(bag)
        source = None
        if mystery and attempt:
            source = random.Random(attempt).getstate()
            trial.rng.setstate(source)
        try:
            trial.apply(action)
        except GameError:
            continue
        if check(trial):
            for seat, rack in racks.items():
                s.racks[seat] = list(rack)
            s.bag = bag
            if source is not None:
                game.rng.setstate(source)
            return True
    return False


def settle(game: DoubleCross, racks: Sequence[Sequence[str]], outcome: Outcome) -> None:
    """The game is over and every rack is shown: ``game``'s racks and outcome are the
    table's."""
    if len(racks) != game.players:
        raise GameError(f"give one rack per player: {game.players}, not {len(racks)}")
    game.state.racks = [[str(letter) for letter in rack] for rack in racks]
    game.state.outcome = outcome
