"""The board-building commands: ``tabletop wiring``, ``bom`` and ``netlist`` (a profile's pin
table, bill of materials and KiCad netlist)."""

from __future__ import annotations

import argparse
from typing import TextIO

from wiring.errors import ProfileError


def cmd_wiring(args: argparse.Namespace, out: TextIO) -> int:
    from wiring.loader import list_profiles, load_profile
    from wiring.table import pin_table

    from ..checks import check_profile

    if args.svg is not None and not args.profile:
        raise ValueError("--svg draws one profile: name it, e.g. tabletop wiring sim --svg sim.svg")
    if not args.profile:
        # The list, not every table: one profile's pins are what a maker wires.
        for name in list_profiles():
            print(f"{name:<26} {load_profile(name).description}", file=out)
        print("tabletop wiring PROFILE: one profile's pin table (--svg FILE draws it)", file=out)
        return 0
    profile = load_profile(args.profile)
    found = check_profile(profile)
    if found.problems:
        count = len(found.problems)
        raise ProfileError(
            f"profile {profile.source or args.profile} has {count} problem"
            f"{'s' if count != 1 else ''}",
            found.problems,
        )
    if args.svg is not None:
        from wiring.diagram import wiring_svg

        # Written before anything is printed: a path that cannot be written is the one line.
        try:
            args.svg.write_text(wiring_svg(profile), encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"--svg {args.svg}: {exc.strerror or exc}") from None
    print(pin_table(profile), file=out)
    for warning in found.warnings:
        print(f"warning: {warning}", file=out)
    print(f"profile {profile.name}: OK", file=out)
    if args.svg is not None:
        print(f"wiring diagram of {profile.name} written to {args.svg}", file=out)
    return 0


def cmd_bom(args: argparse.Namespace, out: TextIO) -> int:
    from wiring.bom import bom_csv, bom_table
    from wiring.loader import list_profiles, load_profile

    from ...kits import piece_sets

    names = [args.profile] if args.profile else list_profiles()
    for i, name in enumerate(names):
        profile = load_profile(name)
        if args.csv:
            print(bom_csv(profile, piece_sets()), end="", file=out)
        else:
            if i:
                print(file=out)
            print(bom_table(profile, piece_sets()), file=out)
    return 0


def cmd_netlist(args: argparse.Namespace, out: TextIO) -> int:
    from wiring.loader import load_profile
    from wiring.netlist import write_netlist

    return write_netlist(load_profile(args.profile), args.kicad, out)
