"""``tabletop rf PROFILE``: the RFID radio's per-antenna table, computed by ngspice, and
with ``--s1p`` one antenna's simulated S11 to lay beside a NanoVNA sweep."""

from __future__ import annotations

import argparse
from typing import TextIO


def cmd_rf(args: argparse.Namespace, out: TextIO) -> int:
    from wiring.loader import load_profile
    from wiring.rf.checks import bandwidth_10db, check_radio, match_sweep, rf_report, touchstone
    from wiring.rf.design import design
    from wiring.rf.spice import SpiceError

    radio = design(load_profile(args.profile))
    name = args.antenna or radio.antennas[0].name
    if name not in {a.name for a in radio.antennas}:
        names = ", ".join(a.name for a in radio.antennas)
        raise ValueError(f"--antenna {name}: {radio.profile} has the antennas {names}")
    try:
        results = check_radio(radio)
        print(rf_report(radio, results), file=out)
        if args.s1p is not None:
            points = match_sweep(radio, radio.antenna(name))
            title = f"{radio.profile} antenna {name}: simulated S11 at the 50 ohm point"
            try:
                args.s1p.write_text(touchstone(points, title), encoding="utf-8")
            except OSError as exc:
                raise ValueError(f"--s1p {args.s1p}: {exc.strerror or exc}") from None
            lo, hi = bandwidth_10db(points)
            print(
                f"simulated S11 of {name} written to {args.s1p} "
                f"(return loss 10 dB or better from {lo / 1e6:.2f} to {hi / 1e6:.2f} MHz)",
                file=out,
            )
    except SpiceError as exc:
        raise ValueError(str(exc)) from None
    problems = [p for r in results for p in r.problems()]
    for p in problems:
        print(f"problem: {p}", file=out)
    return 1 if problems else 0
