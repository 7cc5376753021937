"""``tabletop pcb PROFILE DIR [--fab]``: a Pico board's KiCad 9 project, checked by
KiCad (ERC, DRC with schematic parity), and with ``--fab`` its fab files."""

from __future__ import annotations

import argparse
from typing import TextIO


def cmd_pcb(args: argparse.Namespace, out: TextIO) -> int:
    from wiring.loader import load_profile
    from wiring.pcb.project import make_project

    from ...kits import piece_sets

    profile = load_profile(args.profile)
    try:
        checks = make_project(profile, piece_sets(), args.dir, args.fab)
    except OSError as exc:
        raise ValueError(f"{args.dir}: {exc.strerror or exc}") from None
    print(
        f"KiCad project of {profile.name} written to {args.dir}: {checks.parts} parts, "
        f"{checks.nets} nets, a {checks.width_mm:.0f} × {checks.height_mm:.0f} mm 2-layer board",
        file=out,
    )
    print(f"ERC: {checks.erc_errors} errors, {checks.erc_warnings} warnings", file=out)
    print(
        f"DRC: {checks.drc_errors} errors, {checks.unconnected} unconnected items, "
        f"{checks.parity} schematic parity problems, {checks.drc_warnings} warnings",
        file=out,
    )
    if args.fab:
        fab = args.dir / "fab"
        print(f"fab files (Gerbers, drill, CPL, schematic PDF, BOM, pictures) in {fab}", file=out)
    bad = checks.erc_errors or checks.drc_errors or checks.unconnected or checks.parity
    return 1 if bad else 0
