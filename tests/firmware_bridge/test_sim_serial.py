"""Double Take over the serial path: the Pico firmware on a pty, the link, the host."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from tests.firmware_bridge.sim_runs import RunSim

SCENARIOS = Path(__file__).parent / "scenarios"
SERIAL = "double-take-pico"


@pytest.mark.parametrize(
    "name",
    [
        "dt_illegal_then_fixed.txt",
        pytest.param("dt_capture_lifted.txt", marks=pytest.mark.slow),
        pytest.param("dt_capture_declined.txt", marks=pytest.mark.slow),
        pytest.param("dt_capture_only_left_standing.txt", marks=pytest.mark.slow),
        pytest.param("dt_slide_and_flicker.txt", marks=pytest.mark.slow),
    ],
)
def test_script_over_serial_ends_as_over_gpio(run_sim: RunSim, name: str) -> None:
    script = str(SCENARIOS / name)
    gpio = run_sim("double-take", "--script", script)
    serial = run_sim("double-take", "--script", script, "--profile", SERIAL)
    assert serial[-1] == gpio[-1]
    assert serial[-2]["layout"] == gpio[-2]["layout"]
    verdicts = [s["verdict"] for s in gpio[:-1] if s["verdict"]]
    assert [s["verdict"] for s in serial[:-1] if s["verdict"]][-1] == verdicts[-1]


def test_computer_game_over_serial_ends_as_over_gpio(run_sim: RunSim) -> None:
    gpio = run_sim("double-take", "--seed", "4")
    serial = run_sim("double-take", "--seed", "4", "--profile", SERIAL)
    assert serial[-1] == gpio[-1]


def test_unplugged_board_resumes_after_the_snapshot_with_nothing_lost(run_sim: RunSim) -> None:
    states = run_sim(
        "double-take", "--script", str(SCENARIOS / "dt_unplug_midgame.txt"), "--profile", SERIAL
    )
    body = states[:-1]
    offline = [s for s in body if not s["connected"]]
    assert offline, "the OLED must say the board is disconnected"
    assert offline[0]["oled"][0].startswith("Board offline")
    # While offline no move is taken: the game waits with its state intact.
    assert all(s["moves_played"] == 1 for s in offline)
    moves = []
    for s in body:
        if s["move"] and (not moves or moves[-1] != s["move"]["text"]):
            moves.append(s["move"]["text"])
    # Green's move made while unplugged is seen from the snapshot, exactly once.
    assert moves == ["a3-b4", "b7-a6", "e3-f4"]
    assert states[-1]["moves"] == 3
    assert body[-1]["connected"] is True


def test_unplug_on_a_gpio_board_is_a_script_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "s.txt"
    script.write_text("unplug\n")
    out = io.StringIO()
    assert main(["sim", "--game", "double-take", "--script", str(script)], out=out) == 2
    assert "line 1" in capsys.readouterr().err
