"""The spectators' systemd units: hardened, and the journal read-only to them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.spectate.tools import need

UNITS = Path(__file__).parents[2] / "firmware_bridge" / "systemd"
MAX_EXPOSURE = 2.0


def _settings(unit: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith("#"):
            out.setdefault(key, []).append(value)
    return out


@pytest.mark.parametrize("name", ["tabletop-web.service", "tabletop-publish.service"])
def test_unit_reads_the_journal_but_cannot_write_anything(name: str) -> None:
    unit = _settings(UNITS / name)
    assert unit["ProtectSystem"] == ["strict"]
    assert unit["ReadOnlyPaths"] == ["/var/lib/tabletop"]
    assert not {"StateDirectory", "ReadWritePaths", "CacheDirectory"} & set(unit)
    (command,) = unit["ExecStart"]
    assert command.split()[1] in ("web", "publish")


@pytest.mark.parametrize(
    "name", ["tabletop-web.service", "tabletop-publish.service", "tabletop-hub.service"]
)
def test_unit_is_rated_safe_by_systemd(name: str) -> None:
    tool = need("/usr/bin/systemd-analyze", "systemd")
    done = subprocess.run(
        [tool, "security", "--offline=true", "--no-pager", str(UNITS / name)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) <= MAX_EXPOSURE


def test_hub_unit_has_a_memory_cap_no_user_and_stays_on_the_loopback(tmp_path: Path) -> None:
    unit = _settings(UNITS / "tabletop-hub.service")
    assert unit["MemoryMax"] == ["256M"]
    assert unit["DynamicUser"] == ["yes"]
    (command,) = unit["ExecStart"]
    args = command.split()
    assert args[1] == "hub" and args[args.index("--listen") + 1].startswith("127.0.0.1:")
    # systemd reads the unit without a complaint (the program put where it is here).
    tool = need("/usr/bin/systemd-analyze", "systemd")
    exe = Path(sys.executable).parent / "tabletop"
    text = (UNITS / "tabletop-hub.service").read_text(encoding="utf-8")
    copy = tmp_path / "tabletop-hub.service"
    copy.write_text(text.replace("/opt/tabletop/venv/bin/tabletop", str(exe)), encoding="utf-8")
    done = subprocess.run(
        [tool, "verify", str(copy)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
