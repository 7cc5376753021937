"""A bigger club: each hall's boards on the hall's own Mosquitto, set up by ``tabletop
club init``, and every hall bridged to a central Mosquitto (docs/club.md). A board in
one hall plays a board in another with nothing changed in either: the same commands,
the same logins, each on its own hall's broker."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.spectate.broker_config import hash_password
from tests.remote.test_two_boards import _export
from tests.spectate.tools import MOSQUITTO, free_port, need, stop, tabletop, wait_for_port

HALLS = {"hall-a": "bob", "hall-b": "ann"}
"""Each hall and the board in it: bob hosts, ann holds seat 2."""


@dataclass
class Halls:
    folder: Path
    ports: dict[str, int]
    """Each broker's port: the centre's and each hall's."""
    brokers: dict[str, subprocess.Popen[bytes]]

    def start(self, name: str) -> None:
        conf = self.folder / name / "mosquitto.conf"
        self.brokers[name] = subprocess.Popen(
            [need(MOSQUITTO, "mosquitto"), "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.ports[name], 10, self.brokers[name])

    def config(self, hall: str) -> Path:
        """The club config of the board in ``hall``: its login on its own hall's broker."""
        board = HALLS[hall]
        path = self.folder / hall / f"{board}.toml"
        path.write_text(
            f'broker = "mqtt://127.0.0.1:{self.ports[hall]}"\nusername = "{board}"\n'
            f'password_file = "credentials/{board}"\n',
            encoding="utf-8",
        )
        return path


def _bridge(hall: str, centre_port: int, password: str) -> str:
    """The lines docs/club.md adds to a hall broker's configuration."""
    return (
        f"\nconnection {hall}\naddress 127.0.0.1:{centre_port}\n"
        f"remote_username {hall}\nremote_password {password}\nremote_clientid {hall}\n"
        "cleansession false\nrestart_timeout 1 2\n"
        "topic tabletop/# both 1\n"
    )


@contextlib.contextmanager
def halls() -> Iterator[Halls]:
    need(MOSQUITTO, "mosquitto")
    folder = Path(tempfile.mkdtemp(prefix="tabletop-halls-"))
    folder.chmod(0o755)  # the brokers read it after they drop to their own user
    ports = {name: free_port() for name in ("centre", *HALLS)}
    running = Halls(folder, ports, {})
    try:
        centre = folder / "centre"
        centre.mkdir(mode=0o755)
        passwords = {hall: f"{hall}-secret" for hall in HALLS}
        (centre / "passwd").write_text(
            "".join(f"{hall}:{hash_password(pw)}\n" for hall, pw in passwords.items())
        )
        # Each hall's login speaks for every board of its hall (its own broker's ACL
        # decides who in the hall may say what).
        (centre / "acl").write_text(
            "".join(f"user {h}\ntopic readwrite tabletop/#\n" for h in HALLS)
        )
        (centre / "mosquitto.conf").write_text(
            f"per_listener_settings false\nallow_anonymous false\n"
            f"password_file {centre}/passwd\nacl_file {centre}/acl\n"
            f"listener {ports['centre']} 127.0.0.1\nuse_username_as_clientid true\n"
        )
        for path in centre.iterdir():
            path.chmod(0o644)
        for hall, board in HALLS.items():
            done = subprocess.run(
                [
                    sys.executable, "-m", "firmware_bridge.apps.cli", "club", "init",
                    "--boards", board, "--folder", str(folder / hall),
                    "--listen", f"127.0.0.1:{ports[hall]}",
                ],
                capture_output=True, text=True, timeout=60, check=False,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            with (folder / hall / "mosquitto.conf").open("a", encoding="utf-8") as conf:
                conf.write(_bridge(hall, ports["centre"], passwords[hall]))
        for name in ("centre", *HALLS):
            running.start(name)
        yield running
    finally:
        for broker in running.brokers.values():
            stop(broker)
        shutil.rmtree(folder)


def _boards(where: Halls, folder: Path) -> tuple[subprocess.Popen[str], subprocess.Popen[str]]:
    host = tabletop(
        "sim", "--game", "double-take", "--host-remote", "2=ann", "--board-name", "bob",
        "--club-config", str(where.config("hall-a")), "--journal", str(folder / "bob.sqlite"),
    )  # fmt: skip
    guest = tabletop(
        "sim", "--join", "bob", "--board-name", "ann",
        "--club-config", str(where.config("hall-b")), "--journal", str(folder / "ann.sqlite"),
    )  # fmt: skip
    return host, guest


def test_boards_in_two_halls_play_through_the_bridged_brokers(tmp_path: Path) -> None:
    with halls() as club:
        host, guest = _boards(club, tmp_path)
        try:
            _, host_err = host.communicate(timeout=120)
            _, guest_err = guest.communicate(timeout=60)
        finally:
            stop(host)
            stop(guest)
    assert host.returncode == 0, host_err
    assert guest.returncode == 0, guest_err
    bob, ann = _export(tmp_path / "bob.sqlite"), _export(tmp_path / "ann.sqlite")
    assert bob["outcome"] is not None and bob == ann
    assert "refused 0 messages" in host_err and "refused 0 messages" in guest_err


def test_the_game_goes_on_when_the_central_broker_restarts(tmp_path: Path) -> None:
    with halls() as club:
        host, guest = _boards(club, tmp_path)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(host.stdout or []), daemon=True)
        reader.start()
        try:
            end = time.monotonic() + 60
            while sum(1 for line in lines if line.strip().split(".")[0].isdigit()) < 10:
                assert time.monotonic() < end and host.poll() is None, lines[-3:]
                time.sleep(0.02)
            club.brokers["centre"].kill()  # the link between the halls is gone
            club.brokers["centre"].wait(10)
            time.sleep(1.0)
            club.start("centre")
            assert host.wait(120) == 0, host.stderr.read() if host.stderr else ""
            assert guest.wait(60) == 0, guest.stderr.read() if guest.stderr else ""
        finally:
            stop(host)
            stop(guest)
    assert _export(tmp_path / "bob.sqlite") == _export(tmp_path / "ann.sqlite")
