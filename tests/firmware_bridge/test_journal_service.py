"""The service and a damaged journal: set aside with a timestamp, shown on the OLED, a new one.

The daemon runs in its own process on mock pins and luma's dummy OLED, whose
frames are written to files for the test to read.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from PIL import Image, ImageChops

from firmware_bridge.apps.daemon import show_notice
from firmware_bridge.journal import Journal

DRIVER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from firmware_bridge.apps import daemon
    from firmware_bridge.runtime import table
    from hardware.oled import dummy_oled
    from hardware.pins import mock_pin_factory

    daemon.NOTICE_S = 0.0  # no need to wait for anyone to read it here

    def display(profile):
        return table.open_display(
            profile, oled_device=dummy_oled(profile.oled), frames_dir=Path(sys.argv[2])
        )

    def inputs(profile, clock, oled):
        return table.open_inputs(profile, clock, oled, pin_factory=mock_pin_factory())

    sys.exit(daemon.run_daemon(Path(sys.argv[1]), sys.stdout, display, inputs))
    """
)


class Frames:
    def __init__(self) -> None:
        self.images: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.images.append(image.convert("1"))


def run_daemon_once(config: Path, frames: Path) -> str:
    """The service with ``config``, its OLED's frames kept in ``frames``: started until it
    runs, then stopped with SIGTERM; it must exit cleanly. Returns what it logged."""
    daemon = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(config), str(frames)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert daemon.stdout is not None
        assert "running on double-take-gpio" in daemon.stdout.readline()
        daemon.send_signal(signal.SIGTERM)
        _, err = daemon.communicate(timeout=30)
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.communicate()
    assert daemon.returncode == 0, err
    return err


def test_the_service_sets_a_damaged_journal_aside_shows_it_and_starts_anew(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite"
    damaged = b"SQLite format 3\x00" + bytes(range(256)) * 20
    journal.write_bytes(damaged)
    config = tmp_path / "tabletop.toml"
    config.write_text(
        'profile = "double-take-gpio"\n'
        f'journal = "{journal}"\n'
        'game = "double-take"\nplayers = 2\nseed = 5\nlog_level = "WARNING"\n',
        encoding="utf-8",
    )
    frames = tmp_path / "frames"
    err = run_daemon_once(config, frames)

    (aside,) = tmp_path.glob("journal.sqlite.damaged-*")
    assert aside.read_bytes() == damaged, "the damaged journal is kept as it was"
    assert len(aside.name) == len("journal.sqlite.damaged-20261125T1412")
    notice = f"The journal was damaged: it was kept as {aside.name}; a new one was started."
    assert notice in err, "the log says it too"
    with Journal(journal, read_only=True) as fresh:
        assert [g.game for g in fresh.games()] == ["double-take"]

    # The first frame on the OLED is the notice, then the game's own screens.
    expected = Frames()
    show_notice(expected, notice)
    shown = sorted(frames.glob("*.png"))
    assert len(shown) >= 2
    first = Image.open(shown[0]).convert("1")
    assert ImageChops.difference(first, expected.images[0]).getbbox() is None
