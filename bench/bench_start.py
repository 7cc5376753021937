"""Cold start: ``tabletop sim --game G`` to its first OLED frame, against its libraries alone.

Each run starts ``tabletop sim --game G --json --script - --frames DIR`` with
nothing on its standard input and takes the time until the first frame is
written to DIR: the OLED's first frame, which the simulation shows as soon as
the game is on the table, before it opens the simulated board and buttons (the
file is written right after the frame is handed to the display, so the figure
includes writing one PNG). Next to it, in the same run, it times a child
interpreter that imports exactly the libraries that first frame has loaded and
nothing of ours: every module, third-party or standard, that is in
``sys.modules`` when the first frame is shown (a child runs the simulation to
that frame and lists them), in the order they were loaded, less ours (Pillow and
its PNG writer, luma, SQLite, tomllib, and the standard modules our code and
theirs import: ``argparse``, ``json``, ``logging``, ``dataclasses`` and more).
The figure with the target is the ratio of the two, so a busy machine slows
both: what our own code adds to the start, as a multiple of what it cannot do
without. Both run with the garbage collector paused, as the simulation pauses it
while it starts. The ratio to a bare ``python -c pass`` is shown beside, and the
first line of output: the first ``--json`` state, printed once the simulated
board has settled. Beside the wall-clock ratio, the same ratio in processor
time (the children's user and system time, which another program on the
machine does not lengthen): the simulation stopped as its first frame is shown,
against the same libraries alone.

Every figure with a target is taken as installed: in a throwaway environment
whose site folder lists the packages and the libraries they use as plain path
entries, as ``pip install .`` leaves them. An editable install (``pip install
-e``, as a development checkout has it) puts an import finder in the site
folder that every interpreter of that environment loads at start, ``python -c
pass`` included, so there a bare interpreter takes about twice as long and the
ratio looks about twice as good; it is shown beside, for information.

The packages are compiled to bytecode first (``python -m compileall``), as
``pip install`` does for an installed package; a last figure shows the start
when nothing at all has been compiled (an empty ``PYTHONPYCACHEPREFIX``).

Another figure is the core of those libraries: importing only Pillow's drawing,
luma's device, SQLite and tomllib, against the same bare interpreter. A last one
imports, and does nothing else, every module the simulation has loaded when its
first frame is shown, ours included: how much of the start is loading code,
which importing less lazily or more lazily cannot change, only loading less code.

    python bench/bench_start.py [--quick]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import venv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "wiring", "hardware", "firmware_bridge")
RATIO_TARGET = 2.0
"""The start to the first frame, at most twice the time its libraries alone take."""
CORE_LIBRARIES = "import luma.core.device, sqlite3, tomllib; from PIL import ImageDraw"
POLL_S = 0.0002
"""How often the folder of frames is looked at for the first one."""


# The console script pip writes for the ``tabletop`` entry point.
_CONSOLE_SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from firmware_bridge.apps.cli import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""


def tabletop(python: Path | None = None) -> list[str]:
    """The command that starts ``tabletop`` with ``python`` (this interpreter by default)."""
    script = Path(python or sys.executable).parent / "tabletop"
    return [str(script)] if script.exists() else [sys.executable, "-m", "firmware_bridge.apps.cli"]


def installed(folder: Path) -> Path:
    """An environment in ``folder`` that has the packages as ``pip install .`` leaves them.

    Its site folder lists the repository and this environment's libraries as
    plain path entries (no import finder of an editable install), and its
    ``bin/tabletop`` is the console script pip writes. Returns its interpreter.
    """
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(folder)
    paths = {"base": str(folder), "platbase": str(folder)}
    site = Path(sysconfig.get_path("purelib", vars=paths))
    libraries = dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    (site / "tabletop-bench.pth").write_text("\n".join([str(ROOT), *libraries]) + "\n")
    python = folder / "bin" / "python"
    script = folder / "bin" / "tabletop"
    script.write_text(_CONSOLE_SCRIPT.format(python=python))
    script.chmod(0o755)
    return python


def first_frame_s(
    game: str, env: Mapping[str, str] | None = None, python: Path | None = None
) -> tuple[float, float]:
    """Seconds from starting ``tabletop sim`` to its first frame, and to its first line."""
    with tempfile.TemporaryDirectory() as folder:
        frame = Path(folder) / "frame-00001.png"
        cmd = [*tabletop(python), "sim", "--game", game, "--json", "--script", "-"]
        cmd += ["--frames", folder]
        lines: list[tuple[float, str]] = []
        start = time.perf_counter()
        with subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, env=env
        ) as child:
            stdout = child.stdout
            assert stdout is not None

            def read() -> None:
                line = stdout.readline()
                lines.append((time.perf_counter(), line))
                stdout.read()

            reader = threading.Thread(target=read)
            reader.start()
            while not frame.exists() and child.poll() is None:
                time.sleep(POLL_S)
            shown = time.perf_counter()
            reader.join()
            stated = lines[0][1].startswith("{")
            if child.wait(timeout=120) != 0 or not frame.exists() or not stated:
                raise RuntimeError(f"{' '.join(cmd)} failed (exit {child.returncode})")
    return shown - start, lines[0][0] - start


def bare_s(
    env: Mapping[str, str] | None = None, code: str = "pass", python: Path | None = None
) -> float:
    start = time.perf_counter()
    subprocess.run([str(python or sys.executable), "-c", code], check=True, env=env)
    return time.perf_counter() - start


# Run in a child: ``tabletop sim`` up to its first frame, then print the modules
# loaded by then (in the order they were loaded) and stop.
_MODULES_AT_FIRST_FRAME = """
import os, sys
from firmware_bridge.runtime import session
shown = session.Session.show_first
def show_first(self):
    shown(self)
    print(" ".join(m for m in sys.modules if not m.startswith("__")), flush=True)
    os._exit(0)
