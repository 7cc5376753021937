"""``tabletop install`` and ``uninstall`` against a scratch root folder.

The commands go to a stand-in for the system that records them and does to the
scratch root's /etc/passwd, /etc/group and folders what the real command would, so
that running the installer twice is a real second run on the result of the first.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.install import (
    CACHE_DIR,
    CONFIG,
    I2C_FAST,
    STATE_DIR,
    UNIT,
    WANTS,
    InstallError,
    Plan,
    install,
    on_root,
    uninstall,
)
from firmware_bridge.kits.lexicon_store import SHIPPED_LIST_MD5
from tests.firmware_bridge.test_service_unit import MAX_EXPOSURE, exposure, settings
from wiring.config import load_config

BIN = PurePosixPath("/opt/tabletop/venv/bin")

GROUPS = "root:x:0:\ndialout:x:20:pi\nspi:x:999:pi\ni2c:x:998:pi\ngpio:x:997:pi\npi:x:1000:\n"
PASSWD = "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n"
BOOT = "# Raspberry Pi config\ndtparam=i2c_arm=on\n"


class FakeSystem:
    """Records every command; applies useradd, usermod, userdel, install -d, the cache
    build and systemctl to the files under ``root``, as the real ones would."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.commands: list[list[str]] = []
        self.active = False

    def path(self, path: str | PurePosixPath) -> Path:
        return on_root(self.root, PurePosixPath(path))

    def _edit_groups(self, user: str, add: Sequence[str], remove: bool = False) -> None:
        file = self.path("/etc/group")
        lines = []
        for line in file.read_text().splitlines():
            name, x, gid, members = line.split(":")
            users = [m for m in members.split(",") if m and not (remove and m == user)]
            if name in add and user not in users:
                users.append(user)
            lines.append(":".join([name, x, gid, ",".join(users)]))
        file.write_text("\n".join(lines) + "\n")

    def run(self, command: Sequence[str]) -> None:
        argv = list(command)
        self.commands.append(argv)
        tool, *rest = argv
        if tool == "useradd":
            user = rest[-1]
            with self.path("/etc/passwd").open("a") as f:
                f.write(f"{user}:x:999:999::/var/lib/tabletop:/usr/sbin/nologin\n")
            with self.path("/etc/group").open("a") as f:
                f.write(f"{user}:x:999:\n")
            if "--groups" in rest:
                self._edit_groups(user, rest[rest.index("--groups") + 1].split(","))
        elif tool == "usermod":
            self._edit_groups(rest[-1], rest[rest.index("--groups") + 1].split(","))
        elif tool == "userdel":
            file = self.path("/etc/passwd")
            kept = [x for x in file.read_text().splitlines() if not x.startswith(f"{rest[0]}:")]
            file.write_text("\n".join(kept) + "\n")
            self._edit_groups(rest[0], [], remove=True)
        elif tool == "install":
            for folder in rest[7:]:
                self.path(folder).mkdir(parents=True, exist_ok=True)
        elif tool == "runuser":
            cache = self.path(rest[rest.index("--cache-dir") + 1])
            for name in (f"lexicon-{SHIPPED_LIST_MD5}.idx", f"movegen-{SHIPPED_LIST_MD5}.bin"):
                (cache / name).write_bytes(b"cache")
        elif argv[:3] == ["systemctl", "enable", "--now"]:
            self.path(WANTS).parent.mkdir(parents=True, exist_ok=True)
            self.path(WANTS).symlink_to(UNIT)
            self.active = True
        elif argv[:3] == ["systemctl", "disable", "--now"]:
            self.path(WANTS).unlink()
            self.active = False
        elif argv[:2] in (["systemctl", "start"], ["systemctl", "restart"]):
            self.active = True

    def query(self, argv: Sequence[str]) -> bool:
        assert list(argv) == ["systemctl", "is-active", "--quiet", "tabletop.service"]
        return self.active


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/group").write_text(GROUPS)
    (root / "etc/passwd").write_text(PASSWD)
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(BOOT)
    return root


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under root: its bytes, mode and modification time."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            st = path.stat()
            out[str(path.relative_to(root))] = (path.read_bytes(), st.st_mode, st.st_mtime_ns)
    return out


