"""DoubleCross's record of what happened, and the paying of completed words.

A ``Tally`` collects, for one action, every happening in order (``Note``) and the
points each one moved (``ScoreEvent``). Notes carry their kind and figures so that a
score can be recounted from them alone, without the engine:

=================  ===========================================================
kind               points
=================  ===========================================================
``completed``      ``len(word)`` to ``player`` (who placed the tile or the bomb)
``stable``         ``len(word)`` to ``player`` (the tile's owner), per word
``destroyed``      −4 to ``player`` (the tile's owner)
``bonus``          ``value`` to ``player``
``coloured-bomb``  +8 to ``player``; ``defused``: +16
``pickup``         +2, or +4 for ``nsew``, to ``player``
``rack-penalty``   −4 × ``count`` to ``player``
``unstable-penalty``  −1 × ``count`` to ``player``
=================  ===========================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.core import JSON, ScoreEvent
from games.doublecross.board import DESTROYED_POINTS, Board, cell_name
from games.doublecross.judge import Judge, Settled, Word


@dataclass(frozen=True)
class Note:
    """One thing that happened: a tile refused, destroyed, made stable, a word
    completed, a special space triggered, a penalty."""

    kind: str
    text: str
    player: int | None = None
    points: int = 0
    cells: tuple[str, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> JSON:
        out: JSON = {"kind": self.kind, "text": self.text}
        if self.player is not None:
            out["player"] = self.player
        if self.points:
            out["points"] = self.points
        if self.cells:
            out["cells"] = list(self.cells)
        out.update(self.extra)
        return out


@dataclass
class Tally:
    """What one action did, in order."""

    notes: list[Note] = field(default_factory=list)
    events: list[ScoreEvent] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    completed: int = 0

    def note(self, kind: str, text: str, cells: tuple[str, ...] = (), **extra: Any) -> None:
        self.notes.append(Note(kind, text, cells=cells, extra=tuple(sorted(extra.items()))))

    def score(
        self,
        kind: str,
        player: int,
        points: int,
        text: str,
        cells: tuple[str, ...] = (),
        **extra: Any,
    ) -> None:
        self.notes.append(Note(kind, text, player, points, cells, tuple(sorted(extra.items()))))
        self.events.append(ScoreEvent(player, points, text))

    def destroyed(self, cell: int, letter: str, owner: int | None, why: str) -> None:
        name = cell_name(cell)
        self.removed.append(name)
        if owner is None:
            self.note("destroyed", f"{letter} on {name} destroyed ({why})", (name,))
        else:
            self.score(
                "destroyed",
                owner,
                DESTROYED_POINTS,
                f"{letter} on {name} destroyed ({why})",
                (name,),
            )

    def points(self, players: int) -> list[int]:
        out = [0] * players
        for e in self.events:
            out[e.player] += e.points
        return out


def forget_destroyed(paid: set[Word], cells: set[int]) -> None:
    """A paid word that lost a tile is no longer on the board: it may be paid again."""
    if cells:
        paid.difference_update([w for w in paid if cells.intersection(w.cells)])


def pay_settling(
    judge: Judge,
    board: Board,
    paid: set[Word],
    actor: int,
    settled: Settled,
    tally: Tally,
    why: str,
) -> None:
    """Record what settling did and pay for it: each word completed (complete now, not
    paid before) gives the actor its length, and each tile made stable gives its
    owner the length of each completed word it lies in."""
    for i, letter, owner in settled.destroyed:
        tally.destroyed(i, letter, owner, why)
    forget_destroyed(paid, {i for i, _, _ in settled.destroyed})
    candidates: list[Word] = [w for _, words in settled.stabilised for w in words]
    candidates += sorted(judge.complete_words(board), key=lambda w: (w.axis, w.cells))
    completed: list[Word] = []
    for word in candidates:
        if word not in paid and word not in completed:
            completed.append(word)
    paid.update(completed)
    tally.completed += len(completed)
    for word in completed:
        tally.score(
            "completed",
            actor,
            len(word),
            f"{word.text} completed",
            tuple(cell_name(i) for i in word.cells),
            word=word.text,
        )
    for i, _ in settled.stabilised:
        name = cell_name(i)
        letter, owner = board.letters[i], board.owners[i]
        tally.note("made-stable", f"{letter} on {name} made stable", (name,))
        for word in completed:
            if i in word.cells and owner is not None:
                tally.score(
                    "stable",
                    owner,
                    len(word),
                    f"{letter} on {name} made stable in {word.text}",
                    (name,),
                    word=word.text,
                )
