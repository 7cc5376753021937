"""``tabletop install`` / ``tabletop uninstall``: the service on a Pi in one command.

Installing is a plan of steps worked out from what is there already (the facts), so
that running it twice does nothing the second time and ``--dry-run`` shows the plan
without doing it. The plan is pure; files are written by :func:`apply` under a root
folder (``/`` on the Pi, a scratch folder in tests), and commands (``useradd``,
``systemctl``) go to a :class:`Runner`, which tests replace with a recorder.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Protocol, TextIO

from wiring.config import load_config
from wiring.loader import is_path, load_profile
from wiring.profile import Profile

USER = "tabletop"
UNIT_NAME = "tabletop.service"
CONFIG = PurePosixPath("/etc/tabletop/tabletop.toml")
UNIT = PurePosixPath("/etc/systemd/system") / UNIT_NAME
WANTS = PurePosixPath("/etc/systemd/system/multi-user.target.wants") / UNIT_NAME
STATE_DIR = PurePosixPath("/var/lib/tabletop")
CACHE_DIR = PurePosixPath("/var/cache/tabletop")
BOOT_CONFIG = PurePosixPath("/boot/firmware/config.txt")
I2C_FAST = "dtparam=i2c_arm_baudrate=400000"
WARNING = "warning: "
"""How a dry run's plan begins a problem that would stop the install itself."""
HIDDEN_FROM_SERVICE = ("/home", "/root", "/run/user", "/tmp", "/var/tmp")
"""Folders the unit hides from the service (ProtectHome=, PrivateTmp=)."""

SERIAL_CLASSES = ("ttyACM", "ttyUSB", "ttyAMA", "ttyS")
"""Serial device classes (names in /proc/devices) a board's port may be."""


class InstallError(RuntimeError):
    """The service cannot be installed or removed as asked; the message says what to do."""


# --- the steps -------------------------------------------------------------------------


@dataclass(frozen=True)
class WriteFile:
    """Write ``text`` to ``path`` (a path on the target system) with ``mode``."""

    path: PurePosixPath
    text: str
    mode: int | None
    """None keeps the file's mode (the Pi's boot folder is FAT: it has none)."""
    why: str

    def describe(self) -> str:
        mode = "" if self.mode is None else f" (mode {self.mode:04o})"
        return f"write {self.path}{mode}: {self.why}"


@dataclass(frozen=True)
class Remove:
    """Remove the file or folder ``path``."""

    path: PurePosixPath
    why: str

    def describe(self) -> str:
        return f"remove {self.path}: {self.why}"


@dataclass(frozen=True)
class Run:
    """Run a command."""

    argv: tuple[str, ...]
    why: str

    def describe(self) -> str:
        return f"run {shlex.join(self.argv)}: {self.why}"


Step = WriteFile | Remove | Run


@dataclass(frozen=True)
class Plan:
    steps: list[Step]
    notes: list[str] = field(default_factory=list)
    """What the user should know that no step does (a group this system lacks, a reboot)."""


# --- what is there already -------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What the target system has now, as far as installing is concerned."""

    groups: dict[str, frozenset[str]]
    """Every group of /etc/group, with its member users."""
    user_exists: bool
    config_text: str | None
    unit_text: str | None
    enabled: bool
    active: bool
    state_dir: bool
    cache_dir: bool
    caches: frozenset[str]
    """The file names in the cache folder."""
    boot_config: str | None
    serial_targets: dict[str, str] = field(default_factory=dict)
    """Where each serial port symlink under /dev points, as far as it could be followed."""


class Runner(Protocol):
    """Runs the installer's commands."""

    def run(self, argv: Sequence[str]) -> None:
        """Run a command that changes the system; raise InstallError if it fails."""

    def query(self, argv: Sequence[str]) -> bool:
        """Run a command that only asks; whether it succeeded."""


class SystemRunner:
    """Runs commands for real, with subprocess."""

    def run(self, argv: Sequence[str]) -> None:
        try:
            done = subprocess.run(list(argv), capture_output=True, text=True, check=False)
        except OSError as exc:
            raise InstallError(
                f"cannot run {argv[0]}: {exc.strerror}; tabletop install is for Raspberry Pi "
                "OS (Debian with systemd)"
            ) from exc
        if done.returncode != 0:
            raise InstallError(
                f"{shlex.join(argv)} failed (exit {done.returncode}): "
                f"{(done.stderr or done.stdout).strip()}"
            )

    def query(self, argv: Sequence[str]) -> bool:
        try:
            return subprocess.run(list(argv), capture_output=True, check=False).returncode == 0
        except OSError:
            return False


def on_root(root: Path, path: PurePosixPath) -> Path:
    """``path`` of the target system, as found under ``root``."""
    return root / path.relative_to("/")


def _read(root: Path, path: PurePosixPath) -> str | None:
    try:
        return on_root(root, path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc.strerror}") from exc


