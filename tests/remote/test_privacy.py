"""What each side may see: a board's view of a position holds its own seats' hand or
rack and only counts the others' (every hand shown once the game is over), and a game
with hidden pieces sends nothing to the broker, so no guest is ever dealt the other
seat's hand (the seed would deal it)."""

from __future__ import annotations

import json
import queue
import random
import subprocess
import sys
import time
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.kits import find_kit
from firmware_bridge.remote import protocol
from firmware_bridge.remote.privacy import HIDDEN, seat_view
from firmware_bridge.remote.side import NO_GAMES, check_game
from games.dominoes.game import Dominoes, Draw
from tests.spectate.tools import Broker, mosquitto

HAND_0 = [(0, 1), (2, 5), (6, 6)]
HAND_1 = [(3, 4), (1, 1), (0, 5)]


def _dominoes(hand_0: list[tuple[int, int]], boneyard: list[tuple[int, int]]) -> Dominoes:
    return Dominoes.from_position(2, hands=[hand_0, HAND_1], boneyard=boneyard, to_move=1)


def test_a_dominoes_view_lists_its_own_hand_and_counts_the_others() -> None:
    boneyard = [(4, 4), (2, 3), (5, 6), (0, 0)]
    game = _dominoes(HAND_0, boneyard)
    seen = seat_view(game, {1})
    assert seen["hands"] == [3, ["3-4", "1-1", "0-5"]]
    assert seen["boneyard"] == 4
    # Another hand at seat 0, and another order of the boneyard: seat 1 sees the same.
    other = _dominoes([(2, 3), (4, 4), (0, 0)], [(0, 1), (2, 5), (6, 6), (5, 6)])
    assert seat_view(other, {1}) == seen
    assert seat_view(other, {0}) != seat_view(game, {0})
    text = json.dumps(seen)
    assert all(f"{a}-{b}" not in text for a, b in HAND_0)
    # Seat 1 draws: its view names the domino it took; seat 0's only counts it.
    game.apply(Draw())
    assert seat_view(game, {1})["hands"][1][-1] == "4-4"  # boneyard[0] is drawn first
    assert seat_view(game, {0})["hands"] == [["0-1", "2-5", "6-6"], 4]


def test_every_hand_is_shown_once_the_game_is_over() -> None:
    # The last domino of the boneyard drawn ends the game: the hands are counted.
    game = Dominoes.from_position(2, hands=[HAND_0, HAND_1], boneyard=[(4, 4)], to_move=1)
    while game.outcome is None:
        game.apply(game.legal_actions()[0])
    hands = seat_view(game, {1})["hands"]
    assert hands == seat_view(game, {0})["hands"]
    assert all(isinstance(hand, list) for hand in hands)


def test_a_doublecross_view_lists_its_own_rack_and_counts_the_others() -> None:
    game: Any = find_kit("doublecross").new_game(2, random.Random(1), {})
    rack_0, rack_1 = game.rack(0), game.rack(1)
    seen = seat_view(game, {1})
    assert seen["racks"] == [len(rack_0), rack_1] and seen["bag"] == game.bag_count
    assert game.state_dict()["racks"][0] == rack_0  # the whole picture has it
    # Seat 0's rack changed for letters of the bag: seat 1 sees the same.
    state = game.state
    state.racks[0], state.bag[: len(rack_0)] = list(state.bag[: len(rack_0)]), list(rack_0)
    assert game.rack(0) != rack_0
    assert seat_view(game, {1}) == seen
    assert seat_view(game, {0})["racks"] == [game.rack(0), len(rack_1)]


def test_the_games_with_hidden_pieces_are_refused_board_to_board() -> None:
    assert set(NO_GAMES) == set(HIDDEN) == {"dominoes", "doublecross"}
    for name, hidden in HIDDEN.items():
        with pytest.raises(ValueError, match=f"learn the other's {hidden.what}; play "):
            check_game(name)
    check_game("crosslet")  # its racks are public by its rules


@pytest.fixture
def broker() -> Any:
    with mosquitto() as running:
        yield running


@pytest.mark.parametrize(("game", "what"), [("dominoes", "hand"), ("doublecross", "rack")])
def test_a_host_of_a_hidden_game_sends_the_broker_nothing(
    broker: Broker, game: str, what: str
) -> None:
    got: queue.Queue[tuple[str, bytes]] = queue.Queue()
    ann = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="raw-ann")
    ann.on_message = lambda c, u, m: got.put((m.topic, bytes(m.payload)))
    ann.connect("127.0.0.1", broker.port)
    ann.subscribe("tabletop/#", qos=1)
    ann.loop_start()
    try:
        done = subprocess.run(
            [
                sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--game", game,
                "--host-remote", "2=ann", "--broker", broker.url, "--board-name", "bob",
            ],
            check=False, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode != 0
        assert f"{game} cannot be played board to board yet: each board would learn the " \
            f"other's {what}" in done.stderr  # fmt: skip
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        # A probe through the same broker arrives: nothing before it came from bob.
        ann.publish("tabletop/probe", b"probe", qos=1).wait_for_publish(5)
        end = time.monotonic() + 10
        seen: list[str] = []
        while time.monotonic() < end:
            topic, _payload = got.get(timeout=end - time.monotonic())
            if topic == "tabletop/probe":
                break
            seen.append(topic)
        assert seen == []
    finally:
        ann.loop_stop()
        ann.disconnect()


def test_a_guest_refuses_a_table_of_a_hidden_game(broker: Broker) -> None:
    table = protocol.Table(
        protocol=protocol.PROTOCOL,
        host="bob",
        game_key="1@2026-01-01T00:00:00.000+00:00",
        started="2026-01-01T00:00:00.000+00:00",
        game="dominoes",
        players=2,
        seed=1,
        options={},
        seats=["bob", "ann"],
        moves=[],
        digest=protocol.start_digest("dominoes", 2, 1, {}),
    )
    bob = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="raw-bob")
    bob.connect("127.0.0.1", broker.port)
    bob.loop_start()
    try:
        sent = bob.publish(protocol.table_topic("bob"), protocol.encode(table), qos=1, retain=True)
        sent.wait_for_publish(5)
        done = subprocess.run(
            [
                sys.executable, "-m", "firmware_bridge.apps.cli", "sim", "--join", "bob",
                "--broker", broker.url, "--board-name", "ann",
            ],
            check=False, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        bob.loop_stop()
        bob.disconnect()
    assert done.returncode != 0
    assert "dominoes cannot be played board to board yet" in done.stderr, done.stderr
