"""The README's example commands run as written (on this machine: the ones that need a
Raspberry Pi, a running service or a browser are named below and left out).

Each ``tabletop …`` line of the README's ``sh`` blocks is run in the test's process, in
a folder of its own, in README order, so that the journal an early line writes is the
one the later lines read. A line must end with exit status 0.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main

README = Path(__file__).parents[2] / "README.md"
LEFT_OUT = {
    "tabletop diag --config": "the real board, on a Pi",
    "tabletop web ": "a server that runs until stopped (tests/spectate covers it)",
    "tabletop sim --game crosslet --serve": "a server that runs until stopped",
    "tabletop netlist": "the netlist extra (skidl), tested in tests/wiring",
    "tabletop pcb": "KiCad 9 and a minute, tested in tests/wiring/test_pcb.py",
    "tabletop diag --sim --profile": "interactive (keys), on a terminal",
    "tabletop sim --game double-take --host-remote": "a broker and a second board (tests/remote)",
    "tabletop sim --join": "a broker and a host board (tests/remote)",
}
"""Lines left out here, by their start, and why."""
FILES = {
    "/var/lib/tabletop/journal.sqlite": "g.sqlite",
    "/etc/tabletop/tabletop.toml": "tabletop.toml",
}
"""Paths of a Pi's install, read here from the test's folder."""
BEFORE = {
    "tabletop history": [
        ["sim", "--game", "double-take", "--seed", "2", "--journal", "g.sqlite"],
        ["sim", "--game", "double-take", "--journal", "g.sqlite", "--script", "moves.txt"],
    ],
}
"""Games played before a README line, as the journal it reads would hold them (the
Saved games section reads game 3, unfinished: here the third, from a script)."""
SCRIPTS = {
    "moves.txt": "lift a3\nplace b4\n",
    "bench.txt": "place a3 red\npress ok\n",
}


def readme_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if command.startswith("tabletop "):
                commands.append(command)
    return commands


def test_the_readme_has_examples_and_every_left_out_one_still_exists() -> None:
    commands = readme_commands()
    assert len(commands) > 15
    for start in LEFT_OUT:
        assert any(c.startswith(start.strip()) for c in commands), f"no README line {start}"


def test_every_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in SCRIPTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    ran, before = 0, dict(BEFORE)
    for line in readme_commands():
        if any(line.startswith(start) for start in LEFT_OUT):
            continue
        for start, games in list(before.items()):
            if line.startswith(start):
                for argv in games:
                    assert main(argv, out=io.StringIO()) == 0
                del before[start]
        command = line
        for path, here in FILES.items():
            command = command.replace(path, here)
        args = shlex.split(command)[1:]
        if ">" in args:
            args = args[: args.index(">")]
        if "--realtime" in args:  # the pace is real time: a short one keeps it a test
            args[args.index("--realtime") + 1] = "0.001"
        if "--script" in args and args[args.index("--script") + 1] == "-":
            monkeypatch.setattr("sys.stdin", io.StringIO(SCRIPTS["moves.txt"]))
        code = main(args, out=io.StringIO())
        assert code == 0, f"README: {command} exited {code}"
        ran += 1
    assert ran >= 15
