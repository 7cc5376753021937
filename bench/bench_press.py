"""How long a piece and a press take to be judged on the modelled hardware.

The simulator keeps the real parts' time (docs/timing.md): every figure here is
simulated time on a board modelled from its profile's ``[timing]``, from the hand to
the frame that shows the verdict (the OLED is drawn in the loop step that judged).

- "piece laid → verdict on the OLED": a piece is laid at a random moment of the
  board's sweep, on a game that judges each piece as it lands: a domino on the
  15×15 RFID board, a step on the Double Take occupancy boards.
- "press ok → judged": ok a quarter second (a person's pace) after the last piece of a
  turn: CAT in Crosslet on the RFID board, a move whose capture is declined with ok
  in Double Take on the occupancy boards.

Figures for information name the parts whose time adds up: the board's sweep, the
firmware's debounce and the host's settle window. Where a target is missed, they
say which part stands in the way.

    python bench/bench_press.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable
from typing import Any

from firmware_bridge.referees.decisions import Played
from firmware_bridge.sim.runner import SimOptions, Simulation
from wiring.loader import load_profile

RFID = "rfid-15x15-pico"
OCCUPANCY = ("double-take-pico", "double-take-gpio")
LAID_TARGET_RFID_MS = 300.0
LAID_TARGET_OCCUPANCY_MS = 250.0
OK_TARGET_MS = 250.0
PACE_S = 0.25
GIVE_UP_S = 30.0


def _judged_after(sim: Simulation, act: Callable[[], None]) -> float:
    """Simulated ms from ``act`` until the session judges an action (commits it)."""
    judged: list[float] = []

    def seen(_played: Played) -> None:
        judged.append(sim.clock.now())

    sim.commits.append(seen)
    start = sim.clock.now()
    act()
    while not judged and sim.clock.now() - start < GIVE_UP_S:
        sim.advance(sim.step_s)
    sim.commits.remove(seen)
    return ((judged[0] if judged else sim.clock.now()) - start) * 1000


def _started(opts: SimOptions, rng: random.Random) -> Simulation:
    sim = Simulation(opts)
    sim.start()
    # Anywhere in the board's sweep: the hand does not know where the firmware is.
    sim.advance(rng.uniform(0.0, 1.0))
    return sim


def domino_laid_ms(seed: int) -> float:
    """A domino laid on the RFID board until its move is shown accepted."""
    rng = random.Random(seed)
    sim = _started(SimOptions("dominoes", seed=1, profile=RFID), rng)
    try:
        sim.buttons.press("roll")  # player 1 draws 1-1 and holds 0-4 1-2 4-5
        sim.advance(PACE_S)
        sim.look()
        sim.advance(rng.uniform(0.0, 1.0))

        def lay() -> None:
            sim.world.place("H8", "2-1:2")
            sim.world.place("I8", "2-1:1")

        return _judged_after(sim, lay)
    finally:
        sim.close()


DOUBLE_TAKE_OPENING = (("a3", "a5", "red"), ("b7", "b5", "green"))


def _double_take(profile: str, rng: random.Random) -> Simulation:
    sim = _started(SimOptions("double-take", profile=profile), rng)
    for frm, to, colour in DOUBLE_TAKE_OPENING[:1]:
        sim.world.lift(frm)
        sim.world.place(to, colour)
        sim.advance(PACE_S)
        sim.interpreter.wait_for_board(looks=True)
    return sim


def step_laid_ms(profile: str, seed: int) -> float:
    """Green's step b7-b5 (lift, then the piece laid) until it is shown accepted."""
    rng = random.Random(seed)
    sim = _double_take(profile, rng)
    try:
        sim.world.lift("b7")
        sim.advance(rng.uniform(0.05, PACE_S))
        return _judged_after(sim, lambda: sim.world.place("b5", "green"))
    finally:
        sim.close()


