"""The firmware in real MicroPython: every file compiles with mpy-cross, whole games
run with the firmware in the MicroPython unix port (a Pico-sized heap) at the far
end of the simulated serial link, and the recovery path keeps the main loop out.
One antenna at most is ever selected and one reader's field on, counted on the fakes."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.sim.pico.fake_rowcol import RowColumnBoard
from firmware_bridge.sim.pico.sim_config import SIM_CONFIG
from firmware_bridge.sim.pico.simboard import SimulatedSerialBoard
from firmware_bridge.sim.pico.upy_firmware import (
    FIRMWARE,
    HEAP_LIMIT,
    PICO_HEAP,
    PICO_HEAP_BYTES,
    STANDIN,
    config_text,
    micropython_command,
)
from firmware_bridge.sim.runner import SimOptions, Simulation

FIRMWARE_FILES = sorted(p for p in FIRMWARE.glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("source", FIRMWARE_FILES, ids=lambda p: p.name)
def test_every_firmware_file_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    done = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(out), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:1] == b"M"  # the .mpy header


def _game(game: str, profile: str, firmware: str, capsys: pytest.CaptureFixture[str]) -> str:
    out = io.StringIO()
    assert main(["sim", "--game", game, "--profile", profile, "--firmware", firmware], out) == 0
    return out.getvalue()


@pytest.mark.parametrize(
    ("game", "profile"),
    [
        # The RFID profiles on the row and column antennas (docs/rf.md).
        pytest.param("dominoes", "rfid-15x15-pico", marks=pytest.mark.slow),
        # Ran out of heap late in the game while the stand-in board shared it.
        ("crosslet", "rfid-15x15-pico"),
        pytest.param("doublecross", "rfid-15x15-pico", marks=pytest.mark.slow),
        pytest.param("crosslet", "rfid-15x15-racks-pico", marks=pytest.mark.slow),
        pytest.param("doubles-wild", "doubles-wild-rfid-pico", marks=pytest.mark.slow),
        ("double-take", "double-take-pico"),
    ],
)
def test_a_whole_game_runs_with_the_firmware_in_micropython(
    game: str, profile: str, capsys: pytest.CaptureFixture[str]
) -> None:
    in_micropython = _game(game, profile, "micropython", capsys)
    figures = capsys.readouterr().err
    # The same firmware gives the same game, move for move, as in CPython.
    assert in_micropython == _game(game, profile, "python", capsys)
    assert " wins: " in in_micropython.splitlines()[-1]
    found = re.search(
        rf"firmware in MicroPython \(heap {PICO_HEAP}\): peak heap (\d+) bytes \((\d+) %\), "
        r"largest free block at least (\d+) bytes, (\d+) loop passes",
        figures,
    )
    assert found is not None, figures
    # The firmware's own heap, the stand-in board's counted apart.
    assert 0 < int(found[1]) <= HEAP_LIMIT * PICO_HEAP_BYTES
    assert int(found[2]) == round(100 * int(found[1]) / PICO_HEAP_BYTES)
    assert 0 < int(found[3]) < PICO_HEAP_BYTES - int(found[1])
    assert int(found[4]) > 1000


def test_a_whole_rfid_game_never_has_two_antennas_selected() -> None:
    sim = Simulation(SimOptions(game="dominoes", profile="rfid-15x15-pico"))
    try:
        sim.start()
        sim.play_computer()
        assert sim.final()["outcome"] is not None
        assert sim.serial_sim is not None
        rfid = sim.serial_sim.rfid_board
        assert isinstance(rfid, RowColumnBoard)  # the row and column antennas
        assert sum(rfid.per_antenna) > 100  # the reader did read
        assert rfid.max_selected == 1
        assert rfid.hot_switches == 0
    finally:
        sim.close()


def test_the_micropython_stand_in_counts_one_field_at_most() -> None:
    with SimulatedSerialBoard(3, 3, "occupancy+rfid", firmware="micropython") as sim:
        for i in (0, 4, 8):
            sim.place(i, tag=f"{0x10 + i:02x}a224b2c3d4e5e0")
        for step in range(60):
            sim.step(step * 0.01)
        assert sim.figures is not None
        assert sim.figures.max_fields_on == 1


# -- recovery ---------------------------------------------------------------------------


def _boot_main(tmp_path: Path, stdin: bytes, pins_low: str = "") -> tuple[int, bytes]:
    """main.py as the Pico runs it at boot, in MicroPython, with ``stdin`` on its USB."""
    values = {
        **SIM_CONFIG,
        "ROWS": 2,
        "COLUMNS": 2,
        "SENSOR": "occupancy",
        "LINK": "usb",
        "WATCHDOG_MS": 4000,
        "RECOVERY_PIN": 22,
        "RECOVERY_WINDOW_MS": 300,
    }
    (tmp_path / "config.py").write_text(config_text(values), encoding="utf-8")
    env = dict(
        os.environ,
        MICROPYPATH=os.pathsep.join((str(tmp_path), str(STANDIN), str(FIRMWARE))),
        TABLETOP_PINS_LOW=pins_low,
    )
    master, slave = os.openpty()
    import tty

    tty.setraw(slave)
    os.write(master, stdin)
    proc = subprocess.Popen(
        [*micropython_command(), "-X", f"heapsize={PICO_HEAP}", str(FIRMWARE / "main.py")],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        proc.wait(timeout=5)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        code = -1  # still in its main loop
        proc.kill()
        proc.wait()
    os.close(slave)
    out = bytearray()
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return code, bytes(out)


def test_recovery_strap_held_at_power_on_keeps_the_main_loop_out(tmp_path: Path) -> None:
    code, out = _boot_main(tmp_path, b"", pins_low="22")
    assert code == 0
    assert b"recovery, main loop not started" in out
    assert b"\x00" not in out  # no frame was sent


def test_ctrl_c_in_the_boot_window_keeps_the_main_loop_out(tmp_path: Path) -> None:
    code, out = _boot_main(tmp_path, b"\r\x03")  # what mpremote sends on connecting
    assert code == 0
    assert b"recovery, main loop not started" in out


def test_the_pi_talking_in_the_boot_window_starts_the_main_loop(tmp_path: Path) -> None:
    # A frame of the Pi starts with 00h, even one that holds a 03h byte.
    code, out = _boot_main(tmp_path, b"\x00\x03\x02\x04\x03")
    assert code == -1  # still running its loop when stopped
    assert b"recovery" not in out
    assert out.startswith(b"\x00")  # the hello frame


def test_firmware_micropython_on_a_gpio_board_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = io.StringIO()
    args = ["sim", "--game", "double-take", "--profile", "double-take-gpio"]
    assert main([*args, "--firmware", "micropython"], out) == 2
    assert "scanned from the Pi's GPIO and has no firmware" in capsys.readouterr().err


def test_the_stand_in_board_s_own_heap_is_not_counted_as_the_firmware_s() -> None:
    """Two hundred cards laid on squares whose switches stay open: the stand-in holds
    them (tens of KB), the firmware never reads them, and its heap does not grow."""
    with SimulatedSerialBoard(15, 15, "occupancy+rfid", firmware="micropython") as sim:
        assert sim.micropython is not None and sim.figures is not None
        for step in range(50):
            sim.step(step * 0.01)
        before = sim.figures.peak_heap
        tags = {i: bytes((i, 4, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xE0)) for i in range(200)}
        sim.micropython.set_pieces(set(), tags)
        for step in range(50, 100):
            sim.step(step * 0.01)
        assert 0 < before <= sim.figures.peak_heap < before + 1024
        # What the firmware may still allocate is the Pico's heap, not the process's.
        assert 0 < sim.figures.least_largest_free < PICO_HEAP_BYTES - before
