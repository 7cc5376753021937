"""The start menu's invite and join, in this process: the seats page offers the
club's boards on line (their own retained presence), a game chosen with a seat of
another board invites it, the other board's menu offers the invitation and answers
it; everything received is checked at intake, and refused with a reason.

The boards' messages carried by the stand-in broker of ``test_abandon`` (it keeps
the retained ones and routes by MQTT's topic filters); a real Mosquitto in
``test_invites_mosquitto``.
"""

from __future__ import annotations

import json
import threading
from typing import Any, cast

import pytest

from firmware_bridge.apps.remote_play import parse_remote_seats
from firmware_bridge.referees.events import ButtonEvent
from firmware_bridge.remote import protocol
from firmware_bridge.remote.invites import (
    Answer,
    Invite,
    check_invited,
    decode,
    offer_text,
    presence_of,
)
from firmware_bridge.remote.link import Link
from firmware_bridge.remote.menu_link import MenuLink
from firmware_bridge.runtime.lobby import Choice, Lobby
from firmware_bridge.runtime.lobby_levels import Offer, Seats
from firmware_bridge.spectate.errors import MessageRefused
from tests.remote.test_abandon import Broker, FakeLink, _table

DOUBLE_TAKE = Choice("double-take", "Double Take", 2, 2, ("red", "green"))
CROSSLET = Choice("crosslet", "Crosslet", 2, 4)
TO_ANN = protocol.to_topic("bob", "ann")
ID = "0123456789abcdef"


class MenuFake(FakeLink):
    """A start menu's link on the stand-in broker: on line once started, as
    :class:`Link` says it with its retained presence."""

    def __init__(self, broker: Broker, board: str, topics: list[str]) -> None:
        self.board = board
        super().__init__(broker, topics)

    def start(self) -> None:
        self._presence(True)

    def stop(self) -> None:
        self._presence(False)

    def flush(self, timeout_s: float = 10.0) -> bool:
        return True

    def _presence(self, online: bool) -> None:
        topic = protocol.presence_topic(self.board, self.board)
        self.publish(topic, protocol.Presence(board=self.board, online=online), retain=True)


def _menu(broker: Broker, board: str) -> MenuLink:
    def make(
        settings: Any, board: str, host: str, role: str, topics: list[str], clean: bool
    ) -> Link:
        assert role == "menu" and clean and host == board  # no session kept
        return cast(Link, MenuFake(broker, board, topics))

    menu = MenuLink(cast(Any, None), board, make=make)
    menu.start()
    return menu


def press(lobby: Lobby, *names: str) -> None:
    for name in names:
        lobby.handle(ButtonEvent(name, False))


def _invite(**fields: Any) -> bytes:
    base = {
        "type": "invite",
        "invite": ID,
        "host": "bob",
        "game": "crosslet",
        "players": 2,
        "seats": [1],
    }
    return json.dumps({**base, **fields}).encode()


def test_an_invitation_is_taken_and_said() -> None:
    invite = decode(TO_ANN, _invite(), "ann")
    assert invite == Invite(invite=ID, host="bob", game="crosslet", players=2, seats=[1])
    assert offer_text(invite) == "join: Crosslet from bob's board, seat 2"
    three = decode(TO_ANN, _invite(players=4, seats=[3, 1]), "ann")
    assert (
        isinstance(three, Invite)
        and offer_text(three) == "join: Crosslet from bob's board, seats 2, 4"
    )


@pytest.mark.parametrize(
    ("topic", "payload", "why"),
    [
        (TO_ANN, b"not json", "it is not JSON"),
        (TO_ANN, _invite(type="presence"), "not an invitation or an answer"),
        (TO_ANN, _invite(invite="xyz"), "is not 8 to 32 hex digits"),
        (TO_ANN, _invite(host="a/b"), "no board can be called"),
        (protocol.to_topic("carol", "ann"), _invite(), "it speaks for bob but came on"),
        (protocol.to_topic("ann", "ann"), _invite(host="ann"), "to its own game"),
        (TO_ANN, _invite(game="chess"), "its game 'chess'"),
        (TO_ANN, _invite(players=7), "Crosslet takes 2 to 4 players, not 7"),
        (TO_ANN, _invite(seats=[2]), "are not seats of 2 players"),
        (TO_ANN, _invite(seats=[-1]), "are not seats of 2 players"),
        (TO_ANN, _invite(seats=[0, 1]), "not some of the game's, each once"),
        (TO_ANN, _invite(seats=[]), "not some of the game's, each once"),
        (TO_ANN, _invite(players=3, seats=[1, 1]), "not some of the game's, each once"),
        (TO_ANN, _invite(seats="2"), "not an invitation or an answer"),
    ],
)
def test_a_bad_invitation_is_refused_with_why(topic: str, payload: bytes, why: str) -> None:
    with pytest.raises(MessageRefused, match=why):
        decode(topic, payload, "ann")


