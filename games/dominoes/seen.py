"""A Dominoes position as one board of a game played board to board knows it.

That board sees its own seats' hands; the other hands and the boneyard it only counts.
Its game holds stand-ins for them: the dominoes it has not seen, in some order. The
rules take a few decisions from those hidden dominoes (the phase after a draw, a
chain after a double, the game's end), and the table it plays with says what they
were (the board's view after each move): :func:`arrange` puts the stand-ins so that
the rules, playing the move, reach that view. Every domino laid or put in the pit is
public, so a move that lays one first puts it in its mover's hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from games.core import Action, Outcome
from games.dominoes.board import Domino, double_six_sets
from games.dominoes.game import HAND_SIZE, Discard, Dominoes, Phase, Place
from games.errors import GameError

TRIES = 3000
"""Arrangements tried for one move before the board gives up (a discard after a draw,
when nearly every domino fits somewhere, is the rarest to find)."""


def seat_deal(game: Dominoes, hands: Mapping[int, Sequence[Domino]], to_move: int) -> None:
    """Give ``game``, nothing played yet, the hands of the seats in ``hands``; every
    other hand and the boneyard hold stand-ins, the rest of the sets in order.

    Raises GameError when the hands are not dominoes of the sets."""
    if game.history or game.board.laid:
        raise GameError("a seat's deal is given before anything is played")
    rest = sorted(double_six_sets(3 if game.players >= 5 else 2))
    for seat, hand in hands.items():
        if not 0 <= seat < game.players or len(hand) != HAND_SIZE:
            raise GameError(f"seat {seat} is not a seat holding {HAND_SIZE} dominoes")
        for domino in hand:
            if domino.key() not in rest:
                raise GameError(f"{domino} is not a domino left in the sets")
            rest.remove(domino.key())
    for seat in range(game.players):
        if seat in hands:
            game._hands[seat] = [d.key() for d in hands[seat]]
        else:
            game._hands[seat], rest = rest[:HAND_SIZE], rest[HAND_SIZE:]
    game._boneyard = rest
    if not 0 <= to_move < game.players:
        raise GameError(f"seat {to_move} is not a seat")
    game._to_move = to_move
    game._phase = Phase.DRAW


def arrange(
    game: Dominoes,
    known: frozenset[int],
    action: Action,
    check: Callable[[Dominoes], bool],
    drawn: Sequence[Domino] = (),
    tries: int = TRIES,
) -> bool:
    """Put the stand-ins of ``game`` (the hands of the seats not in ``known``, and the
    boneyard) so that ``action`` played from here passes ``check``: the domino a
    hidden seat lays or discards is in its hand, ``drawn`` are the boneyard's next
    dominoes in turn, and the rest are tried in other orders. False, ``game``
    unchanged, when no order tried does."""
    mover = game.to_move
    hidden = [seat for seat in range(game.players) if seat not in known]
    forced: list[Domino] = []
    if mover in hidden and isinstance(action, Place | Discard):
        domino = action.domino if isinstance(action, Place) else Domino(action.a, action.b)
        forced = [domino.key()]
    pool = [d for seat in hidden for d in game._hands[seat]] + list(game._boneyard)
    for domino in [*forced, *(d.key() for d in drawn)]:
        if domino not in pool:
            return False  # this board has seen it elsewhere: no order gives it
        pool.remove(domino)
    sizes = {seat: len(game._hands[seat]) for seat in hidden}
    mine = sizes.get(mover, 0) - len(forced)
    if mine < 0:
        return False
    # The boneyard's next draws go to the mover too (unless they are known).
    tail = 0 if drawn else min(HAND_SIZE, len(game._boneyard))
    rng = random.Random(len(game.history))
    fits = [d for d in pool if game._can_place([d])]
    for attempt in range(tries):
        order = _order(pool, fits, attempt, rng)
        hands, boneyard = _deal(order, hidden, sizes, mover, forced, mine, tail)
        boneyard += [d.key() for d in reversed(drawn)]
        trial = game.copy()
        for seat, hand in hands.items():
            trial._hands[seat] = list(hand)
        trial._boneyard = list(boneyard)
        try:
            trial.apply(action)
        except GameError:
            continue
        if check(trial):
            for seat, hand in hands.items():
                game._hands[seat] = list(hand)
            game._boneyard = list(boneyard)
            return True
    return False


def _order(
    pool: list[Domino], fits: list[Domino], attempt: int, rng: random.Random
) -> list[Domino]:
    """The stand-ins' order for one try: as they are; the dominoes that fit nowhere
    first (to the mover's hand and its next draws), or those that fit first; then at
    random."""
    if attempt == 0:
        return list(pool)
    if attempt in (1, 2):
        rest = list(pool)
        for domino in fits:
            rest.remove(domino)
        return rest + fits if attempt == 1 else fits + rest
    shuffled = list(pool)
    rng.shuffle(shuffled)
    return shuffled


def _deal(
    order: list[Domino],
    hidden: list[int],
    sizes: Mapping[int, int],
    mover: int,
    forced: list[Domino],
    mine: int,
    tail: int,
) -> tuple[dict[int, list[Domino]], list[Domino]]:
    """The hidden hands and the boneyard from ``order``: the mover's hand first, then
    the boneyard's next ``tail`` draws, the other hands, the rest of the boneyard."""
    hands: dict[int, list[Domino]] = {}
    rest = list(order)
    if mover in sizes:
        hands[mover], rest = forced + rest[:mine], rest[mine:]
    nexts, rest = rest[:tail], rest[tail:]
    for seat in hidden:
        if seat != mover:
            hands[seat], rest = rest[: sizes[seat]], rest[sizes[seat] :]
    return hands, rest + list(reversed(nexts))


def settle(game: Dominoes, hands: Sequence[Sequence[Domino]], outcome: Outcome) -> None:
    """The game is over and every hand is shown: ``game``'s hands and outcome are the
    table's."""
    if len(hands) != game.players:
        raise GameError(f"give one hand per player: {game.players}, not {len(hands)}")
    game._hands = [[d.key() for d in hand] for hand in hands]
    game._phase = Phase.OVER
    game._chain_from = None
    game._outcome = outcome


def domino_of(text: str) -> Domino:
    """A domino as a view names it (``"3-4"``)."""
    a, sep, b = text.partition("-")
    if not sep or not a.isdigit() or not b.isdigit():
        raise GameError(f"{text!r} is not a domino such as '3-4'")
    return Domino(int(a), int(b))
