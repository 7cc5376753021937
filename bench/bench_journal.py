"""The journal: the time to commit one input, and to open and list a journal of many games.

Appends are committed as the session commits them (WAL, ``synchronous=FULL``), so
their time is mostly the disk's flush. The large journal is built directly with
SQLite (80 inputs a game, as a long Double Take game has), then opened as the
daemon opens it (with ``PRAGMA quick_check``) and listed as ``tabletop history``
lists it (read-only, ``PRAGMA integrity_check``, every input read and checked).

    python bench/bench_journal.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from firmware_bridge.apps.history import history
from firmware_bridge.journal import Journal

APPEND_TARGET_MS = 20.0
OPEN_TARGET_S = 1.0
HISTORY_TARGET_S = 3.0
INPUTS_PER_GAME = 80
STEP = json.dumps({"captures": [], "frm": "a3", "to": "b4", "type": "step"}, sort_keys=True)


def append_ms(folder: Path, count: int) -> float:
    """The mean time of one committed append, in milliseconds."""
    with Journal(folder / f"append-{time.monotonic_ns()}.sqlite") as journal:
        game_id = journal.new_game("double-take", 2, 1, {}, "bench")
        begun = time.perf_counter()
        for _ in range(count):
            journal.append(game_id, "action", json.loads(STEP))
        return (time.perf_counter() - begun) * 1000 / count


def large_journal(path: Path, games: int) -> None:
    Journal(path).close()  # the schema, as tabletop writes it
    db = sqlite3.connect(path)
    at = "2026-11-25T14:12:00.000+00:00"
    with db:
        db.executemany(
            "INSERT INTO games (id, game, players, seed, options, profile, started, finished, "
            "outcome) VALUES (?, 'double-take', 2, ?, '{}', 'bench', ?, ?, ?)",
            (
                (g, g, at, at, '{"draw": false, "reason": "resigned", "winners": [0]}')
                for g in range(1, games + 1)
            ),
        )
        db.executemany(
            "INSERT INTO inputs (game_id, seq, kind, payload, at) VALUES (?, ?, 'action', ?, ?)",
            ((g, s, STEP, at) for g in range(1, games + 1) for s in range(1, INPUTS_PER_GAME + 1)),
        )
    db.close()


def timed(work: Any) -> float:
    begun = time.perf_counter()
    work()
    return time.perf_counter() - begun


def run(quick: bool) -> list[dict[str, Any]]:
    games = 100 if quick else 1000
    appends = 20 if quick else 200
    runs = 3
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        append = [append_ms(folder, appends) for _ in range(runs)]
        path = folder / "large.sqlite"
        large_journal(path, games)
        size_mb = path.stat().st_size / 1e6
        opens = [timed(lambda: Journal(path).close()) for _ in range(runs)]
        lists = [timed(lambda: history(path)) for _ in range(runs)]
    label = f"{games:,} games, {games * INPUTS_PER_GAME:,} inputs, {size_mb:.0f} MB"
    return [
        {
            "figure": "journal: commit one input",
            "unit": "ms",
            "target": APPEND_TARGET_MS,
            "better": "lower",
            "samples": append,
        },
        {
            "figure": f"journal: open, checked ({label})",
            "unit": "s",
            "target": OPEN_TARGET_S if not quick else None,
            "better": "lower",
            "samples": opens,
        },
        {
            "figure": f"journal: history ({label})",
            "unit": "s",
            "target": HISTORY_TARGET_S if not quick else None,
            "better": "lower",
            "samples": lists,
        },
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller journal, fewer appends")
    args = parser.parse_args(argv)
    for fig in run(args.quick):
        samples = fig["samples"]
        target = "" if fig["target"] is None else f"  (target ≤ {fig['target']:g})"
        print(
            f"{fig['figure']:<58} median {statistics.median(samples):8.3f} {fig['unit']:<3} "
            f"min {min(samples):8.3f}  max {max(samples):8.3f}  n={len(samples)}{target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