def _answer(**fields: Any) -> bytes:
    base = {"type": "answer", "invite": ID, "board": "ann", "accepted": True}
    return json.dumps({**base, **fields}).encode()


def test_an_answer_is_checked() -> None:
    came = protocol.from_topic("bob", "ann")
    assert decode(came, _answer(), "bob") == Answer(invite=ID, board="ann", accepted=True)
    with pytest.raises(MessageRefused, match="answers for carol but came on"):
        decode(came, _answer(board="carol"), "bob")
    with pytest.raises(MessageRefused, match="over 200 characters"):
        decode(came, _answer(accepted=False, reason="x" * 201), "bob")
    with pytest.raises(MessageRefused, match="not an invitation or an answer"):
        decode(came, _answer(accepted="yes"), "bob")


def test_a_boards_own_presence_says_it_is_on_line() -> None:
    here = protocol.encode(protocol.Presence(board="ann", online=True))
    assert presence_of(protocol.presence_topic("ann", "ann"), here) == ("ann", True)
    assert presence_of(protocol.presence_topic("bob", "ann"), here) is None  # a guest's
    with pytest.raises(MessageRefused, match="not carol's presence"):
        presence_of(protocol.presence_topic("carol", "carol"), here)
    with pytest.raises(MessageRefused, match="is not a board's presence"):
        presence_of("tabletop/ann/state", here)


def test_the_seats_page_goes_past_the_levels_to_the_boards_on_line() -> None:
    seats = Seats(set(), {}, {}, ["ann", "carol"])
    shown = []
    for _ in range(8):
        seats.change(1, +1)
        shown.append(seats.remote.get(1) or ("computer" if 1 in seats.computer else "person"))
    assert shown[:2] == ["computer", "computer"] and "person" not in shown[:2]
    boards = shown.index("ann")
    assert shown[boards : boards + 3] == ["ann", "carol", "person"]
    assert all(s == "computer" for s in shown[:boards])  # the levels, weakest to strongest
    left = Seats(set(), {}, {}, ["ann", "carol"])
    left.change(0, -1)
    assert left.computer == {0} and not left.remote  # one press: the computer, as always
    alone = Seats(set(), {}, {}, [])
    for _ in range(boards + 1):
        alone.change(0, +1)
    assert not alone.remote and alone.computer == set()  # no board on line: person again


def _to_ann(lobby: Lobby) -> None:
    """On the seats page: green from person to ann's board."""
    press(lobby, "ok")  # the game; the seats page, red
    press(lobby, "ok")  # green
    for _ in range(12):
        if lobby.remote.get(1) == "ann":
            assert lobby.screen().lines[0] == "Green: < ann's board >"
            return
        press(lobby, "right")
    raise AssertionError(f"ann's board never offered: {lobby.screen().lines}")


def _choose(lobby: Lobby) -> None:
    _to_ann(lobby)
    while lobby.chosen is None:
        press(lobby, "ok")


def _both() -> tuple[Broker, MenuLink, Lobby, MenuLink, Lobby]:
    broker = Broker()
    bob, ann = _menu(broker, "bob"), _menu(broker, "ann")
    bob_lobby, ann_lobby = Lobby([DOUBLE_TAKE]), Lobby([DOUBLE_TAKE])
    bob.pump(bob_lobby)
    ann.pump(ann_lobby)
    return broker, bob, bob_lobby, ann, ann_lobby


