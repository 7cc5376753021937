"""Cold start: ``tabletop sim --game G`` to its first OLED frame, against a bare interpreter.

Each run starts ``tabletop sim --game G --json --script - --frames DIR`` with
nothing on its standard input and takes the time until the first frame is
written to DIR: the OLED's first frame, which the simulation shows as soon as
the game is on the table, before it opens the simulated board and buttons (the
file is written right after the frame is handed to the display, so the figure
includes writing one PNG). Next to it, in the same run, it times ``python -c
pass`` from start to exit; the figure is the ratio of the two, so a busy machine
slows both. It also times the first line of output: the first ``--json`` state,
printed once the simulated board has settled.

The packages are compiled to bytecode first (``python -m compileall``), as
``pip install`` does for an installed package; a last figure shows the start
when nothing at all has been compiled (an empty ``PYTHONPYCACHEPREFIX``).

Another figure is the floor under the ratio: importing only the libraries the
first frame cannot do without (Pillow to draw, luma for the display, SQLite for
the journal, tomllib for the profile), against the same bare interpreter. A
last one imports, and does nothing else, every module the simulation has loaded
when its first frame is shown (found by running it to that frame in a child):
how much of the start is loading code, which importing less lazily or more
lazily cannot change, only loading less code.

    python bench/bench_start.py [--quick]
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "wiring", "hardware", "firmware_bridge")
RATIO_TARGET = 4.0
FIRST_FRAME_LIBRARIES = "import luma.core.device, sqlite3, tomllib; from PIL import ImageDraw"
POLL_S = 0.0002
"""How often the folder of frames is looked at for the first one."""


def tabletop() -> list[str]:
    script = Path(sys.executable).parent / "tabletop"
    return [str(script)] if script.exists() else [sys.executable, "-m", "firmware_bridge.cli"]


def first_frame_s(game: str, env: Mapping[str, str] | None = None) -> tuple[float, float]:
    """Seconds from starting ``tabletop sim`` to its first frame, and to its first line."""
    with tempfile.TemporaryDirectory() as folder:
        frame = Path(folder) / "frame-00001.png"
        cmd = [*tabletop(), "sim", "--game", game, "--json", "--script", "-", "--frames", folder]
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


def bare_s(env: Mapping[str, str] | None = None, code: str = "pass") -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    return time.perf_counter() - start


# Run in a child: ``tabletop sim`` up to its first frame, then print the modules
# loaded by then (in the order they were loaded) and stop.
_MODULES_AT_FIRST_FRAME = """
import os, sys
from firmware_bridge import session
shown = session.Session.show_first
def show_first(self):
    shown(self)
    print(" ".join(m for m in sys.modules if not m.startswith("__")), flush=True)
    os._exit(0)
session.Session.show_first = show_first
from firmware_bridge.cli import main
sys.argv[0] = "tabletop"
main()
"""


def first_frame_modules(game: str) -> list[str]:
    """The modules ``tabletop sim --game G`` has loaded when its first frame is shown."""
    with tempfile.TemporaryDirectory() as folder:
        cmd = [sys.executable, "-c", _MODULES_AT_FIRST_FRAME, "sim", "--game", game]
        done = subprocess.run(
            [*cmd, "--json", "--script", "-", "--frames", folder],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=True,
        )
    return done.stdout.split()


def compile_packages() -> None:
    for package in PACKAGES:
        compileall.compile_dir(ROOT / package, quiet=1)


def run(quick: bool) -> list[dict[str, Any]]:
    from firmware_bridge.kits import KITS
    from games.registry import game_names

    compile_packages()
    games = ["double-take"] if quick else [n for n in game_names() if n in KITS]
    runs = 3 if quick else 7
    figures: list[dict[str, Any]] = []
    bare_ms: list[float] = []
    for game in games:
        first_frame_s(game)  # once to warm the disk cache and the word-list caches
        ratios, frame_ms, state_ms = [], [], []
        for _ in range(runs):
            bare = bare_s()
            frame, state = first_frame_s(game)
            ratios.append(frame / bare)
            frame_ms.append(frame * 1000)
            state_ms.append(state * 1000)
            bare_ms.append(bare * 1000)
        figures.append(
            _fig(f"start to first frame ÷ bare python, {game}", "×", RATIO_TARGET, ratios)
        )
        figures.append(_fig(f"start to first frame, {game}", "ms", None, frame_ms))
        figures.append(_fig(f"start to first --json state, {game}", "ms", None, state_ms))
    figures.append(_fig("bare python -c pass", "ms", None, bare_ms))
    floor = []
    for _ in range(runs):
        bare = bare_s()
        floor.append(bare_s(code=FIRST_FRAME_LIBRARIES) / bare)
    figures.append(_fig("its libraries alone ÷ bare python (the floor)", "×", None, floor))
    # Importing, with nothing else done, every module the first frame has loaded:
    # what laziness alone could never take below (with the collector paused, as the
    # simulation pauses it while it starts).
    modules = "import gc; gc.disable(); import " + ", ".join(first_frame_modules(games[0]))
    loaded = []
    for _ in range(runs):
        bare = bare_s()
        loaded.append(bare_s(code=modules) / bare)
    name = f"its modules alone ÷ bare python, {games[0]}"
    figures.append(_fig(name, "×", None, loaded))
    with tempfile.TemporaryDirectory() as empty:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": empty, "PYTHONDONTWRITEBYTECODE": "1"}
        cold = []
        for _ in range(1 if quick else 3):
            cold.append(first_frame_s(games[0], env)[0] / bare_s())
    figures.append(_fig(f"the same with no bytecode at all, {games[0]}", "×", None, cold))
    return figures


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
