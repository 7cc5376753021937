"""Who may say what in a game played board to board, on the broker ``tabletop club init``
sets up (a real Mosquitto with the files it wrote): a board speaks as host only for
its own game and as a guest only for itself, the hub only reads; and where the
broker cannot tell (a board's own topic, or a broker left open), the host refuses a
move for a seat the sending board does not hold. A board's spectator publisher and
its game's link, each with its own login, stay connected together."""

from __future__ import annotations

import contextlib
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.journal import Journal
from firmware_bridge.kits import find_kit
from firmware_bridge.remote import protocol
from firmware_bridge.remote.link import Link
from firmware_bridge.spectate.broker_config import acl_text
from firmware_bridge.spectate.mqtt import BrokerSettings
from firmware_bridge.spectate.publish import Publisher
from tests.remote.test_two_boards import _export
from tests.spectate.tools import (
    MOSQUITTO,
    free_port,
    mosquitto,
    need,
    stop,
    tabletop,
    wait_for_port,
)

BOARDS = ("bob", "ann", "carol")
"""Bob hosts, Ann holds seat 2, Carol is a board of the club with no seat in the game."""


@dataclass
class Club:
    folder: Path
    port: int

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def password(self, user: str) -> str:
        return (self.folder / "credentials" / user).read_text(encoding="utf-8").strip()

    def config(self, user: str) -> Path:
        """A club config for ``user``'s login, as docs/club.md has a board write it."""
        path = self.folder / f"{user}.toml"
        path.write_text(
            f'broker = "{self.url}"\nusername = "{user}"\npassword_file = "credentials/{user}"\n',
            encoding="utf-8",
        )
        return path


