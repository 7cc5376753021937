"""``tabletop diag``: what the bench shows after simulated sensor and button events."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.diag import pattern_frame
from firmware_bridge.apps.diag_sim import SimBench
from hardware.board import OCCUPIED
from hardware.pins import pi_model
from wiring.loader import list_profiles, load_profile


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(args, out=out), out.getvalue()


def frames(text: str) -> dict[str, str]:
    """The printed views, by their title (``at start``, ``after line 2: lift c3``)."""
    out: dict[str, str] = {}
    title = None
    for line in text.splitlines():
        m = re.match(r"^─+ (.+?) ─+$", line)
        if m:
            title = m.group(1)
            out[title] = ""
        elif title is not None:
            out[title] += line + "\n"
    return out


def grid(frame: str) -> dict[str, str]:
    """Each cell of the printed board grid by its name, from the headings."""
    lines = frame.splitlines()
    at = next(i for i, line in enumerate(lines) if "cells in use" in line) + 1
    columns = lines[at].split()
    cells: dict[str, str] = {}
    for line in lines[at + 1 :]:
        words = line.split()
        if len(words) != len(columns) + 1:
            break
        row, values = words[0], words[1:]
        for column, value in zip(columns, values, strict=True):
            name = f"{row}{column}" if row.startswith("r") else f"{column}{row}"
            cells[name] = value
    return cells


def script(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bench.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_switch_closed_and_opened_shows_on_its_cell(tmp_path: Path) -> None:
    code, text = run(
        ["diag", "--sim", "--script", script(tmp_path, "place c3\nplace h9\nlift c3\n")]
    )
    assert code == 0
    views = frames(text)
    assert list(views) == [
        "at start",
        "after line 1: place c3",
        "after line 2: place h9",
        "after line 3: lift c3",
    ]
    start = grid(views["at start"])
    assert len(start) == len(load_profile("sim").cells) == 72
    assert set(start.values()) == {"·"}
    assert grid(views["after line 1: place c3"])["c3"] == "■"
    both = grid(views["after line 2: place h9"])
    assert (both["c3"], both["h9"], both["a1"]) == ("■", "■", "·")
    assert "2 of 72 cells in use" in views["after line 2: place h9"]
    assert "c3: occupied" in views["after line 1: place c3"]
    last = grid(views["after line 3: lift c3"])
    assert (last["c3"], last["h9"]) == ("·", "■")
    assert "c3: empty" in views["after line 3: lift c3"]
    assert "GPIO: no link" in views["at start"]
    # Rank 1 at the bottom, as on the OLED's map and the spectators' page.
    rows = [line.split() for line in views["at start"].splitlines()]
    shown = [words[0] for words in rows if len(words) == 9 and words[0].isdigit()]
    assert shown[0] == "9" and shown[-1] == "1", shown


def test_a_hand_sweeping_over_a_cell_is_not_a_reading(tmp_path: Path) -> None:
    lines = "place a1\ntap d4 0.05\nslide a1 b2 c3\n"
    code, text = run(["diag", "--sim", "--script", script(tmp_path, lines)])
    assert code == 0
    views = frames(text)
    tapped = views["after line 2: tap d4 0.05"]
    assert grid(tapped)["d4"] == "·" and "d4:" not in tapped
    slid = views["after line 3: slide a1 b2 c3"]
    assert grid(slid)["c3"] == "■" and grid(slid)["b2"] == "·"
    assert "b2:" not in slid
    assert "a1: empty" in slid and "c3: occupied" in slid


def test_button_presses_are_counted_short_and_long(tmp_path: Path) -> None:
    code, text = run(
        ["diag", "--sim", "--script", script(tmp_path, "press left\npress left\nhold back\n")]
    )
    assert code == 0
    last = frames(text)["after line 3: hold back"]
    rows = {line.split()[0]: line.split()[1:] for line in last.splitlines() if "GPIO" in line}
    assert rows["left"] == ["GPIO9", "2", "0"]
    assert rows["back"] == ["GPIO7", "0", "1"]
    assert rows["ok"] == ["GPIO8", "0", "0"]
    assert "button left: short press" in last and "button back: long press" in last


def test_holding_ok_shows_the_test_pattern_and_roll_plays_each_sound() -> None:
    rig = SimBench(load_profile("sim"))
    try:
        rig.run_for(0.6)
        oled = rig.bench.oled
        before = oled.last_frame
        assert before is not None and before.getpixel((0, 0)) == 0, "the status screen first"
        rig.press("ok", long=True)
        rig.run_for(0.3)
        frame = oled.last_frame
        assert frame is not None
        assert frame.tobytes() == pattern_frame(oled.size).tobytes()
        width, height = oled.size
        edge = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width // 2, 0)]
        assert all(frame.getpixel(p) for p in edge)
        assert rig.bench.oled_mode == "pattern"
        for _ in range(5):
            rig.press("roll", long=True)
            rig.run_for(0.3)
        assert rig.bench.sounds_played == [
            "accepted",
            "rejected",
            "fix needed",
            "game over",
            "accepted",
        ]
        assert any("buzzer: fix needed" in line for line in rig.bench.log)
        rig.press("left")
        rig.run_for(0.3)
        assert rig.bench.oled_mode == "status", "a short press goes back to the status screen"
    finally:
        rig.close()


def test_tags_show_by_their_enrolled_names_and_the_link_is_counted(tmp_path: Path) -> None:
    lines = "place H8 A\nplace A1 6-3:6\nunplug\nreplug\nwait 2\nlift H8\n"
    code, text = run(
        [
            "diag",
            "--sim",
            "--profile",
            "rfid-15x15-pico",
            "--width",
            "120",
            "--script",
            script(tmp_path, lines),
        ]
    )
    assert code == 0
    views = frames(text)
    placed = views["after line 2: place A1 6-3:6"]
    cells = grid(placed)
    assert len(cells) == 225
    assert (cells["H8"], cells["A1"], cells["H9"]) == ("A", "6-3:", "·")
    assert re.search(r"H8: tag [0-9A-F]{16} \(A\)", placed)

    def counter(view: str, what: str) -> str:
        # The link's table is the right-hand column: its rows end the lines.
        found = [m.group(1) for m in re.finditer(rf"{what} +(\S+) *$", view, re.MULTILINE)]
        assert len(found) == 1, (what, view)
        return found[0]

    assert int(counter(placed, "frames good")) > 0
    assert counter(placed, "connected") == "yes"
    assert counter(views["after line 3: unplug"], "connected") == "no"
    back = views["after line 5: wait 2"]
    assert counter(back, "connected") == "yes"
    assert counter(back, "reconnects") == "1"
    assert grid(views["after line 6: lift H8"])["H8"] == "·"


@pytest.mark.parametrize("profile", list_profiles())
def test_every_shipped_profile_shows_each_of_its_cells_once(profile: str) -> None:
    code, text = run(["diag", "--sim", "--profile", profile, "--once", "--width", "120"])
    assert code == 0
    cells = grid(frames(text)["at start"])
    assert sorted(cells) == sorted(load_profile(profile).cells)
    assert set(cells.values()) == {"·"}


def test_frames_and_once_stop_after_that_many_views(tmp_path: Path) -> None:
    code, text = run(["diag", "--sim", "--once"])
    assert code == 0 and list(frames(text)) == ["at start"]
    code, text = run(
        ["diag", "--sim", "--frames", "2", "--script", script(tmp_path, "place a1\nplace a2\n")]
    )
    assert code == 0 and list(frames(text)) == ["at start", "after line 1: place a1"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--profile", "sim"], "add --sim"),
        ([], "--config /etc/tabletop/tabletop.toml"),
        (["--sim", "--frames", "0"], "1 or more"),
        (["--sim", "--width", "10"], "too narrow"),
        (["--sim", "--config", "t.toml"], "not both"),
        (["--config", "SCRIPT:place a1\n", "--script", "x"], "add --sim"),
        (["--sim", "--script", "SCRIPT:dice 1 2\n"], "line 1: 'dice' has no meaning in diag"),
        (["--sim", "--script", "SCRIPT:place a1\nplace z99\n"], "line 2: there is no cell"),
        (["--sim", "--script", "SCRIPT:press jump\n"], "no button 'jump'"),
        (["--sim", "--script", "SCRIPT:unplug\n"], "needs a serial board"),
        (["--sim", "--profile", "nosuch"], "nosuch"),
    ],
)
def test_bad_input_is_named(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [script(tmp_path, a[7:]) if a.startswith("SCRIPT:") else a for a in args]
    code, _ = run(["diag", *args])
    assert code == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(pi_model() is not None, reason="on a Pi the real board would be opened")
def test_a_real_board_off_a_pi_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "tabletop.toml"
    config.write_text(f'profile = "double-take-gpio"\njournal = "{tmp_path / "j.sqlite"}"\n')
    code, _ = run(["diag", "--config", str(config)])
    assert code == 2
    assert "not a Raspberry Pi" in capsys.readouterr().err


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_the_live_view_in_a_terminal_follows_keys() -> None:
    """Under a pseudo-terminal: the view is drawn, keys press buttons and test the OLED."""
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 140, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "140", "LINES": "60"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "diag", "--sim"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    seen = ""

    def wait_for(text: str) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while text not in ANSI.sub("", seen):
            assert time.monotonic() < deadline, f"{text!r} never shown:\n{ANSI.sub('', seen)}"
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(master, 65536).decode(errors="replace")
                except OSError:
                    break

    try:
        wait_for("keys: 1-5 press a station button")
        os.write(master, b"2")
        wait_for("button left: short press")
        os.write(master, b"o")
        wait_for("OLED test pattern shown")
        os.write(master, b"b")
        wait_for("buzzer: accepted")
        os.write(master, b"q")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def test_an_rfid_board_shows_its_reader_census_and_sweep_time(tmp_path: Path) -> None:
    code, text = run(
        [
            "diag",
            "--sim",
            "--profile",
            "rfid-15x15-pico",
            "--width",
            "120",
            "--script",
            script(tmp_path, "place H8 A\nwait 2.5\n"),
        ]
    )
    assert code == 0
    view = frames(text)["after line 2: wait 2.5"]
    # The row and column board's TRF7962A has no version register: it is listed as
    # present by the ISO Control read-back its driver's start() checks.
    assert re.search(r"reader 1 +TRF7962A answers", view), view
    # The matrix is scanned once per loop pass of the simulated board (10 ms).
    assert re.search(r"sweep +10 ms *$", view, re.MULTILINE), view
    assert re.search(r"longest pass +\d+ ms *$", view, re.MULTILINE), view


def test_one_tag_on_two_cells_is_flagged_as_a_cross_read() -> None:
    from firmware_bridge.apps.diag import cross_reads, reader_text

    tag = "04A224B2C35E80"
    observation = {"A1": tag, "A2": tag, "B1": "DEADBEEF", "C3": OCCUPIED}
    assert cross_reads(observation) == {tag: ["A1", "A2"]}
    assert reader_text(0, 0xFF) == "reader 1: not answering (FFh)"
    assert reader_text(0, 0x88) == "reader 1: FM17522 (88h)"
