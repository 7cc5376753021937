"""The ``tabletop`` command's other verbs: wiring, run, export, and bad arguments."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.runtime import table
from firmware_bridge.runtime.tags import TagTable
from firmware_bridge.sim.runner import SimOptions, Simulation
from hardware.board import BoardEvent, BoardSettled
from hardware.pins import pi_model


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(args, out=out), out.getvalue()


def test_wiring_prints_the_pin_table_with_physical_pins() -> None:
    code, text = run(["wiring", "double-take-gpio"])
    assert code == 0
    row = next(line for line in text.splitlines() if "GPIO17" in line)
    assert row.split()[0] == "11"
    assert "profile double-take-gpio: OK" in text


def test_wiring_reports_a_bad_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "mine.toml"
    bad.write_text('extends = "double-take-gpio"\n[board]\nname = "mine"\n[buttons]\nok = 17\n')
    code, _ = run(["wiring", str(bad)])
    assert code == 2
    err = capsys.readouterr().err
    assert "mine.toml" in err and "17" in err


@pytest.mark.skipif(pi_model() is not None, reason="on a Pi the real board would be opened")
def test_run_on_a_machine_that_is_not_a_pi_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "tabletop.toml"
    config.write_text(
        f'profile = "double-take-gpio"\njournal = "{tmp_path / "j.sqlite"}"\ngame = "double-take"\n'
    )
    code, _ = run(["run", "--config", str(config)])
    assert code == 2
    err = capsys.readouterr().err
    assert "not a Raspberry Pi" in err and "tabletop sim" in err


def test_run_refuses_the_simulated_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "tabletop.toml"
    config.write_text(f'profile = "sim"\njournal = "{tmp_path / "j.sqlite"}"\n')
    code, _ = run(["run", "--config", str(config)])
    assert code == 78  # a config error: systemd does not restart the service for it
    assert "sim" in capsys.readouterr().err


def test_export_replays_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "g.sqlite"
    code, _ = run(["sim", "--game", "double-take", "--seed", "2", "--journal", str(journal)])
    assert code == 0
    code, text = run(["export", "--journal", str(journal)])
    assert code == 0
    record = json.loads(text)
    assert record["game"] == "double-take" and record["outcome"] is not None
    sim = Simulation(SimOptions("double-take", seed=2))
    try:
        sim.start()
        sim.play_computer()
        game = sim.session.game
        assert len(record["moves"]) == len(game.history)
        assert record["scores"] == {game.seat_name(p): s for p, s in enumerate(game.scores())}
    finally:
        sim.close()


def test_unknown_game_suggests_the_close_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["sim", "--game", "double-tak"])
    assert code == 2
    assert "did you mean 'double-take'" in capsys.readouterr().err


def test_a_file_that_is_not_a_journal_is_named_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("my shopping list\n" * 100)
    code, _ = run(["sim", "--game", "double-take", "--journal", str(bad)])
    assert code == 2
    assert "not a tabletop journal" in capsys.readouterr().err
    assert bad.read_text() == "my shopping list\n" * 100


class TagBoard:
    """A board that shows one tag, then a second beside it."""

    cells = ("H8", "H9")

    def __init__(self) -> None:
        self.steps = [
            [BoardSettled({"H8": "04A1B2C3"})],
            [BoardSettled({"H8": "04A1B2C3", "H9": "04FFEEDD"})],
        ]
        self.closed = False

    def poll(self, now: float) -> list[BoardEvent]:
        return self.steps.pop(0) if self.steps else []

    def close(self) -> None:
        self.closed = True


def test_enrol_names_each_tag_laid_and_saves_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = TagBoard()
    monkeypatch.setattr(table, "sensor_board", lambda profile, factory, clock: board)
    monkeypatch.setattr("sys.stdin", io.StringIO("E\n\n"))
    config = tmp_path / "tabletop.toml"
    (tmp_path / "pico.toml").write_text(
        'extends = "rfid-15x15-pico"\n[serial]\nport = "/dev/ttyACM0"\n'
    )
    config.write_text(
        f'profile = "pico.toml"\njournal = "{tmp_path / "j.sqlite"}"\n'
        f'tags = "{tmp_path / "tags.json"}"\n'
    )
    code, text = run(["enrol", "--config", str(config)])
    assert code == 0
    assert "New tag 04A1B2C3" in text and "1 tags in" in text
    assert TagTable.load(tmp_path / "tags.json").lookup("04A1B2C3") == "E"
    assert board.closed


def test_enrol_refuses_a_board_without_tag_readers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "tabletop.toml"
    config.write_text(f'profile = "double-take-gpio"\njournal = "{tmp_path / "j.sqlite"}"\n')
    code, _ = run(["enrol", "--config", str(config)])
    assert code == 2
    assert "no tag readers" in capsys.readouterr().err


def test_output_cut_short_by_its_reader_ends_quietly() -> None:
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", "double-take"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert first.startswith(b"Double Take")
    assert b"Traceback" not in err


def test_resuming_through_sim_journal_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "g.sqlite"
    first, second = tmp_path / "1.txt", tmp_path / "2.txt"
    first.write_text("lift a3\nplace b4\n")
    second.write_text("lift h7\nplace g6\n")
    base = ["sim", "--game", "double-take", "--journal", str(journal), "--script"]
    assert main([*base, str(first)]) == 0
    assert "resuming" not in capsys.readouterr().err
    assert main([*base, str(second)]) == 0
    assert "tabletop: resuming the journal's game 1 after 1 move" in capsys.readouterr().err