def run_install(root: Path, system: FakeSystem, **kw: object) -> tuple[Plan, str]:
    out = io.StringIO()
    plan = install(root, system, out, **{"bin_dir": BIN, **kw})  # type: ignore[arg-type]
    return plan, out.getvalue()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_install_makes_the_user_config_and_unit_and_starts_the_service(root: Path) -> None:
    system = FakeSystem(root)
    run_install(root, system, profile_name="double-take-gpio", i2c_fast=False)
    assert system.commands == [
        [
            "useradd", "--system", "--user-group", "--no-create-home",
            "--home-dir", "/var/lib/tabletop", "--shell", "/usr/sbin/nologin",
            "--groups", "gpio,i2c", "tabletop",
        ],
        [
            "install", "-d", "-o", "tabletop", "-g", "tabletop", "-m", "0700",
            "/var/lib/tabletop", "/var/cache/tabletop",
        ],
        ["systemctl", "daemon-reload"],
        ["systemctl", "enable", "--now", "tabletop.service"],
    ]  # fmt: skip
    config = system.path(CONFIG)
    assert mode(config) == 0o644
    loaded = load_config(config)
    assert loaded.profile.name == "double-take-gpio" and loaded.game == "double-take"
    assert loaded.journal == Path(STATE_DIR / "journal.sqlite")
    unit = system.path(UNIT)
    assert mode(unit) == 0o644
    fitted = settings(unit)
    assert fitted["ExecStart"] == [f"{BIN}/tabletop run --config {CONFIG}"]
    assert fitted["SupplementaryGroups"] == ["gpio i2c"]
    assert fitted["DeviceAllow"] == ["char-gpiochip rw", "char-i2c rw"]
    assert system.active and (root / "boot/firmware/config.txt").read_text() == BOOT


def test_installing_twice_changes_nothing(root: Path) -> None:
    system = FakeSystem(root)
    run_install(root, system, profile_name="rfid-15x15-pico", i2c_fast=True)
    before, done = snapshot(root), len(system.commands)
    plan, text = run_install(root, system, profile_name="rfid-15x15-pico", i2c_fast=True)
    assert plan.steps == [] and len(system.commands) == done
    assert snapshot(root) == before
    assert "nothing to do" in text
    # Without --profile the run config says which board it is.
    plan, _ = run_install(root, system, i2c_fast=True)
    assert plan.steps == []


def test_a_word_game_board_builds_the_word_caches_as_the_service_user(root: Path) -> None:
    system = FakeSystem(root)
    run_install(root, system, profile_name="rfid-15x15-pico", i2c_fast=False)
    assert [
        "runuser", "-u", "tabletop", "--", f"{BIN}/python", "-m",
        "firmware_bridge.kits.lexicon_store", "--cache-dir", "/var/cache/tabletop",
    ] in system.commands  # fmt: skip
    unit = settings(system.path(UNIT))
    assert unit["SupplementaryGroups"] == ["gpio i2c dialout"]
    # A by-id name of a board not plugged in: the USB serial classes, nothing else.
    assert unit["DeviceAllow"] == [
        "char-gpiochip rw", "char-i2c rw", "char-ttyACM rw", "char-ttyUSB rw"
    ]  # fmt: skip


def test_the_fitted_unit_is_rated_safe(root: Path) -> None:
    system = FakeSystem(root)
    run_install(root, system, profile_name="rfid-15x15-pico", i2c_fast=False)
    assert exposure(system.path(UNIT)) <= MAX_EXPOSURE


def test_an_existing_config_is_never_overwritten_and_names_the_board(root: Path) -> None:
    config = on_root(root, CONFIG)
    config.parent.mkdir(parents=True)
    text = '# mine\nprofile = "double-take-pico"\nlog_level = "DEBUG"\n'
    config.write_text(text)
    system = FakeSystem(root)
    run_install(root, system, i2c_fast=False)
    assert config.read_text() == text
    assert settings(system.path(UNIT))["SupplementaryGroups"] == ["gpio i2c dialout"]


def test_a_profile_other_than_the_configs_is_refused_before_anything_is_done(
    root: Path,
) -> None:
    config = on_root(root, CONFIG)
    config.parent.mkdir(parents=True)
    config.write_text('profile = "double-take-pico"\n')
    before = snapshot(root)
    system = FakeSystem(root)
    with pytest.raises(InstallError, match="names the profile 'double-take-pico'"):
        run_install(root, system, profile_name="double-take-gpio")
    assert system.commands == [] and snapshot(root) == before


def test_a_user_already_there_only_gains_the_missing_groups(root: Path) -> None:
    (root / "etc/passwd").write_text(PASSWD + "tabletop:x:999:999::/:/usr/sbin/nologin\n")
    (root / "etc/group").write_text(GROUPS.replace("gpio:x:997:pi", "gpio:x:997:pi,tabletop"))
    system = FakeSystem(root)
    run_install(root, system, profile_name="double-take-gpio", i2c_fast=False)
    assert system.commands[0] == ["usermod", "--append", "--groups", "i2c", "tabletop"]


def test_dry_run_prints_the_plan_and_does_nothing(root: Path) -> None:
    before = snapshot(root)
    system = FakeSystem(root)
    plan, text = run_install(root, system, profile_name="double-take-gpio", dry_run=True)
    assert system.commands == [] and snapshot(root) == before
    lines = text.splitlines()
    assert lines[0].startswith("would run useradd --system")
    assert f"would write {UNIT} (mode 0644): the hardened systemd unit" in lines
    assert (
        lines.count(
            "would run systemctl enable --now tabletop.service: start now and at every boot"
        )
        == 1
    )
    assert f"note: the I2C bus keeps its speed; --i2c-fast sets {I2C_FAST}" in lines
    assert len(plan.steps) == 6


