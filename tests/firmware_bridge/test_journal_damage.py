"""A hundred damaged journals: each one a clear message naming the file, exit 2, no traceback.

The journal of played games is built once; each trial copies it and damages the
copy (a truncation, or random bytes written over it at seeded positions). Damage
that lands on bytes SQLite does not use changes nothing, so such a copy must read
exactly as the undamaged journal does; any other outcome is exit 2 with the file
named, and the file left as it was.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import shutil
import sqlite3
import sys
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.journal import Journal
from firmware_bridge.kits import find_kit

TRIALS = 100
COMMANDS = (
    ["history", "--json"],
    ["export", "--game", "3"],
    ["export", "--text"],
    # Last, as it writes to a journal it can open: it resumes the unfinished game.
    ["sim", "--game", "dominoes", "--players", "3", "--script", "-"],
)


def play(journal: Journal, name: str, players: int, seed: int, plies: int | None) -> None:
    """A computer game, journaled input by input as the session does."""
    kit = find_kit(name)
    game = kit.new_game(players, random.Random(seed), {})
    game_id = journal.new_game(name, players, seed, {}, kit.default_profile)
    rng = random.Random(seed)
    seats = [kit.make_player(game, random.Random(rng.random())) for _ in range(players)]
    while game.outcome is None and (plies is None or len(game.history) < plies):
        action = seats[game.to_move].choose(game)
        journal.append(game_id, "action", action.to_dict())
        assert game.apply(action).accepted
    if game.outcome is not None:
        journal.finish(game_id, game.outcome.to_dict())


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("original") / "journal.sqlite"
    with Journal(path) as journal:
        for seed in range(1, 7):
            play(journal, "double-take", 2, seed, None)
        play(journal, "dominoes", 3, 5, 12)
    # Packed tight, as a journal that has grown for months is: little unused space.
    db = sqlite3.connect(path)
    db.execute("VACUUM")
    db.close()
    return path


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin, sys.stdin = sys.stdin, io.StringIO("")  # an empty script for ``sim --script -``
    try:
        with redirect_stderr(err):
            code = main(argv, out)
    finally:
        sys.stdin = stdin
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def undamaged(original: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What each command prints for a copy of the undamaged journal."""
    out: dict[str, Any] = {}
    for command in COMMANDS:
        path = tmp_path_factory.mktemp("undamaged") / "journal.sqlite"
        shutil.copy(original, path)
        out[" ".join(command)] = run([*command, "--journal", str(path)])
    return out


def damage(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    if rng.random() < 0.3:
        cut = rng.randrange(1, len(data))
        return data[:cut], f"truncated to {cut} bytes"
    out = bytearray(data)
    spots = []
    for _ in range(rng.randint(1, 4)):
        size = rng.randint(1, 48)
        at = rng.randrange(0, len(out) - size)
        out[at : at + size] = rng.randbytes(size)
        spots.append(f"{size}@{at}")
    return bytes(out), f"random bytes at {', '.join(spots)}"


def test_every_damaged_journal_is_a_clear_message_or_reads_as_before(
    original: Path, undamaged: dict[str, Any], tmp_path: Path
) -> None:
    assert all(code == 0 for code, _, _ in undamaged.values())
    data = original.read_bytes()
    rng = random.Random(2026)
    refused = 0
    for trial in range(TRIALS):
        folder = tmp_path / str(trial)
        folder.mkdir()
        path = folder / "journal.sqlite"
        damaged, how = damage(data, rng)
        path.write_bytes(damaged)
        digest = hashlib.sha256(damaged).hexdigest()
        failed = False
        for command in COMMANDS:
            code, out, err = run([*command, "--journal", str(path)])
            where = f"trial {trial} ({how}), {' '.join(command)}"
            assert "Traceback" not in err, where
            if code == 0:
                assert (code, out, err) == undamaged[" ".join(command)], (
                    f"{where}: damage went unnoticed and changed what is read"
                )
                continue
            failed = True
            assert code == 2, where
            assert out == "", where
            assert err.startswith("tabletop: "), where
            assert str(path) in err, f"{where}: the message must name the file: {err}"
            assert err.count("\n") == 1, f"{where}: one line, no traceback: {err}"
            assert sorted(p.name for p in folder.iterdir()) == ["journal.sqlite"], where
            assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, where
        refused += failed
        shutil.rmtree(folder)
    print(f"{refused} of {TRIALS} damaged journals refused, the rest read as before")
    # Most damage must be caught; the rest fell on bytes no query reads.
    assert refused >= TRIALS * 0.9, f"only {refused} of {TRIALS} damaged journals refused"


def test_a_journal_whose_rows_make_no_game_is_named(original: Path, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    shutil.copy(original, path)
    with Journal(path) as journal:
        journal.db.execute("UPDATE games SET game = 'chess' WHERE id = 1")
        journal.db.execute("UPDATE games SET players = 'two' WHERE id = 2")
        journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    code, _, err = run(["export", "--game", "1", "--journal", str(path)])
    assert code == 2 and str(path) in err and "chess" in err
    code, _, err = run(["export", "--game", "2", "--journal", str(path)])
    assert code == 2 and str(path) in err and "game 2's players is 'two'" in err
    code, _, err = run(["history", "--journal", str(path)])
    assert code == 2 and str(path) in err


def test_an_input_that_is_not_json_is_named(original: Path, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    shutil.copy(original, path)
    with Journal(path) as journal:
        journal.db.execute(
            "UPDATE inputs SET payload = '{\"type\": ' WHERE game_id = 1 AND seq = 4"
        )
        journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    code, out, err = run(["export", "--game", "1", "--journal", str(path)])
    assert code == 2 and out == ""
    assert str(path) in err and "input 4's payload" in err
    # The other game reads as before.
    code, out, _ = run(["export", "--game", "2", "--journal", str(path)])
    assert code == 0 and json.loads(out)["id"] == 2
