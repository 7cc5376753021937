"""``tabletop club init`` against the probe: logins reusing another's client id, the hub's
login speaking as a board, relative TLS paths, a key the broker cannot read, a link where
a file is written, and a umask of 000 — with the real command and a real Mosquitto."""

from __future__ import annotations

import os
import stat
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.spectate.broker_config import unreadable_by_broker
from tests.spectate.test_club_broker import Client, _folder, _state, tabletop_cmd
from tests.spectate.tools import MOSQUITTO, free_port, get_json, need, stop, tabletop, wait_for_port


def _init(folder: Path, *more: str, cwd: Path | None = None, umask: int | None = None) -> str:
    def set_umask() -> None:
        if umask is not None:
            os.umask(umask)

    done = subprocess.run(
        [*tabletop_cmd(), "club", "init", "--boards", "table-1,table-2", "--folder",
         str(folder), *more],
        capture_output=True, text=True, timeout=60, check=False, cwd=cwd,
        preexec_fn=set_umask,
    )  # fmt: skip
    assert done.returncode in (0, 2), done.stderr
    return done.stderr if done.returncode else ""


def test_no_login_can_take_anothers_client_id_and_the_hub_cannot_speak_as_a_board() -> None:
    exe = need(MOSQUITTO, "mosquitto")
    port = free_port()
    with _folder() as folder:
        assert _init(folder, "--listen", f"127.0.0.1:{port}") == ""
        password = {
            u: (folder / "credentials" / u).read_text(encoding="utf-8").strip()
            for u in ("table-1", "table-2", "hub")
        }
        log = folder / "broker.log"
        with log.open("wb") as sink:
            broker = subprocess.Popen([exe, "-v", "-c", str(folder / "mosquitto.conf")],
                                      stdout=sink, stderr=sink)  # fmt: skip
        web = free_port()
        hub_conf = folder / "hub.toml"
        hub_conf.write_text(
            f'broker = "mqtt://127.0.0.1:{port}"\nusername = "hub"\n'
            'password_file = "credentials/hub"\n',
            encoding="utf-8",
        )
        clients: list[Client] = []
        hub = None
        base = f"http://127.0.0.1:{web}"

        def boards() -> dict[str, int]:
            index = get_json(base + "/boards.json")["boards"]
            return {b["name"]: b["moves_played"] for b in index}

        def until(check: Callable[[], bool]) -> None:
            end = time.monotonic() + 20
            while not check():
                assert time.monotonic() < end, boards()
                time.sleep(0.1)

        try:
            wait_for_port(port, 10, broker)
            hub = tabletop("hub", "--config", str(hub_conf), "--listen", f"127.0.0.1:{web}")
            wait_for_port(web, 30, hub)
            two = Client(port, "table-2", password["table-2"])
            clients.append(two)
            lost: list[str] = []
            two.c.on_disconnect = lambda *a: lost.append("table-2")
            two.publish("tabletop/table-2/state", _state(moves_played=1))
            until(lambda: boards().get("table-2") == 1)
            # table-1's login tries 600 client ids: the hub's, table-2's and guesses.
            guessed = [f"tabletop-hub-{hub.pid}", f"t-table-2-{id(two)}", "hub", "table-2"]
            guessed += [f"tabletop-hub-{pid}" for pid in range(596)]
            for client_id in guessed:
                thief = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
                thief.username_pw_set("table-1", password["table-1"])
                thief.connect("127.0.0.1", port)
                thief.loop(0.01)
                thief.disconnect()
            two.publish("tabletop/table-2/state", _state(moves_played=2))
            until(lambda: boards().get("table-2") == 2)
            assert lost == [], f"{lost} were disconnected by another login"
            stop(hub)
            # The hub's login publishes a state as the board "hub": the broker drops it,
            # so a hub started afterwards never hears of it (not even to refuse it).
            spy = Client(port, "hub", password["hub"])
            spy.publish("tabletop/hub/state", _state(moves_played=7))
            spy.close()
            hub = tabletop("hub", "--config", str(hub_conf), "--listen", f"127.0.0.1:{web}")
            wait_for_port(web, 30, hub)
            until(lambda: "table-2" in boards())
            assert set(boards()) == {"table-2"}
            assert "hub" not in get_json(base + "/diagnostics.json")["by_board"]
        finally:
            for c in clients:
                c.close()
            if hub is not None:
                stop(hub)
            stop(broker)
        said = log.read_text(encoding="utf-8", errors="replace")
        assert "closing old connection" not in said
        assert "as table-1 (" in said, "the broker names each client by its login"


