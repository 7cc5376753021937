"""Every command stopped by Ctrl-C ends the same way: one line saying so (and where the
game is kept), exit status 130; off a Pi, ``tabletop run`` says that first and only."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from firmware_bridge.apps import cli
from tests.spectate.tools import free_port, tabletop, wait_for_port

EXAMPLE = Path(__file__).parents[2] / "wiring" / "examples" / "tabletop.toml"


def interrupt(proc: subprocess.Popen[str], after_s: float) -> tuple[int, str]:
    time.sleep(after_s)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err


def last_line(err: str) -> str:
    return err.strip().splitlines()[-1]


def test_a_simulated_game_stopped_says_where_it_is_kept(tmp_path: Path) -> None:
    journal = tmp_path / "g.sqlite"
    proc = tabletop("sim", "--game", "double-take", "--realtime", "5", "--journal", str(journal))
    code, err = interrupt(proc, 3.0)
    assert code == cli.EXIT_INTERRUPTED == 130
    assert last_line(err) == f"tabletop: stopped; the game is kept in {journal}"
    assert "Traceback" not in err


def test_a_simulated_game_without_a_journal_says_nothing_was_kept() -> None:
    proc = tabletop("sim", "--game", "double-take", "--realtime", "5")
    code, err = interrupt(proc, 3.0)
    assert code == 130
    assert last_line(err) == (
        "tabletop: stopped; the game was not kept (give --journal FILE to keep one)"
    )


def test_the_web_view_stopped_by_ctrl_c_ends_the_same_way(tmp_path: Path) -> None:
    port = free_port()
    proc = tabletop("web", "--journal", str(tmp_path / "j.sqlite"), "--listen", f"127.0.0.1:{port}")
    wait_for_port(port, proc=proc)
    code, err = interrupt(proc, 0.2)
    assert code == 130 and last_line(err) == "tabletop: stopped"


def test_the_web_view_stopped_by_systemd_exits_cleanly(tmp_path: Path) -> None:
    port = free_port()
    proc = tabletop("web", "--journal", str(tmp_path / "j.sqlite"), "--listen", f"127.0.0.1:{port}")
    wait_for_port(port, proc=proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "tabletop: stopped" not in err


def test_run_off_a_pi_says_only_that(capsys: pytest.CaptureFixture[str]) -> None:
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine has a device tree: the check is for one that is not a Pi")
    assert cli.main(["run", "--config", str(EXAMPLE)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a Raspberry Pi" in err[0]
    assert "raspi-config" not in err[0]
