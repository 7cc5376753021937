"""Games of hidden pieces board to board: two real ``tabletop sim`` processes play a
whole Dominoes game, and a whole DoubleCross game, through a real Mosquitto, a
client subscribed to ``#`` hearing every message; the guest is never sent the
host's hand or rack nor the seed that deals it until the game is over, and both
journals end with the same game."""

from __future__ import annotations

import queue
import random
import subprocess
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.kits import find_kit
from firmware_bridge.remote import protocol
from firmware_bridge.remote.privacy import HIDDEN
from tests.remote.test_two_boards import _export, _guest, _host
from tests.spectate.tools import mosquitto, stop


def _listen(port: int) -> tuple[mqtt.Client, queue.Queue[tuple[str, bytes]]]:
    heard: queue.Queue[tuple[str, bytes]] = queue.Queue()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="listener")
    client.on_message = lambda c, u, m: heard.put((m.topic, bytes(m.payload)))
    client.connect("127.0.0.1", port)
    client.subscribe("#", qos=1)
    client.loop_start()
    return client, heard


def _drain(heard: queue.Queue[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    out = []
    while not heard.empty():
        out.append(heard.get_nowait())
    return out


@pytest.mark.parametrize(("game", "seed", "title"), [
    ("dominoes", "3", "Double Double Dominoes"),
    ("doublecross", "1", "DoubleCross"),
])  # fmt: skip
def test_a_whole_game_of_hidden_pieces_board_to_board_keeps_each_to_its_board(
    tmp_path: Path, game: str, seed: str, title: str
) -> None:
    with mosquitto() as broker:
        listener, heard = _listen(broker.port)
        try:
            host = _host(broker.url, tmp_path / "bob.sqlite", "--seed", seed, game=game)
            guest = _guest(broker.url, tmp_path / "ann.sqlite")
            try:
                host_out, host_err = host.communicate(timeout=300)
                try:
                    guest_out, guest_err = guest.communicate(timeout=60)
                except subprocess.TimeoutExpired as exc:
                    raise AssertionError(
                        f"the guest did not end; the host said:\n{host_out[-800:]}{host_err}"
                    ) from exc
            finally:
                stop(host)
                stop(guest)
        finally:
            listener.loop_stop()
            listener.disconnect()
        wire = _drain(heard)
    assert host.returncode == 0, host_err
    assert guest.returncode == 0, guest_err
    first_host, first_guest = host_out.splitlines()[0], guest_out.splitlines()[0]
    assert first_host.startswith(f"{title}, seed {seed}: ")
    assert first_guest.startswith(f"{title}, dealt by bob's board: ")
    assert first_host.split(": ")[1] == first_guest.split(": ")[1]
    assert host_out.splitlines()[-1] == guest_out.splitlines()[-1]  # the same result line
    bob, ann = _export(tmp_path / "bob.sqlite"), _export(tmp_path / "ann.sqlite")
    assert bob["outcome"] is not None and len(bob["moves"]) > 20
    assert bob == ann
    assert "refused 0 messages" in host_err and "refused 0 messages" in guest_err
    _check_wire(wire, bob)


def _check_wire(wire: list[tuple[str, bytes]], record: dict[str, Any]) -> None:
    """Every message on the broker: none gives ann's board bob's hand or rack, or the
    seed, before the game is over; each view ann is sent is hers."""
    name = record["game"]
    hidden = HIDDEN[name]
    field = f"{hidden.what}s"
    game: Any = find_kit(name).new_game(2, random.Random(record["seed"]), record["options"])
    held = [hidden.pieces(game, 0)]  # bob's hidden pieces after each move
    for move in record["moves"]:
        game.apply(game.decode(move["action"]))
        held.append(hidden.pieces(game, 0))
    root = protocol.root("bob")
    views = 0
    for topic, payload in wire:
        assert topic.startswith(f"{root}/"), topic
        message = protocol.decode(payload, protocol.MAX_TABLE_BYTES)
        if isinstance(message, protocol.Table):
            assert (message.seed is None) != message.finished, "the seed only once it is over"
            assert f'"{field}"' not in payload.decode() and "bag" not in message.options
        elif isinstance(message, protocol.Seen):
            assert topic == f"{root}/to/ann"
            views += 1
            n = message.number
            shown = message.view[field]
            if message.view["outcome"] is None:
                assert shown[0] == len(held[n]), (n, shown)  # bob's only counted
                assert isinstance(shown[1], list)
            else:
                assert n == len(record["moves"])  # every one shown for the final count
        elif isinstance(message, protocol.Move):
            assert topic.endswith(("/moves", "/from/ann"))
            assert not any(isinstance(v, list | dict) for v in message.action.values())
        else:
            assert isinstance(message, protocol.Presence | protocol.Sync), message
    assert views >= len(record["moves"]) + 1