def _certs(folder: Path) -> list[Path]:
    folder.mkdir(mode=0o755, exist_ok=True)
    files = [folder / name for name in ("ca.pem", "broker.pem", "broker.key")]
    for f in files:
        f.write_text("-----BEGIN-----\n", encoding="utf-8")
        f.chmod(0o644)
    return files


def test_relative_tls_paths_are_written_absolute() -> None:
    with _folder() as tmp_path:
        _relative_tls_paths(tmp_path)


def _relative_tls_paths(tmp_path: Path) -> None:
    _certs(tmp_path / "tls")
    folder = tmp_path / "club"
    assert _init(folder, "--tls-ca", "tls/ca.pem", "--tls-cert", "tls/broker.pem",
                 "--tls-key", "tls/broker.key", cwd=tmp_path) == ""  # fmt: skip
    conf = (folder / "mosquitto.conf").read_text(encoding="utf-8")
    for name in ("cafile", "certfile", "keyfile"):
        (line,) = [w for w in conf.splitlines() if w.startswith(name + " ")]
        path = Path(line.split(" ", 1)[1])
        assert path.is_absolute() and path.is_file(), line
    assert conf.count("use_username_as_clientid true") == conf.count("listener ")


@pytest.mark.skipif(os.geteuid() != 0, reason="the broker drops to its own user only as root")
def test_a_key_the_brokers_user_cannot_read_is_refused() -> None:
    import pwd

    try:
        pwd.getpwnam("mosquitto")
    except KeyError:
        pytest.skip("no mosquitto user here")
    with _folder() as tmp_path:
        _unreadable_key(tmp_path)


def _unreadable_key(tmp_path: Path) -> None:
    ca, cert, key = _certs(tmp_path / "tls")
    key.chmod(0o600)  # root's own: Mosquitto, dropped to its user, could not read it
    err = _init(tmp_path / "club", "--tls-ca", str(ca), "--tls-cert", str(cert),
                "--tls-key", str(key))  # fmt: skip
    assert "--tls-key" in err and "cannot be read by the broker's user mosquitto" in err
    assert "chmod 640" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "club" / "passwd").exists()
    gid = _gid()
    assert gid is not None
    os.chown(key, 0, gid)
    key.chmod(0o640)
    assert unreadable_by_broker(key) is None


def _gid() -> int | None:
    import grp

    try:
        return grp.getgrnam("mosquitto").gr_gid
    except KeyError:
        return None


def test_a_link_where_a_file_is_written_is_replaced_not_followed(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    target = tmp_path / "precious"
    target.write_text("keep me\n", encoding="utf-8")
    target.chmod(0o644)
    (folder / "passwd").symlink_to(target)
    (folder / "acl").symlink_to(tmp_path / "nowhere")
    assert _init(folder, "--listen", "127.0.0.1:1883") == ""
    assert target.read_text(encoding="utf-8") == "keep me\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert not (tmp_path / "nowhere").exists()
    for name in ("passwd", "acl"):
        assert not (folder / name).is_symlink() and (folder / name).is_file()


def test_modes_are_those_meant_whatever_the_umask(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    assert _init(folder, "--listen", "127.0.0.1:1883", umask=0) == ""
    modes = {p.relative_to(folder).as_posix(): stat.S_IMODE(p.stat().st_mode)
             for p in [folder, *folder.rglob("*")]}  # fmt: skip
    assert modes["."] == 0o755
    assert modes["credentials"] == 0o700
    for name, mode in modes.items():
        if name not in (".", "credentials"):
            assert mode in (0o600, 0o640), (name, oct(mode))
    hidden = [n for n in modes if n != "." and n.rsplit("/", 1)[-1].startswith(".")]
    assert not hidden, "no temporary files"