def test_the_host_invites_and_the_guest_joins_on_its_menu() -> None:
    _, bob, bob_lobby, ann, ann_lobby = _both()
    assert bob_lobby.online == ["ann"] and ann_lobby.online == ["bob"]
    _choose(bob_lobby)
    assert bob_lobby.chosen is not None and dict(bob_lobby.chosen.remote) == {1: "ann"}
    result: list[str | None] = []
    owners = ["bob", "ann"]
    thread = threading.Thread(
        target=lambda: result.append(bob.invite("double-take", owners, bob_lobby, 30))
    )
    thread.start()
    try:
        _wait_offer(ann, ann_lobby)
        assert bob_lobby.screen().lines == ("Double Take, 2 players", "waiting for ann's board")
        assert isinstance(ann_lobby.offer, Offer)
        assert ann_lobby.screen().lines == ("join: Double Take from bob's board, seat 2",)
        assert ann_lobby.screen().prompt == "ok: join  back: refuse"
        invite = accept(ann, ann_lobby)
    finally:
        thread.join(30)
    assert result == [None]  # every invited board accepted
    assert invite.host == "bob" and invite.seats == [1]
    assert "Joining..." in ann_lobby.screen().text()
    assert bob.refused == [] and ann.refused == []


def accept(menu: MenuLink, lobby: Lobby) -> Invite:
    """Ok on the offer: the answer goes, and the board joins once its host says the
    game starts."""
    press(lobby, "ok")
    for _ in range(300):
        menu.pump(lobby, 0.1)
        if menu.joined is not None:
            return menu.joined
    raise AssertionError(f"the host did not start the game: {lobby.screen().lines}")


def refuse(menu: MenuLink, lobby: Lobby) -> None:
    press(lobby, "back")
    menu.pump(lobby)
    assert lobby.offer is None and menu.joined is None


def _wait_offer(menu: MenuLink, lobby: Lobby) -> None:
    for _ in range(300):
        menu.pump(lobby, 0.1)
        if lobby.offer is not None:
            return
    raise AssertionError("no invitation reached the menu")


def test_a_refused_invitation_is_said_on_the_hosts_menu() -> None:
    _, bob, bob_lobby, ann, ann_lobby = _both()
    _choose(bob_lobby)
    result: list[str | None] = []
    thread = threading.Thread(
        target=lambda: result.append(bob.invite("double-take", ["bob", "ann"], bob_lobby, 30))
    )
    thread.start()
    try:
        _wait_offer(ann, ann_lobby)
        refuse(ann, ann_lobby)
    finally:
        thread.join(30)
    assert result == ["ann's board refused the invitation"]
    assert ann_lobby.offer is None and ann_lobby.stage == "game"  # ann's menu goes on
    bob_lobby.refused(result[0] or "")
    shown = bob_lobby.screen()
    assert shown.header == "Cannot start" and shown.lines == ("ann's board refused the invitation",)


def test_one_board_refusing_calls_the_game_off_for_the_others() -> None:
    broker = Broker()
    bob, ann, carol = _menu(broker, "bob"), _menu(broker, "ann"), _menu(broker, "carol")
    lobbies = {name: Lobby([CROSSLET]) for name in ("bob", "ann", "carol")}
    for menu in (bob, ann, carol):
        menu.pump(lobbies[menu.board])
    owners = ["bob", "ann", "carol"]
    result: list[str | None] = []
    thread = threading.Thread(target=lambda: result.append(bob.invite("crosslet", owners)))
    thread.start()
    try:
        _wait_offer(ann, lobbies["ann"])
        _wait_offer(carol, lobbies["carol"])
        assert lobbies["carol"].screen().lines == ("join: Crosslet from bob's board, seat 3",)
        press(lobbies["ann"], "ok")  # ann accepts: she waits for the host
        ann.pump(lobbies["ann"])
        refuse(carol, lobbies["carol"])
    finally:
        thread.join(30)
    assert result == ["carol's board refused the invitation"]
    for _ in range(50):
        ann.pump(lobbies["ann"], 0.1)
        if lobbies["ann"].offer is not None and lobbies["ann"].offer.note:
            break
    shown = lobbies["ann"].screen()
    assert shown.lines == (
        "join: Crosslet from bob's board, seat 2",
        "bob's board called it off: carol's board refused the invitation",
    )
    assert ann.joined is None
    press(lobbies["ann"], "ok")  # seen: the menu goes on
    assert lobbies["ann"].offer is None and lobbies["ann"].screen().header == "New game"


