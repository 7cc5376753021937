"""Where a tag lies, from the row and column antennas that saw it and the switches that
changed: the board's ambiguity rule (docs/rf.md, "How a position is read").

``reads_needed`` says which antennas to inventory after a change: the row of every
square to place (changed and occupied, or still unread), and the columns of those
squares in rows that hold more than one of them. ``place`` then puts each new UID on
the one such square whose row and column both agree with it (a read antenna must have
seen it; at least one did), pairing UIDs and squares only where the pairing is unique,
and leaves every other such square unread (the firmware retries it). No UID is ever
placed on a square it was not seen at, so a read that misses a tag can leave a square
unread but never put a tag in the wrong place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Square = tuple[int, int]


def reads_needed(changed_occupied: Iterable[Square]) -> tuple[set[int], set[int]]:
    """The rows and columns to inventory after the squares ``changed_occupied`` (changed
    and now closed) changed."""
    targets = set(changed_occupied)
    rows = {r for r, _ in targets}
    crowded = {r for r in rows if sum(1 for t in targets if t[0] == r) > 1}
    cols = {c for r, c in targets if r in crowded}
    return rows, cols


def place(
    before: Mapping[Square, str | None],
    changed: Iterable[Square],
    occupied: Iterable[Square],
    rows_seen: Mapping[int, set[str]],
    cols_seen: Mapping[int, set[str]],
) -> dict[Square, str | None]:
    """The board's map after a change.

    ``before``: the UID on each square before; ``changed``: the squares whose switch
    changed; ``occupied``: the squares whose switch is closed now; ``rows_seen`` and
    ``cols_seen``: the UIDs each inventoried antenna saw. Returns the UID on every
    occupied square, ``None`` where it is occupied but could not be placed for certain.
    """
    changed, occupied = set(changed), set(occupied)
    # Squares to place: the changed, occupied ones, and any still unread from before.
    targets = (changed & occupied) | {sq for sq in occupied if sq in before and before[sq] is None}
    after: dict[Square, str | None] = {
        sq: uid
        for sq, uid in before.items()
        if sq in occupied and sq not in targets and uid is not None
    }
    settled = set(after.values())
    seen: set[str] = set()
    for uids in (*rows_seen.values(), *cols_seen.values()):
        seen |= uids
    new = seen - settled

    def agrees(uid: str, sq: Square) -> bool:
        r, c = sq
        in_row, in_col = rows_seen.get(r), cols_seen.get(c)
        if in_row is not None and uid not in in_row:
            return False
        if in_col is not None and uid not in in_col:
            return False
        return (in_row is not None and uid in in_row) or (in_col is not None and uid in in_col)

    edges = {uid: {sq for sq in targets if agrees(uid, sq)} for uid in new}
    free = set(targets)
    progress = True
    while progress:
        progress = False
        for uid in sorted(edges):
            squares = edges[uid] & free
            if len(squares) != 1:
                continue
            (sq,) = squares
            rivals = [u for u in edges if u != uid and sq in edges[u]]
            if rivals:
                continue
            after[sq] = uid
            free.discard(sq)
            del edges[uid]
            progress = True
            break
    for sq in free:
        after[sq] = None
    return after
