"""The plans: the steps that install or remove the service, worked out from the facts (pure)."""

from __future__ import annotations

import json
import re
from importlib import resources

from wiring.profile import Profile

from .places import (
    BOOT_CONFIG,
    CACHE_DIR,
    CONFIG,
    I2C_FAST,
    STATE_DIR,
    UNIT,
    UNIT_NAME,
    USER,
    WARNING,
)
from .request import Request, check_request, request_problems
from .steps import Plan, Remove, Run, Step, WriteFile
from .survey import Facts
from .unit import needs, render_unit


def example_config(profile: Profile, reference: str) -> str:
    """The example run config, naming this profile (by ``reference``: its name or its
    file), and its game when it has only one."""
    text = (resources.files("wiring.examples") / "tabletop.toml").read_text(encoding="utf-8")
    text = re.sub(r'(?m)^profile = ".*"$', f"profile = {json.dumps(reference)}", text)
    if len(profile.games) == 1:
        text = re.sub(r'(?m)^game = ".*"$', f'game = "{profile.games[0]}"', text)
    else:
        text = re.sub(r"(?m)^(game|players) = ", r"# \1 = ", text)
    return text


def cache_files(md5: str) -> tuple[str, str]:
    """The word index and move generator cache files of a list (see lexicon_store)."""
    return (f"lexicon-{md5}.idx", f"movegen-{md5}.bin")


def plan_install(request: Request, facts: Facts, template: str, *, dry_run: bool = False) -> Plan:
    """The steps that bring the system from ``facts`` to an installed, running service.

    What the service could not run is refused; a dry run shows its plan all the same,
    with each such problem as a warning (a venv in a clone under /home or /tmp is
    fine for looking at the plan, not for the service)."""
    notes: list[str] = []
    if dry_run:
        notes += [f"{WARNING}installing would stop here: {p}" for p in request_problems(request)]
    else:
        check_request(request)
    steps: list[Step] = []
    want = needs(request.profile, facts.serial_targets)
    groups = [g for g in want.groups if g in facts.groups]
    for g in want.groups:
        if g not in facts.groups:
            notes.append(
                f"this system has no {g} group: the service runs without it (on Raspberry "
                "Pi OS the group exists; elsewhere the devices may not be reachable)"
            )
    if not facts.user_exists:
        argv = ["useradd", "--system", "--user-group", "--no-create-home"]
        argv += ["--home-dir", str(STATE_DIR), "--shell", "/usr/sbin/nologin"]
        if groups:
            argv += ["--groups", ",".join(groups)]
        member = f", in the groups {', '.join(groups)}" if groups else ""
        steps.append(Run((*argv, USER), f"the system user the service runs as{member}"))
    else:
        missing = [g for g in groups if USER not in facts.groups[g]]
        if missing:
            steps.append(
                Run(
                    ("usermod", "--append", "--groups", ",".join(missing), USER),
                    f"the board needs the groups {', '.join(missing)}",
                )
            )
    if facts.config_text is None:
        steps.append(
            WriteFile(
                CONFIG,
                example_config(request.profile, request.profile_ref),
                0o644,
                "the run config (edit it)",
            )
        )
    if not (facts.state_dir and facts.cache_dir):
        steps.append(
            Run(
                (
                    "install",
                    "-d",
                    "-o",
                    USER,
                    "-g",
                    USER,
                    "-m",
                    "0700",
                    str(STATE_DIR),
                    str(CACHE_DIR),
                ),
                "the service's own folders: saved games, and the word caches",
            )
        )
    md5 = request.word_list_md5
    if md5 is not None and not set(cache_files(md5)) <= facts.caches:
        argv = ["runuser", "-u", USER, "--", str(request.bin_dir / "python"), "-m"]
        argv += ["firmware_bridge.kits.lexicon_store", "--cache-dir", str(CACHE_DIR)]
        if request.words is not None:
            argv += ["--list", str(request.words)]
        steps.append(Run(tuple(argv), "build the word index and move generator caches"))
    unit = render_unit(template, request.bin_dir, groups, want.devices)
    unit_changed = facts.unit_text != unit
    if unit_changed:
        steps.append(WriteFile(UNIT, unit, 0o644, "the hardened systemd unit"))
        steps.append(Run(("systemctl", "daemon-reload"), "systemd reads the unit"))
    if request.i2c_fast:
        steps += _i2c_fast(facts, notes)
    if not facts.enabled:
        steps.append(
            Run(("systemctl", "enable", "--now", UNIT_NAME), "start now and at every boot")
        )
    elif unit_changed and facts.active:
        steps.append(Run(("systemctl", "restart", UNIT_NAME), "run with the new unit"))
    elif not facts.active:
        steps.append(Run(("systemctl", "start", UNIT_NAME), "start the service"))
    return Plan(steps, notes)


def _i2c_fast(facts: Facts, notes: list[str]) -> list[Step]:
    """Set the I2C bus to 400 kHz in the Pi's boot config (the OLED draws 4 times faster)."""
    text = facts.boot_config
    if text is None:
        notes.append(f"there is no {BOOT_CONFIG}: the I2C speed is left as it is")
        return []
    speeds = re.findall(r"(?m)^\s*dtparam=i2c_arm_baudrate=(\S+)", text)
    if speeds == ["400000"]:
        return []
    if speeds:
        notes.append(
            f"{BOOT_CONFIG} already sets i2c_arm_baudrate={speeds[-1]}: left as it is; "
            f"change it to 400000 yourself for the faster OLED"
        )
        return []
    notes.append("the I2C speed takes effect after a reboot (sudo reboot)")
    new = text + ("" if text.endswith("\n") or not text else "\n") + I2C_FAST + "\n"
    return [WriteFile(BOOT_CONFIG, new, None, f"{I2C_FAST}: the OLED on I2C at 400 kHz")]


def plan_uninstall(facts: Facts) -> Plan:
    """The steps that remove the service, its user and its caches, keeping the saved games
    and the run config."""
    steps: list[Step] = []
    if facts.enabled or facts.active:
        steps.append(Run(("systemctl", "disable", "--now", UNIT_NAME), "stop it, and not at boot"))
    if facts.unit_text is not None:
        steps.append(Remove(UNIT, "the unit"))
        steps.append(Run(("systemctl", "daemon-reload"), "systemd forgets the unit"))
    if facts.cache_dir:
        steps.append(Remove(CACHE_DIR, "the word caches (rebuilt when needed)"))
    if facts.user_exists:
        steps.append(Run(("userdel", USER), "the service's user (its files stay)"))
    notes = []
    if facts.state_dir:
        notes.append(f"kept the saved games in {STATE_DIR}")
    if facts.config_text is not None:
        notes.append(f"kept the run config {CONFIG}")
    return Plan(steps, notes)