def read_groups(text: str) -> dict[str, frozenset[str]]:
    """The groups of an /etc/group file, each with its member users."""
    groups: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[0]:
            groups[parts[0]] = frozenset(m for m in parts[3].split(",") if m)
    return groups


def survey(root: Path, runner: Runner, serial_ports: Sequence[str] = ()) -> Facts:
    """Look at the system under ``root``: users, groups, files, and the service's state."""
    passwd = _read(root, PurePosixPath("/etc/passwd")) or ""
    users = {line.split(":", 1)[0] for line in passwd.splitlines() if line}
    cache = on_root(root, CACHE_DIR)
    targets = {}
    for port in serial_ports:
        try:
            targets[port] = str(on_root(root, PurePosixPath(port)).resolve(strict=True).name)
        except (OSError, ValueError):
            continue
    return Facts(
        groups=read_groups(_read(root, PurePosixPath("/etc/group")) or ""),
        user_exists=USER in users,
        config_text=_read(root, CONFIG),
        unit_text=_read(root, UNIT),
        enabled=on_root(root, WANTS).is_symlink() or on_root(root, WANTS).exists(),
        active=runner.query(["systemctl", "is-active", "--quiet", UNIT_NAME]),
        state_dir=on_root(root, STATE_DIR).is_dir(),
        cache_dir=cache.is_dir(),
        caches=frozenset(p.name for p in cache.iterdir()) if cache.is_dir() else frozenset(),
        boot_config=_read(root, BOOT_CONFIG),
        serial_targets=targets,
    )


# --- what the board needs --------------------------------------------------------------


@dataclass(frozen=True)
class Needs:
    """The groups and device classes the service needs for a profile."""

    groups: tuple[str, ...]
    devices: tuple[str, ...]


def serial_classes(port: str, target: str | None) -> tuple[str, ...]:
    """The device classes a serial port may be: from the device it points to, when known."""
    name = target or PurePosixPath(port).name
    for kind in SERIAL_CLASSES:
        if re.fullmatch(rf"{kind}\d+", name):
            return (kind,)
    if "/by-id/" in port or "/by-path/" in port:
        return ("ttyACM", "ttyUSB")  # a USB serial device not plugged in yet
    if port in ("/dev/serial0", "/dev/serial1"):
        return ("ttyAMA", "ttyS")  # the Pi's own UARTs
    raise InstallError(
        f"the serial port {port!r} is not a serial device the service can be given: name a "
        "/dev/ttyACM*, /dev/ttyUSB*, /dev/ttyAMA*, /dev/serial0 or /dev/serial/by-id/ device"
    )


def needs(profile: Profile, serial_targets: dict[str, str]) -> Needs:
    """The buttons, buzzer, LED (and a matrix) are on GPIO, the OLED is on I2C, and a
    serial board needs dialout and its tty. No shipped board uses SPI."""
    groups = ["gpio", "i2c"]
    devices = ["char-gpiochip", "char-i2c"]
    if profile.serial is not None:
        groups.append("dialout")
        port = profile.serial.port
        devices += [f"char-{c}" for c in serial_classes(port, serial_targets.get(port))]
    return Needs(tuple(groups), tuple(devices))


def render_unit(
    template: str, bin_dir: PurePosixPath, groups: Sequence[str], devices: Sequence[str]
) -> str:
    """The shipped unit, fitted to this venv, these groups and these devices."""
    out: list[str] = []
    for line in template.splitlines():
        if line.startswith("ExecStart="):
            out.append(f"ExecStart={bin_dir / 'tabletop'} run --config {CONFIG}")
        elif line.startswith("SupplementaryGroups="):
            if groups:
                out.append(f"SupplementaryGroups={' '.join(groups)}")
        elif line.startswith("DeviceAllow="):
            out += [f"DeviceAllow={d} rw" for d in devices]
            devices = ()
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def shipped_unit() -> str:
    return (resources.files("firmware_bridge") / "systemd" / UNIT_NAME).read_text(encoding="utf-8")


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


# --- the plans -------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """What to install: the board's profile, the venv to run from, and the I2C speed."""

    bin_dir: PurePosixPath
    """The venv's bin folder, with ``tabletop`` and ``python`` in it."""
    profile: Profile
    profile_ref: str
    """How the run config names the profile: a shipped name, or the path of a file."""
    words: PurePosixPath | None = None
    """The run config's own word list, if it names one."""
    word_list_md5: str | None = None
    """The md5 of the word list the word games judge with; None when no game judges words."""
    journal: PurePosixPath = STATE_DIR / "journal.sqlite"
    tags: PurePosixPath = STATE_DIR / "tags.json"
    i2c_fast: bool = False


def _inside(path: PurePosixPath, folder: PurePosixPath) -> bool:
    return path == folder or folder in path.parents


def check_request(request: Request) -> None:
    """Refuse what the hardened unit could not run: raise InstallError naming every problem."""
    problems = request_problems(request)
    if problems:
        raise InstallError("cannot install the service:\n  - " + "\n  - ".join(problems))