@contextlib.contextmanager
def club_broker() -> Iterator[Club]:
    """``tabletop club init`` for BOARDS and the hub, and Mosquitto run with what it wrote."""
    exe = need(MOSQUITTO, "mosquitto")
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="tabletop-club-"))
    folder.chmod(0o755)  # the broker reads it after it drops to its own user
    broker: subprocess.Popen[bytes] | None = None
    try:
        done = subprocess.run(
            [
                sys.executable, "-m", "firmware_bridge.apps.cli", "club", "init",
                "--boards", ",".join(BOARDS), "--folder", str(folder),
                "--listen", f"127.0.0.1:{port}",
            ],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        broker = subprocess.Popen(
            [exe, "-c", str(folder / "mosquitto.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(port, 10, broker)
        yield Club(folder, port)
    finally:
        if broker is not None:
            stop(broker)
        shutil.rmtree(folder)


class Login:
    """A plain MQTT client with one login of the club (or none, on an open broker)."""

    def __init__(self, port: int, user: str, password: str | None, topics: list[str]) -> None:
        self.heard: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.ready = False
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"t-{user}")
        if password is not None:
            self.client.username_pw_set(user, password)
        self.client.on_message = lambda c, u, m: self.heard.put((m.topic, bytes(m.payload)))
        self.client.on_connect = self._connected
        self.client.on_subscribe = self._subscribed
        self.topics = topics
        self.granted: list[int] = []
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        end = time.monotonic() + 10
        while len(self.granted) < len(topics) or not self.ready:
            assert time.monotonic() < end, f"{user} did not log in and subscribe"
            time.sleep(0.02)

    def _connected(self, c: Any, u: Any, flags: Any, reason: Any, props: Any) -> None:
        assert not reason.is_failure, reason
        for topic in self.topics:
            c.subscribe(topic, qos=1)
        self.ready = True

    def _subscribed(self, c: Any, u: Any, mid: Any, codes: Any, props: Any) -> None:
        self.granted.extend(codes)

    def send(self, topic: str, message: protocol.Message, retain: bool = False) -> None:
        # Mosquitto acknowledges (PUBACK) a publish the ACL refuses, and drops it.
        info = self.client.publish(topic, protocol.encode(message), qos=1, retain=retain)
        info.wait_for_publish(10)

    def topics_heard(self, wait_s: float = 1.0) -> list[str]:
        """The topics of what this login was sent, waiting ``wait_s`` for more."""
        out: list[str] = []
        end = time.monotonic() + wait_s
        while True:
            try:
                out.append(self.heard.get(timeout=max(0.0, end - time.monotonic()))[0])
            except queue.Empty:
                return out

    def table(self, host: str, timeout: float = 60.0) -> protocol.Table:
        """The host's game as the broker keeps it (retained)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                topic, payload = self.heard.get(timeout=0.1)
            except queue.Empty:
                continue
            if topic == protocol.table_topic(host):
                message = protocol.decode(payload, protocol.MAX_TABLE_BYTES)
                assert isinstance(message, protocol.Table)
                return message
        raise AssertionError(f"no table of {host}'s within {timeout} s")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _forged(table: protocol.Table, seat: int, board: str) -> protocol.Move:
    """The game's next move, legal, played from the host's position, for ``seat``."""
    game = find_kit(table.game).new_game(table.players, random.Random(table.seed), table.options)
    for move in table.moves:
        game.apply(game.decode(move))
    return protocol.Move(
        game_key=table.game_key,
        number=len(table.moves) + 1,
        before=table.digest,
        seat=seat,
        action=dict(game.legal_actions()[0].to_dict()),
        board=board,
    )


def test_club_init_gives_each_board_only_its_own_part_of_a_game() -> None:
    acl = acl_text("hub", ["bob", "ann"])
    # The board's name is its login: as host under its own name, as a guest for itself.
    for line in (
        "pattern write tabletop/remote/%u/table",
        "pattern write tabletop/remote/%u/moves",
        "pattern write tabletop/remote/%u/to/+",
        "pattern read tabletop/remote/%u/from/+",
        "pattern write tabletop/remote/+/from/%u",
        "pattern write tabletop/remote/+/presence/%u",
        "pattern read tabletop/remote/+/to/%u",
    ):
        assert line in acl.splitlines()
    assert "tabletop/remote/#" not in acl and "readwrite" not in acl
    # Every board and the hub read the games, their moves and who is on line; no more.
    for user in ("bob", "ann", "hub"):
        block = acl.split(f"user {user}\n", 1)[1].split("\n\n", 1)[0].splitlines()
        reads = [line for line in block if line.startswith("topic read tabletop/remote/")]
        assert reads == [
            f"topic read tabletop/remote/+/{t}" for t in ("table", "moves", "presence/+")
        ]
    hub = acl.split("user hub\n", 1)[1]
    assert "topic deny tabletop/remote/hub/#" in hub
    assert "topic deny tabletop/remote/+/from/hub" in hub


def test_the_broker_lets_a_board_speak_only_for_itself_and_the_hub_only_read() -> None:
    with club_broker() as club:
        pw = club.password
        host, guest = protocol.table_topic("bob"), protocol.from_topic("bob", "ann")
        bob = Login(
            club.port,
            "bob",
            pw("bob"),
            [f"tabletop/remote/bob/{t}/+" for t in ("from", "presence")],
        )
        ann = Login(
            club.port,
            "ann",
            pw("ann"),
            [host, protocol.moves_topic("bob"), protocol.to_topic("bob", "ann")],
        )
        # Carol and the hub listen to everything of the game they may (and try the rest).
        carol = Login(club.port, "carol", pw("carol"), ["tabletop/remote/#"])
        hub = Login(club.port, "hub", pw("hub"), ["tabletop/remote/#"])
        logins = [bob, ann, carol, hub]
        try:
            key = "1@2026-12-02T20:00:00+00:00"
            table = protocol.Table(
                protocol=protocol.PROTOCOL, host="bob", game_key=key, started=key[2:],
                game="double-take", players=2, seed=1, options={}, seats=["bob", "ann"],
                moves=[], digest=protocol.start_digest("double-take", 2, 1, {}),
            )  # fmt: skip
            bob.send(host, table, retain=True)
            assert ann.table("bob") == table and hub.table("bob") == table
            assert carol.table("bob") == table
            red, green = _forged(table, 0, "bob"), _forged(table, 1, "ann")
            # What nobody but bob may say: bob's game, bob's moves (any seat's).
            for login in (ann, carol, hub):
                login.send(protocol.moves_topic("bob"), red)
                login.send(protocol.table_topic("bob"), table, retain=True)
                login.send(
                    protocol.to_topic("bob", "ann"),
                    protocol.Refused(game_key=key, number=1, reason="x"),
                )
            # What nobody but ann may say: a move of ann's, from ann.
            carol.send(guest, green)
            hub.send(guest, green)
            hub.send(protocol.from_topic("bob", "hub"), green)
            # The hub's login cannot host a game either.
            hub.send(protocol.table_topic("hub"), table, retain=True)
            for login in logins:
                assert login.topics_heard() == []
            # What each may say reaches only whom it is for.
            ann.send(guest, green)
            carol.send(protocol.from_topic("bob", "carol"), red)
            bob.send(protocol.moves_topic("bob"), red)
            bob.send(
                protocol.to_topic("bob", "ann"),
                protocol.Refused(game_key=key, number=1, reason="y"),
            )
            assert sorted(bob.topics_heard()) == [guest, protocol.from_topic("bob", "carol")]
            assert sorted(ann.topics_heard()) == [
                protocol.moves_topic("bob"),
                protocol.to_topic("bob", "ann"),
            ]
            # Carol and the hub read the game's moves and presence, never what the
            # boards send each other.
            assert carol.topics_heard() == [protocol.moves_topic("bob")]
            assert hub.topics_heard() == [protocol.moves_topic("bob")]
        finally:
            for login in logins:
                login.close()


def _sim(club_or_url: Club | str, board: str, journal: Path, *role: str) -> subprocess.Popen[str]:
    if isinstance(club_or_url, Club):
        login = ["--broker", club_or_url.url, "--club-config", str(club_or_url.config(board))]
    else:
        login = ["--broker", club_or_url]
    return tabletop("sim", *role, *login, "--board-name", board, "--journal", str(journal))


def _play(
    tmp_path: Path, where: Club | str, forge: Any
) -> tuple[subprocess.Popen[str], str, subprocess.Popen[str], str]:
    """A whole Double Take game, bob hosting, ann holding seat 2; ``forge(table)`` runs
    once the host's game is on the broker."""
    host = _sim(
        where, "bob", tmp_path / "bob.sqlite", "--game", "double-take", "--host-remote", "2=ann"
    )
    guest = _sim(where, "ann", tmp_path / "ann.sqlite", "--join", "bob")
    try:
        forge()
        _, host_err = host.communicate(timeout=240)
        _, guest_err = guest.communicate(timeout=60)
    finally:
        stop(host)
        stop(guest)
    assert host.returncode == 0, host_err
    assert guest.returncode == 0, guest_err
    assert _export(tmp_path / "bob.sqlite") == _export(tmp_path / "ann.sqlite")
    return host, host_err, guest, guest_err


def _refusals(stderr: str) -> list[str]:
    return [
        line.split("refused a message on ", 1)[1]
        for line in stderr.splitlines()
        if "refused a message on " in line
    ]


def test_on_the_club_broker_a_move_for_a_seat_a_board_does_not_hold_never_reaches_the_host(
    tmp_path: Path,
) -> None:
    with club_broker() as club:
        carol = Login(club.port, "carol", club.password("carol"), [protocol.table_topic("bob")])
        hub = Login(club.port, "hub", club.password("hub"), [])

        def forge() -> None:
            table = carol.table("bob")
            red, green = _forged(table, 0, "bob"), _forged(table, 1, "ann")
            carol.send(protocol.from_topic("bob", "ann"), green)  # as ann
            carol.send(protocol.moves_topic("bob"), red)  # as the host
            hub.send(protocol.from_topic("bob", "ann"), green)
            hub.send(protocol.moves_topic("bob"), red)
            # Carol's own topic the broker passes (any board may be a guest): the host
            # refuses it, as carol holds no seat.
            carol.send(protocol.from_topic("bob", "carol"), _forged(table, 1, "carol"))

        try:
            _, host_err, _, guest_err = _play(tmp_path, club, forge)
        finally:
            carol.close()
            hub.close()
    assert _refusals(host_err) == ["tabletop/remote/bob/from/carol: carol does not hold seat 2"]
    assert "refused 0 messages" in guest_err


def test_on_an_open_broker_the_host_itself_refuses_a_move_for_a_seat_the_board_does_not_hold(
    tmp_path: Path,
) -> None:
    # A broker with no logins and no ACL: anybody may publish anywhere.
    with mosquitto() as broker:
        eve = Login(broker.port, "eve", None, [protocol.table_topic("bob")])

        def forge() -> None:
            table = eve.table("bob")
            for board, seat in (("carol", 0), ("carol", 1), ("eve", 1)):
                eve.send(protocol.from_topic("bob", board), _forged(table, seat, board))
            # A move naming another board than the topic's.
            eve.send(protocol.from_topic("bob", "carol"), _forged(table, 1, "ann"))

        try:
            _, host_err, _, guest_err = _play(tmp_path, broker.url, forge)
        finally:
            eve.close()
    assert _refusals(host_err) == [
        "tabletop/remote/bob/from/carol: carol does not hold seat 1",
        "tabletop/remote/bob/from/carol: carol does not hold seat 2",
        "tabletop/remote/bob/from/eve: eve does not hold seat 2",
        "tabletop/remote/bob/from/carol: it names the board ann but came from carol",
    ]
    assert "refused 4 messages" in host_err and "refused 0 messages" in guest_err


def test_a_boards_login_for_games_with_other_boards_acts_only_in_them_for_the_board() -> None:
    acl = acl_text("hub", ["bob", "ann"])
    block = acl.split("user bob.remote\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line for line in block if not line.startswith("topic deny ")] == [
        "topic write tabletop/remote/bob/table",
        "topic write tabletop/remote/bob/moves",
        "topic write tabletop/remote/bob/to/+",
        "topic read tabletop/remote/bob/from/+",
        "topic write tabletop/remote/+/from/bob",
        "topic write tabletop/remote/+/presence/bob",
        "topic read tabletop/remote/+/to/bob",
        "topic read tabletop/remote/+/table",
        "topic read tabletop/remote/+/moves",
        "topic read tabletop/remote/+/presence/+",
    ]
    # What the patterns give it under its own name is denied: it is no board.
    assert "topic deny tabletop/bob.remote/#" in block
    assert "topic deny tabletop/remote/bob.remote/#" in block
    assert "topic deny tabletop/remote/+/from/bob.remote" in block
    assert "user ann.remote\n" in acl


class Watch:
    """Whether a client stayed connected: its flag sampled every 20 ms."""

    def __init__(self, connected: Any) -> None:
        self.connected = connected
        self.drops = 0

    def for_s(self, seconds: float) -> int:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if not self.connected():
                self.drops += 1
            time.sleep(0.02)
        return self.drops


def test_a_boards_publisher_and_its_game_link_stay_connected_together(tmp_path: Path) -> None:
    """With its own login for games with other boards, a board's spectator publisher
    and its game's link are two clients to the broker, not one id; with the board's
    one login for both, the broker makes them one client id and each knocks the other
    off."""
    journal = tmp_path / "bob.sqlite"
    Journal(journal).close()
    with club_broker() as club:
        url = BrokerSettings.from_url(club.url)

        def login(user: str) -> BrokerSettings:
            return msgspec.structs.replace(url, username=user, password=club.password(user))

        publisher = Publisher(journal, login("bob"), "bob")
        root = protocol.root("bob")
        topics = [f"{root}/from/+", f"{root}/presence/+"]
        link = Link(login("bob.remote"), "bob", "bob", "host", topics)
        ann = Link(login("ann.remote"), "ann", "bob", "guest", [protocol.table_topic("bob")])
        same: Link | None = None
        try:
            publisher.start()
            end = time.monotonic() + 10
            while not publisher.connected:
                assert time.monotonic() < end, "the publisher did not connect"
                time.sleep(0.02)
            link.start()
            ann.start()
            watch = Watch(lambda: publisher.connected and link.connected.is_set())
            key = "1@2026-12-02T20:00:00+00:00"
            table = protocol.Table(
                protocol=protocol.PROTOCOL, host="bob", game_key=key, started=key[2:],
                game="double-take", players=2, seed=1, options={}, seats=["bob", "ann"],
                moves=[], digest=protocol.start_digest("double-take", 2, 1, {}),
            )  # fmt: skip
            link.publish(protocol.table_topic("bob"), table, retain=True)
            topic, payload = ann.inbox.get(timeout=10)
            assert topic == protocol.table_topic("bob") and protocol.decode(payload) == table
            assert watch.for_s(3.0) == 0 and link.connects == 1 and publisher.connected

            # The board's own login for the game too: one client id, each knocks the
            # other off.
            same = Link(login("bob"), "bob", "bob", "host", topics)
            same.start()
            assert Watch(lambda: publisher.connected).for_s(3.0) > 0
        finally:
            if same is not None:
                same.stop()
            ann.stop()
            link.stop()
            publisher.stop()


def test_the_broker_lets_a_boards_game_login_speak_only_in_the_boards_games() -> None:
    with club_broker() as club:
        pw = club.password
        game = protocol.Presence(board="bob", online=True)
        hub = Login(club.port, "hub", pw("hub"), ["tabletop/#"])
        host = Login(club.port, "bob.remote", pw("bob.remote"), ["tabletop/remote/bob/from/+"])
        carol = Login(club.port, "carol.remote", pw("carol.remote"), ["tabletop/remote/#"])
        logins = [hub, host, carol]
        try:
            # Not the board: its board topics; not another board: ann's from/ or bob's
            # game; not a board of its own name.
            carol.send("tabletop/carol/state", game)
            carol.send(protocol.from_topic("bob", "ann"), game)
            carol.send(protocol.table_topic("bob"), game)
            carol.send(protocol.table_topic("carol.remote"), game)
            carol.send(protocol.from_topic("bob", "carol.remote"), game)
            for login in logins:
                assert login.topics_heard() == []
            # As carol's board in bob's game, and as the host of carol's own.
            carol.send(protocol.from_topic("bob", "carol"), game)
            carol.send(protocol.table_topic("carol"), game)
            assert host.topics_heard() == [protocol.from_topic("bob", "carol")]
            assert hub.topics_heard() == [protocol.table_topic("carol")]
        finally:
            for login in logins:
                login.close()