def crosslet_ok_ms(seed: int) -> float:
    """CAT laid a tile every quarter second, ok a quarter second after the last."""
    from games.crosslet.board import TILE_COUNTS

    rest = sorted(t for t, n in TILE_COUNTS.items() for _ in range(n))
    for letter in "CATERS?DOGINQU":
        rest.remove(letter)
    bag = "CATERS?DOGINQU" + "".join(rest)
    rng = random.Random(seed)
    sim = _started(SimOptions("crosslet", profile=RFID, options={"bag": bag, "first": 1}), rng)
    try:
        for cell, letter in (("H8", "C"), ("I8", "A"), ("J8", "T")):
            sim.world.place(cell, letter)
            sim.advance(PACE_S)
        return _judged_after(sim, lambda: sim.buttons.press("ok"))
    finally:
        sim.close()


def double_take_ok_ms(profile: str, seed: int) -> float:
    """Red's c3-c5 laid, ok a quarter second later declines the capture of b5."""
    rng = random.Random(seed)
    sim = _double_take(profile, rng)
    try:
        sim.world.lift("b7")
        sim.world.place("b5", "green")
        sim.advance(PACE_S)
        sim.interpreter.wait_for_board(looks=True)
        sim.world.lift("c3")
        sim.advance(PACE_S)
        sim.world.place("c5", "red")
        sim.advance(PACE_S)
        return _judged_after(sim, lambda: sim.buttons.press("ok"))
    finally:
        sim.close()


def _parts(profile_name: str) -> list[dict[str, Any]]:
    """The board's parts whose time adds up, from its profile (for information)."""
    profile = load_profile(profile_name)
    timing = profile.timing
    rfid = profile.serial is not None and profile.serial.sensor == "rfid"
    if profile.matrix is not None:
        sweep_ms = 1000 / profile.matrix.scan_hz
    else:
        # The switches' scan and the loop; the tags are read where a switch changed.
        sweep_ms = (timing.scan_ms * 1000 + timing.loop_us) / 1000
    figures = [
        (f"{profile_name}: one sweep of the board's switches (modelled)", sweep_ms),
        (f"{profile_name}: host settle window", float(profile.settle_ms)),
    ]
    if rfid:
        read_ms = timing.read_us(bytes(7)) / 1000
        figures.insert(1, (f"{profile_name}: one tag read, 7-byte UID (modelled)", read_ms))
    if timing.debounce_ms:
        figures.insert(1, (f"{profile_name}: firmware debounce", timing.debounce_ms))
    return [
        {"figure": name, "unit": "ms", "target": None, "better": "lower", "samples": [value]}
        for name, value in figures
    ]


def run(quick: bool) -> list[dict[str, Any]]:
    seeds = range(1, 2 if quick else 12)
    figures: list[dict[str, Any]] = [
        {
            "figure": f"{RFID}: domino laid → verdict on the OLED (modelled)",
            "unit": "ms",
            "target": LAID_TARGET_RFID_MS,
            "better": "lower",
            "samples": [domino_laid_ms(seed) for seed in seeds],
        },
        {
            "figure": f"{RFID}: press ok → judged (modelled)",
            "unit": "ms",
            "target": OK_TARGET_MS,
            "better": "lower",
            "samples": [crosslet_ok_ms(seed) for seed in seeds],
        },
    ]
    for profile in OCCUPANCY:
        figures += [
            {
                "figure": f"{profile}: piece laid → verdict on the OLED (modelled)",
                "unit": "ms",
                "target": LAID_TARGET_OCCUPANCY_MS,
                "better": "lower",
                "samples": [step_laid_ms(profile, seed) for seed in seeds],
            },
            {
                "figure": f"{profile}: press ok → judged (modelled)",
                "unit": "ms",
                "target": OK_TARGET_MS,
                "better": "lower",
                "samples": [double_take_ok_ms(profile, seed) for seed in seeds],
            },
        ]
    for profile in (RFID, *OCCUPANCY):
        figures += _parts(profile)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    for figure in run(args.quick):
        samples = figure["samples"]
        target = figure["target"]
        aim = f"; target ≤ {target:.0f}" if target is not None else ""
        print(
            f"{figure['figure']}: median {statistics.median(samples):.0f} {figure['unit']} "
            f"(min {min(samples):.0f}, max {max(samples):.0f}, {len(samples)} runs{aim})"
        )


if __name__ == "__main__":
    main()