def test_an_offer_not_answered_in_time_is_withdrawn() -> None:
    _, bob, bob_lobby, ann, ann_lobby = _both()
    _choose(bob_lobby)
    said: list[str | None] = []
    thread = threading.Thread(
        target=lambda: said.append(bob.invite("double-take", ["bob", "ann"], bob_lobby, 3))
    )
    thread.start()
    try:
        _wait_offer(ann, ann_lobby)  # shown, and left unanswered
    finally:
        thread.join(30)
    assert said == ["ann's board did not answer in 3 s"]
    ann.pump(ann_lobby)
    assert (
        ann_lobby.screen().lines[1]
        == "bob's board called it off: ann's board did not answer in 3 s"
    )
    press(ann_lobby, "ok")  # too late: it only closes the offer, nothing is sent
    ann.pump(ann_lobby)
    assert ann.joined is None and ann_lobby.offer is None and not bob.answers

    # An invitation its host called off before the menu took it is never shown.
    bob.seen["ann"] = True
    late = bob.invite("double-take", ["bob", "ann"], wait_s=0)
    assert late == "ann's board did not answer in 0 s"
    ann.pump(ann_lobby)
    assert ann_lobby.offer is None and not ann.invites


def test_a_board_not_on_line_is_not_invited() -> None:
    broker = Broker()
    bob = _menu(broker, "bob")
    assert bob.invite("double-take", ["bob", "ann"], wait_s=1) == "ann's board is not on line"
    ann = _menu(broker, "ann")
    bob.pump()
    assert bob.online() == ["ann"]
    ann.stop()
    bob.pump()
    assert bob.online() == []  # its presence says it left


def test_foreign_messages_on_the_menu_are_refused() -> None:
    broker = Broker()
    ann = _menu(broker, "ann")
    lobby = Lobby([DOUBLE_TAKE])
    broker.publish(TO_ANN, _invite(players=9), False)
    broker.publish(protocol.to_topic("carol", "ann"), _invite(), False)
    broker.publish(
        protocol.presence_topic("dave", "dave"),
        b'{"type":"presence","board":"eve","online":true}',
        True,
    )
    ann.pump(lobby)
    assert lobby.offer is None and lobby.online == []
    reasons = [r.partition(": ")[2] for r in ann.refused]
    assert reasons == [
        "Crosslet takes 2 to 4 players, not 9",
        "it speaks for bob but came on tabletop/remote/carol/to/ann",
        "it is not dave's presence",
    ]


def test_the_guest_plays_only_the_game_it_was_invited_to() -> None:
    table = _table([])  # bob's Double Take, green ann's
    check_invited(table, "ann", "double-take", [1])
    with pytest.raises(ValueError, match=r"hosts double-take with seats \[2\] for this board"):
        check_invited(table, "ann", "crosslet", [1])
    with pytest.raises(ValueError, match=r"not the double-take game, seats \[1\], it invited"):
        check_invited(table, "ann", "double-take", [0])


def test_the_invite_option_is_checked_as_host_remote_is() -> None:
    assert parse_remote_seats(["2=ann"], 2, "bob", "--invite") == ["bob", "ann"]
    with pytest.raises(ValueError, match=r"--invite '3=ann': give SEAT=BOARD with a seat from 1"):
        parse_remote_seats(["3=ann"], 2, "bob", "--invite")
    with pytest.raises(ValueError, match=r"--invite '2=bob': bob is this board's own name"):
        parse_remote_seats(["2=bob"], 2, "bob", "--invite")


def test_an_answer_from_a_board_not_invited_stops_the_game() -> None:
    broker, bob, _, ann, ann_lobby = _both()
    result: list[str | None] = []
    thread = threading.Thread(
        target=lambda: result.append(bob.invite("double-take", ["bob", "ann"], wait_s=30))
    )
    thread.start()
    try:
        _wait_offer(ann, ann_lobby)
        sent = cast(MenuFake, bob.link).sent
        token = next(m.invite for _, m, _ in sent if isinstance(m, Invite))
        forged = Answer(invite=token, board="carol", accepted=True)  # on carol's own topic
        broker.publish(protocol.from_topic("bob", "carol"), protocol.encode(forged), False)
    finally:
        thread.join(30)
    assert result == ["carol answered ann's invitation"]
    ann.pump(ann_lobby)
    assert ann_lobby.offer is not None and "called it off" in ann_lobby.offer.note


def test_an_offer_whose_host_left_is_called_off() -> None:
    broker, bob, _, ann, ann_lobby = _both()
    invite = Invite(invite=ID, host="bob", game="double-take", players=2, seats=[1])
    broker.publish(TO_ANN, protocol.encode(invite), False)
    _wait_offer(ann, ann_lobby)
    press(ann_lobby, "ok")  # accepted; then bob's board goes (its last will, or it stopped)
    bob.stop()
    ann.pump(ann_lobby)
    assert ann.joined is None and ann_lobby.offer is not None
    assert ann_lobby.screen().lines[1] == "bob's board left before the game started"
