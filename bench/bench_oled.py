"""OLED bytes on the wire per update, and the time to pack a frame.

Frames come from real simulated games (every frame the session hands the display,
a "move update" being the first frame after a move is committed; any other is a
prompt, a fix or a menu) and from the lobby's menus walked with the buttons.
Each sequence is sent to the changed-pages drivers and to luma's own ``ssd1306``
through a counting serial interface; bytes are the command and data bytes it
is handed.

    python bench/bench_oled.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from luma.oled.device import ssd1306
from PIL import Image

from firmware_bridge.kits import KITS
from firmware_bridge.referees.events import ButtonEvent
from firmware_bridge.referees.referee import Menu
from firmware_bridge.runtime.lobby import Choice, Lobby
from firmware_bridge.screen.layout import render
from firmware_bridge.screen.screens import Screen
from firmware_bridge.sim.runner import SimOptions, Simulation
from games.registry import GAMES
from hardware.oled_pages import ChangedPagesSH1106, ChangedPagesSSD1306, pack_pages

MOVE_TARGET = 600.0
MENU_TARGET = 150.0
PACK_TARGET_MS = 0.1
I2C_HZ = 400_000


class Counter:
    """A serial interface that only counts the bytes handed to it."""

    def __init__(self) -> None:
        self.total = 0

    def command(self, *cmd: int) -> None:
        self.total += len(cmd)

    def data(self, data: Sequence[int]) -> None:
        self.total += len(data)

    def cleanup(self) -> None:
        pass


class Recorder:
    """Stands between the session and its display, noting each frame and the moves so far."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        self.frames: list[tuple[Image.Image, int]] = []

    def show(self, image: Any) -> None:
        self.frames.append((image.copy(), len(self.sim.session.game.history)))
        self.sim.oled.show(image)


def game_frames(game: str, seed: int) -> list[tuple[Image.Image, bool]]:
    """A computer game's frames in the order shown, each marked True if it follows a move."""
    sim = Simulation(SimOptions(game=game, seed=seed))
    recorder = Recorder(sim)
    sim.session.display = recorder
    try:
        sim.start()
        sim.play_computer()
    finally:
        sim.close()
    out: list[tuple[Image.Image, bool]] = []
    played = 0
    for image, history in recorder.frames:
        out.append((image, history > played))
        played = history
    return out


def lobby_frames() -> list[Image.Image]:
    """The lobby walked through: every game, then the player count up and down."""
    shown: list[Image.Image] = []

    class Keep:
        def show(self, image: Any) -> None:
            shown.append(image.copy())

    games = [Choice(g.name, g.title, g.min_players, g.max_players) for g in GAMES if g.name in KITS]
    lobby = Lobby(games, Keep())
    lobby.refresh()
    many = next(i for i, g in enumerate(games) if g.max_players > g.min_players)
    presses = ["right"] * len(games) + ["right"] * many + ["ok"]
    presses += ["right"] * 3 + ["left"] * 3 + ["back"]
    for name in presses:
        lobby.handle(ButtonEvent(name, "press"))
    return shown


def referee_menu_frames() -> list[Image.Image]:
    """The referees' menus walked with right: Crosslet's blank letter, then resigning."""
    frames = []
    for menu in (
        Menu("Blank on h8", [(ch, ch) for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]),
        Menu("Red resigns?", [("no, play on", False), ("yes, resign", True)]),
    ):
        for _ in menu.options:
            frames.append(render(Screen(menu.title, "", menu.lines())))
            menu.move(1)
    return frames


def sent(device_class: Any, sequence: list[Image.Image]) -> list[int]:
    """Bytes each frame of ``sequence`` after the first costs on a ``device_class`` device."""
    counter = Counter()
    device = device_class(counter)
    device.display(sequence[0])
    out = []
    for image in sequence[1:]:
        before = counter.total
        device.display(image)
        out.append(counter.total - before)
    return out


def pack_ms(frames: list[Image.Image], repeat: int) -> float:
    """Median time to pack one frame, in ms."""
    times = []
    for image in frames:
        start = time.perf_counter()
        for _ in range(repeat):
            pack_pages(image)
        times.append((time.perf_counter() - start) / repeat * 1000)
    return statistics.median(times)


def run(quick: bool) -> list[dict[str, Any]]:
    games = ["double-take"] if quick else [g.name for g in GAMES if g.name in KITS]
    seeds = [1] if quick else [1, 2, 3]
    drivers = {"ssd1306": ChangedPagesSSD1306, "sh1106": ChangedPagesSH1106, "luma": ssd1306}
    move_bytes: dict[str, list[float]] = {name: [] for name in drivers}
    other_bytes: list[float] = []
    every: list[Image.Image] = []
    for game in games:
        for seed in seeds:
            shown = game_frames(game, seed)
            images = [image for image, _ in shown]
            every.extend(images)
            for name, cls in drivers.items():
                # What an update costs depends on the frame before it: send them in order.
                for (_, after_move), cost in zip(shown[1:], sent(cls, images), strict=True):
                    if after_move:
                        move_bytes[name].append(cost)
                    elif name == "ssd1306":
                        other_bytes.append(cost)
    ours = (ChangedPagesSSD1306, ChangedPagesSH1106)
    menu_bytes = [float(b) for cls in ours for b in sent(cls, referee_menu_frames())]
    lobby_bytes = [float(b) for cls in ours for b in sent(cls, lobby_frames())]
    runs = 3 if quick else 5
    packing = [pack_ms(every[:40] if quick else every, 20) for _ in range(runs)]
    wire_ms = [b * 9 / I2C_HZ * 1000 for b in move_bytes["ssd1306"]]
    figures = [
        _fig("bytes per move update, SSD1306", "bytes", MOVE_TARGET, move_bytes["ssd1306"]),
        _fig("bytes per move update, SH1106", "bytes", MOVE_TARGET, move_bytes["sh1106"]),
        _fig("bytes per move update, luma's own ssd1306", "bytes", None, move_bytes["luma"]),
        _fig("bytes per menu frame (referee menus)", "bytes", MENU_TARGET, menu_bytes),
        _fig("bytes per lobby frame", "bytes", None, lobby_bytes),
        _fig("move update on the wire at 400 kHz", "ms", None, wire_ms),
        _fig("frame packing (pack_pages)", "ms", PACK_TARGET_MS, packing),
    ]
    if other_bytes:
        figures.append(
            _fig("bytes per other game frame (prompts, fixes)", "bytes", None, other_bytes)
        )
    return figures


def _fig(figure: str, unit: str, target: float | None, samples: list[float]) -> dict[str, Any]:
    return {
        "figure": figure,
        "unit": unit,
        "target": target,
        "better": "lower",
        "samples": [float(s) for s in samples],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game, fewer runs")
    args = parser.parse_args(argv)
    for fig in run(args.quick):
        samples = fig["samples"]
        target = "" if fig["target"] is None else f"  (target ≤ {fig['target']:g})"
        print(
            f"{fig['figure']:<46} median {statistics.median(samples):8.3f} {fig['unit']:<5} "
            f"min {min(samples):8.3f}  max {max(samples):8.3f}  n={len(samples)}{target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