def request_problems(request: Request) -> list[str]:
    """What the hardened unit could not run, in words (empty: nothing)."""
    problems = []
    for hidden in HIDDEN_FROM_SERVICE:
        if request.profile_ref.startswith("/") and _inside(
            PurePosixPath(request.profile_ref), PurePosixPath(hidden)
        ):
            problems.append(
                f"the profile {request.profile_ref} is under {hidden}, which the service "
                "cannot see: copy it to /etc/tabletop and install with that copy"
            )
        if _inside(request.bin_dir, PurePosixPath(hidden)):
            problems.append(
                f"the venv {request.bin_dir.parent} is under {hidden}, which the service cannot "
                "see: make it under /opt (python3 -m venv /opt/tabletop/venv) and install "
                "from there"
            )
        if request.words is not None and _inside(request.words, PurePosixPath(hidden)):
            problems.append(
                f"the word list {request.words} is under {hidden}, which the service cannot "
                f"see: copy it to {STATE_DIR} and name that copy in {CONFIG}"
            )
    for what, path in (("journal", request.journal), ("tags", request.tags)):
        if not _inside(path, STATE_DIR):
            problems.append(
                f"the {what} {path} is outside {STATE_DIR}, the only folder the service may "
                f"write: set {what} in {CONFIG} to a file in {STATE_DIR}"
            )
    return problems


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
        argv += ["firmware_bridge.lexicon_store", "--cache-dir", str(CACHE_DIR)]
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


# --- carrying a plan out ---------------------------------------------------------------


def apply(plan: Plan, root: Path, runner: Runner, out: TextIO) -> None:
    """Carry out every step in order, saying what is done."""
    for step in plan.steps:
        print(f"tabletop: {step.describe()}", file=out, flush=True)
        if isinstance(step, Run):
            runner.run(step.argv)
        elif isinstance(step, WriteFile):
            _write(on_root(root, step.path), step.text, step.mode)
        else:
            target = on_root(root, step.path)
            try:
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                else:
                    target.unlink(missing_ok=True)
            except OSError as exc:
                raise InstallError(f"cannot remove {step.path}: {exc.strerror}") from exc


def _write(path: Path, text: str, mode: int | None) -> None:
    """Write the whole file or nothing: a temporary file renamed over it."""
    temporary = path.with_name(f".{path.name}.new")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise InstallError(f"cannot write {path}: {exc.strerror}") from exc


def show(plan: Plan, out: TextIO, *, done: bool) -> None:
    """Print the plan (for --dry-run) or what is left to know after it ran."""
    if not done:
        if not plan.steps:
            print("tabletop: nothing to do: it is installed as asked", file=out)
        for step in plan.steps:
            print(f"would {step.describe()}", file=out)
    elif not plan.steps:
        print("tabletop: nothing to do: it is installed as asked", file=out)
    for note in plan.notes:
        print(note if note.startswith(WARNING) else f"note: {note}", file=out)


# --- the commands ----------------------------------------------------------------------


def _check_root(args: argparse.Namespace) -> Path:
    root: Path = args.root.resolve()
    if args.dry_run:
        return root
    if root != Path("/"):
        raise InstallError("--root is for looking at the plan: add --dry-run")
    if os.geteuid() != 0:
        raise InstallError(f"{args.command} changes the system: run it with sudo")
    return root


def build_request(
    root: Path, config_text: str | None, profile_name: str | None, bin_dir: PurePosixPath
) -> Request:
    """The request from the existing run config, or from ``--profile`` when there is none."""
    from games.core import GameError

    from .kits import find_kit
    from .lexicon_store import SHIPPED_LIST_MD5, read_word_list

    words = None
    journal, tags = STATE_DIR / "journal.sqlite", STATE_DIR / "tags.json"
    if config_text is not None:
        config = load_config(on_root(root, CONFIG))
        profile = config.profile
        if profile_name is not None and profile_name not in (profile.name, profile.source):
            raise InstallError(
                f"{CONFIG} names the profile {profile.name!r}, not {profile_name!r}: edit "
                "the config (it is never overwritten), or leave out --profile"
            )
        reference = profile.name
        words = PurePosixPath(config.words) if config.words is not None else None
        journal, tags = PurePosixPath(config.journal), PurePosixPath(config.tags)
    elif profile_name is None:
        raise InstallError(
            "name the board: tabletop install --profile NAME (`tabletop wiring` lists them)"
        )
    else:
        profile = load_profile(profile_name)
        reference = str(Path(profile_name).resolve()) if is_path(profile_name) else profile.name
    if profile.simulated_only:
        raise InstallError(
            f"profile {profile.name!r} is for `tabletop sim` only: name the profile of the "
            "real board, e.g. double-take-gpio"
        )
    word_games = []
    for name in profile.games:
        try:
            if find_kit(name).word_game:
                word_games.append(name)
        except GameError:
            continue
    md5 = None
    if word_games:
        md5 = SHIPPED_LIST_MD5 if words is None else read_word_list(Path(words))[1]
    return Request(bin_dir, profile, reference, words, md5, journal, tags)


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
