"""The dice the button station rolls: the OS's randomness on the Pi, seeded in simulation.

Scripted dice (``dice 5 4 2 4`` in a scenario script) are queued with ``load`` and
are taken, in order, before any random ones.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable

from hardware.errors import BadDice

FACES = 6


def check_faces(values: Iterable[object]) -> tuple[int, ...]:
    """``values`` as a tuple of faces, or BadDice naming the first value that is not 1–6."""
    out: list[int] = []
    for position, value in enumerate(values, start=1):
        # bool is an int subclass; True is not a die face.
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= FACES:
            raise BadDice(
                f"die {position} is {value!r}: a die shows a whole number from 1 to {FACES}"
            )
        out.append(value)
    return tuple(out)


class DiceSource:
    """Six-sided dice from a ``random.Random``, with a queue of scripted values in front."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._loaded: deque[int] = deque()

    @classmethod
    def system(cls) -> DiceSource:
        """Dice from the operating system's randomness (for play on the Pi)."""
        # random's SystemRandom is secrets' own, without loading hmac and OpenSSL.
        return cls(random.SystemRandom())

    @classmethod
    def seeded(cls, seed: int | str) -> DiceSource:
        """Repeatable dice (for simulation and tests)."""
        return cls(random.Random(seed))

    @property
    def loaded(self) -> tuple[int, ...]:
        """Scripted values not yet rolled."""
        return tuple(self._loaded)

    def load(self, values: Iterable[object]) -> None:
        """Queue scripted values; all are checked before any is queued."""
        self._loaded.extend(check_faces(values))

    def roll(self, n: int) -> tuple[int, ...]:
        """Roll ``n`` dice: scripted values first, then random faces."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BadDice(f"cannot roll {n!r} dice: give a whole number, 0 or more")
        out: list[int] = []
        for _ in range(n):
            if self._loaded:
                out.append(self._loaded.popleft())
            else:
                out.append(self._rng.randint(1, FACES))
        return tuple(out)