session.Session.show_first = show_first
from firmware_bridge.apps.cli import main
sys.argv[0] = "tabletop"
main()
"""


def first_frame_modules(game: str, python: Path) -> list[str]:
    """The modules ``tabletop sim --game G`` has loaded when its first frame is shown."""
    return _to_first_frame(game, python)[0]


def _to_first_frame(game: str, python: Path) -> tuple[list[str], float]:
    """Run ``tabletop sim --game G`` until its first frame is shown: the modules loaded
    by then, and the processor time it took."""
    with tempfile.TemporaryDirectory() as folder:
        cmd = [str(python), "-c", _MODULES_AT_FIRST_FRAME, "sim", "--game", game]
        before = _children_cpu_s()
        done = subprocess.run(
            [*cmd, "--json", "--script", "-", "--frames", folder],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=True,
        )
        cpu = _children_cpu_s() - before
    return done.stdout.split(), cpu


def _children_cpu_s() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cpu_s(code: str, python: Path) -> float:
    """Processor time (user and system) of ``python -c code``."""
    before = _children_cpu_s()
    subprocess.run([str(python), "-c", code], check=True)
    return _children_cpu_s() - before


def libraries_of(modules: Sequence[str]) -> list[str]:
    """``modules`` less ours: the libraries, third-party and standard, in the same order."""
    return [m for m in modules if m.split(".")[0] not in PACKAGES and not m.startswith("__")]


def import_code(modules: Sequence[str]) -> str:
    """The code of a child that imports ``modules`` in order, collector paused, and
    leaves at once (as the first frame's time does not count the interpreter's exit)."""
    names = repr(list(modules))
    return f"import gc, os\ngc.disable()\nfor m in {names}:\n    __import__(m)\nos._exit(0)"


def compile_packages() -> None:
    for package in PACKAGES:
        compileall.compile_dir(ROOT / package, quiet=1)


def run(quick: bool) -> list[dict[str, Any]]:
    from firmware_bridge.kits import KITS
    from games.registry import game_names

    compile_packages()
    games = ["double-take"] if quick else [n for n in game_names() if n in KITS]
    with tempfile.TemporaryDirectory() as folder:
        return _figures(games, 3 if quick else 7, installed(Path(folder)), quick)


def _figures(games: list[str], runs: int, python: Path, quick: bool) -> list[dict[str, Any]]:
    figures: list[dict[str, Any]] = []
    bare_ms: list[float] = []
    for game in games:
        first_frame_s(game, python=python)  # once to warm the disk cache and the word lists
        libraries = import_code(libraries_of(first_frame_modules(game, python)))
        ratios, to_bare, frame_ms, libraries_ms, state_ms, cpu = [], [], [], [], [], []
        for _ in range(runs):
            cpu.append(_to_first_frame(game, python)[1] / cpu_s(libraries, python))
            bare = bare_s(python=python)
            alone = bare_s(code=libraries, python=python)
            frame, state = first_frame_s(game, python=python)
            ratios.append(frame / alone)
            to_bare.append(frame / bare)
            frame_ms.append(frame * 1000)
            libraries_ms.append(alone * 1000)
            state_ms.append(state * 1000)
            bare_ms.append(bare * 1000)
        name = f"start to first frame ÷ its libraries alone, {game}"
        figures.append(_fig(name, "×", RATIO_TARGET, ratios))
        figures.append(_fig(f"start to first frame, {game}", "ms", None, frame_ms))
        figures.append(_fig(f"its libraries alone, {game}", "ms", None, libraries_ms))
        figures.append(_fig(f"the same ratio in processor time, {game}", "×", None, cpu))
        figures.append(_fig(f"start to first frame ÷ bare python, {game}", "×", None, to_bare))
        figures.append(_fig(f"start to first --json state, {game}", "ms", None, state_ms))
    figures.append(_fig("bare python -c pass", "ms", None, bare_ms))
    # The same in this environment, which may be an editable install.
    here, here_bare = [], []
    for _ in range(runs):
        bare = bare_s()
        here.append(first_frame_s(games[0])[0] / bare)
        here_bare.append(bare * 1000)
    name = f"the same ratio, {_kind()}, {games[0]}"
    figures.append(_fig(name, "×", None, here))
    figures.append(_fig(f"bare python -c pass, {_kind()}", "ms", None, here_bare))
    floor = []
    for _ in range(runs):
        bare = bare_s(python=python)
        floor.append(bare_s(code=CORE_LIBRARIES, python=python) / bare)
    figures.append(_fig("Pillow, luma, SQLite, tomllib alone ÷ bare python", "×", None, floor))
    # Importing, with nothing else done, every module the first frame has loaded:
    # what laziness alone could never take below (with the collector paused, as the
    # simulation pauses it while it starts).
    modules = "import gc; gc.disable(); import " + ", ".join(first_frame_modules(games[0], python))
    loaded = []
    for _ in range(runs):
        bare = bare_s(python=python)
        loaded.append(bare_s(code=modules, python=python) / bare)
    name = f"its modules alone ÷ bare python, {games[0]}"
    figures.append(_fig(name, "×", None, loaded))
    with tempfile.TemporaryDirectory() as empty:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": empty, "PYTHONDONTWRITEBYTECODE": "1"}
        cold = []
        for _ in range(1 if quick else 3):
            cold.append(first_frame_s(games[0], env, python)[0] / bare_s(python=python))
    figures.append(_fig(f"the same with no bytecode at all, {games[0]}", "×", None, cold))
    return figures


def _kind() -> str:
    """How this environment has the packages: an editable install or plain paths."""
    editable = any(
        name.startswith("__editable__") and name.endswith(".pth")
        for name in os.listdir(sysconfig.get_path("purelib"))
    )
    return "editable install" if editable else "this environment"


def _fig(figure: str, unit: str, target: float | None, samples: list[float]) -> dict[str, Any]:
    return {"figure": figure, "unit": unit, "target": target, "better": "lower", "samples": samples}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Double Take only, three runs")
    args = parser.parse_args(argv)
    for fig in run(args.quick):
        samples = fig["samples"]
        target = "" if fig["target"] is None else f"  (target ≤ {fig['target']:g})"
        print(
            f"{fig['figure']:<52} median {statistics.median(samples):8.2f} {fig['unit']:<3} "
            f"min {min(samples):8.2f}  max {max(samples):8.2f}{target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
