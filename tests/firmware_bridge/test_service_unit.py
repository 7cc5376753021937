"""The systemd unit is hardened: systemd's own audit rates its exposure 2.0 or lower."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest

UNIT = Path(__file__).parents[2] / "firmware_bridge" / "systemd" / "tabletop.service"
MAX_EXPOSURE = 2.0


def exposure(unit: Path) -> float:
    """``systemd-analyze security --offline=true``'s overall exposure of ``unit``."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        message = "systemd-analyze is missing: apt-get install systemd"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    done = subprocess.run(
        [tool, "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found, f"no exposure level in:\n{done.stdout}\n{done.stderr}"
    return float(found.group(1))


def settings(unit: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith("#"):
            out.setdefault(key, []).append(value)
    return out


def test_the_shipped_unit_is_rated_safe() -> None:
    assert exposure(UNIT) <= MAX_EXPOSURE


def test_the_unit_allows_only_the_boards_devices_and_no_network() -> None:
    unit = settings(UNIT)
    assert unit["DevicePolicy"] == ["closed"]
    allowed = {d.split()[0] for d in unit["DeviceAllow"]}
    assert allowed == {
        "char-gpiochip",
        "char-i2c",
        "char-spidev",
        "char-ttyACM",
        "char-ttyUSB",
        "char-ttyAMA",
    }
    assert unit["RestrictAddressFamilies"] == ["AF_UNIX"]
    assert unit["PrivateNetwork"] == ["yes"]
    assert unit["CapabilityBoundingSet"] == [""]


def test_a_service_that_keeps_failing_is_not_restarted_forever() -> None:
    unit = settings(UNIT)
    assert unit["Restart"] == ["on-failure"]
    assert int(unit["StartLimitBurst"][0]) > 0
    assert int(unit["StartLimitIntervalSec"][0]) > 0
    assert unit["StateDirectoryMode"] == unit["CacheDirectoryMode"] == ["0700"]


def test_systemd_reads_every_line_of_the_fitted_unit(tmp_path: Path) -> None:
    from firmware_bridge.apps.install import needs, render_unit, shipped_unit
    from wiring.loader import load_profile

    exposure(UNIT)  # fails or skips when systemd-analyze is missing
    bin_dir = PurePosixPath(Path(sys.executable).parent)
    devices = needs(load_profile("rfid-15x15-pico"), {}).devices
    unit = tmp_path / "tabletop.service"
    unit.write_text(render_unit(shipped_unit(), bin_dir, ["dialout"], devices))
    done = subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # An unknown or misspelt setting is only a warning to systemd: none is allowed.
    assert done.returncode == 0 and done.stderr == "" and done.stdout == "", done.stderr