def test_the_i2c_speed_is_set_only_when_asked_for(root: Path) -> None:
    boot = root / "boot/firmware/config.txt"
    system = FakeSystem(root)
    asked: list[str] = []

    def no(question: str) -> bool:
        asked.append(question)
        return False

    run_install(root, system, profile_name="double-take-gpio", ask=no)
    assert boot.read_text() == BOOT and len(asked) == 1  # asked, and the answer was no
    run_install(root, system, profile_name="double-take-gpio", ask=lambda q: True)
    assert boot.read_text() == BOOT + I2C_FAST + "\n"
    run_install(root, system, profile_name="double-take-gpio", i2c_fast=True)
    assert boot.read_text().count(I2C_FAST) == 1


def test_another_i2c_speed_already_set_is_left_alone(root: Path) -> None:
    boot = root / "boot/firmware/config.txt"
    boot.write_text(BOOT + "dtparam=i2c_arm_baudrate=1000000\n")
    _, text = run_install(root, FakeSystem(root), profile_name="double-take-gpio",
                          i2c_fast=True)  # fmt: skip
    assert boot.read_text().endswith("=1000000\n")
    assert "already sets i2c_arm_baudrate=1000000" in text


@pytest.mark.parametrize(
    ("config_line", "bin_dir", "problem"),
    [
        ("", PurePosixPath("/home/pi/venv/bin"), "make it under /opt"),
        ('journal = "/home/pi/j.sqlite"\n', BIN, "journal /home/pi/j.sqlite is outside"),
        ('tags = "/srv/tags.json"\n', BIN, "tags /srv/tags.json is outside"),
    ],
)
def test_what_the_hardened_service_could_not_reach_is_refused(
    root: Path, config_line: str, bin_dir: PurePosixPath, problem: str
) -> None:
    config = on_root(root, CONFIG)
    config.parent.mkdir(parents=True)
    config.write_text('profile = "double-take-gpio"\n' + config_line)
    before = snapshot(root)
    system = FakeSystem(root)
    with pytest.raises(InstallError, match=problem):
        install(root, system, io.StringIO(), bin_dir=bin_dir, i2c_fast=False)
    assert system.commands == [] and snapshot(root) == before


def test_a_dry_run_shows_its_plan_with_a_warning_for_what_would_be_refused(root: Path) -> None:
    system = FakeSystem(root)
    bin_dir = PurePosixPath("/home/pi/tabletop/.venv/bin")
    plan, text = run_install(
        root, system, profile_name="double-take-gpio", dry_run=True, bin_dir=bin_dir
    )
    assert system.commands == [] and len(plan.steps) == 6
    lines = text.splitlines()
    assert lines[0].startswith("would run useradd --system")
    warning = next(line for line in lines if line.startswith("warning: "))
    assert "installing would stop here: the venv /home/pi/tabletop/.venv" in warning
    assert "make it under /opt" in warning
    with pytest.raises(InstallError, match="make it under /opt"):
        run_install(root, system, profile_name="double-take-gpio", bin_dir=bin_dir)


def test_uninstall_removes_the_service_and_keeps_the_saved_games(root: Path) -> None:
    system = FakeSystem(root)
    run_install(root, system, profile_name="rfid-15x15-pico", i2c_fast=False)
    journal = system.path(STATE_DIR / "journal.sqlite")
    journal.write_bytes(b"saved games")
    system.commands.clear()
    out = io.StringIO()
    uninstall(root, system, out)
    assert system.commands == [
        ["systemctl", "disable", "--now", "tabletop.service"],
        ["systemctl", "daemon-reload"],
        ["userdel", "tabletop"],
    ]
    assert not system.path(UNIT).exists() and not system.path(CACHE_DIR).exists()
    assert "tabletop:" not in (root / "etc/passwd").read_text()
    assert journal.read_bytes() == b"saved games" and system.path(CONFIG).exists()
    assert f"kept the saved games in {STATE_DIR}" in out.getvalue()
    # A second time there is nothing left to do.
    system.commands.clear()
    assert uninstall(root, system, io.StringIO()).steps == [] and system.commands == []


def test_the_command_needs_dry_run_to_use_a_scratch_root(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "--root", str(root), "--profile", "double-take-gpio"]) == 2
    assert "--root is for looking at the plan: add --dry-run" in capsys.readouterr().err
    assert main(["install", "--root", str(root), "--profile", "double-take-gpio",
                 "--dry-run"]) == 0  # fmt: skip
    assert "would run systemctl enable --now" in capsys.readouterr().out
    assert not on_root(root, UNIT).exists()
    assert main(["install", "--root", str(root), "--profile", "sim", "--dry-run"]) == 2
    assert "for `tabletop sim` only" in capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may install")
def test_installing_for_real_needs_root(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "--profile", "double-take-gpio"]) == 2
    assert "run it with sudo" in capsys.readouterr().err


def test_install_help_names_the_root_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["install", "--help"])
    assert "--root DIR" in capsys.readouterr().out
