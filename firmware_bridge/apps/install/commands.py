"""`tabletop install` and `tabletop uninstall`: survey, plan, ask, apply, report."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TextIO

from msgspec.structs import replace

from ..errors import InstallError
from .carry_out import apply, show
from .places import BOOT_CONFIG, CONFIG, I2C_FAST
from .plans import plan_install, plan_uninstall
from .request import build_request
from .steps import Plan
from .survey import Runner, SystemRunner, _read, survey
from .unit import shipped_unit


def _check_root(args: argparse.Namespace) -> Path:
    root: Path = args.root.resolve()
    if args.dry_run:
        return root
    if root != Path("/"):
        raise InstallError("--root is for looking at the plan: add --dry-run")
    if os.geteuid() != 0:
        raise InstallError(f"{args.command} changes the system: run it with sudo")
    return root


def cmd_install(args: argparse.Namespace, out: TextIO, ask: Callable[[str], bool]) -> int:
    """``tabletop install``."""
    root = _check_root(args)
    bin_dir = PurePosixPath(Path(sys.executable).parent)
    if not (Path(bin_dir) / "tabletop").exists():
        raise InstallError(
            f"there is no tabletop in {bin_dir}: run the tabletop of the venv the service "
            "should use, e.g. sudo /opt/tabletop/venv/bin/tabletop install"
        )
    install(
        root,
        SystemRunner(),
        out,
        bin_dir=bin_dir,
        profile_name=args.profile,
        i2c_fast=args.i2c_fast,
        dry_run=args.dry_run,
        ask=ask,
    )
    return 0


def cmd_uninstall(args: argparse.Namespace, out: TextIO) -> int:
    """``tabletop uninstall``."""
    uninstall(_check_root(args), SystemRunner(), out, dry_run=args.dry_run)
    return 0


def install(
    root: Path,
    runner: Runner,
    out: TextIO,
    *,
    bin_dir: PurePosixPath,
    profile_name: str | None = None,
    i2c_fast: bool | None = None,
    dry_run: bool = False,
    ask: Callable[[str], bool] | None = None,
) -> Plan:
    """Install (or, with ``dry_run``, show how) onto the system under ``root``; the plan.

    ``i2c_fast`` None asks ``ask`` (when the boot config does not set the speed yet).
    """
    request = build_request(root, _read(root, CONFIG), profile_name, bin_dir)
    serial = request.profile.serial
    facts = survey(root, runner, [serial.port] if serial is not None else [])
    unset = facts.boot_config is not None and "i2c_arm_baudrate" not in facts.boot_config
    if i2c_fast is None and unset and not dry_run and ask is not None:
        i2c_fast = ask(
            f"Set the I2C bus to 400 kHz ({I2C_FAST} in {BOOT_CONFIG}), so the OLED draws "
            "faster? It takes effect after a reboot. [y/N] "
        )
    plan = plan_install(
        replace(request, i2c_fast=bool(i2c_fast)), facts, shipped_unit(), dry_run=dry_run
    )
    if i2c_fast is None and unset:
        plan.notes.append(f"the I2C bus keeps its speed; --i2c-fast sets {I2C_FAST}")
    if not dry_run:
        apply(plan, root, runner, out)
    show(plan, out, done=not dry_run)
    if not dry_run:
        print("tabletop: installed; follow it with journalctl -u tabletop -f", file=out)
    return plan


def uninstall(root: Path, runner: Runner, out: TextIO, *, dry_run: bool = False) -> Plan:
    """Remove the service from the system under ``root``, keeping the saved games; the plan."""
    plan = plan_uninstall(survey(root, runner))
    if not dry_run:
        apply(plan, root, runner, out)
    show(plan, out, done=not dry_run)
    return plan


def ask_yes(question: str) -> bool:
    """Ask on the terminal; no terminal (a script, a pipe) means no."""
    if not sys.stdin.isatty():
        return False
    print(question, end="", flush=True)
    return sys.stdin.readline().strip().lower() in ("y", "yes")
