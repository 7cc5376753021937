"""A browser seat of a game of hidden pieces, without a broker or a browser: the seat
is dealt and follows the game from its views only, its page and ``game.json`` hold
its own hand or rack and never another's, nor the seed or the bag's order, and what
the page sends (taps, the hand's and the tray's pieces, the buttons) is checked at
intake and judged by the rules. The host here is the real game played from a seed,
each move's view made for the seat as the host makes it (:mod:`.privacy`)."""

from __future__ import annotations

import io
import json
import random
import re
import urllib.parse
from pathlib import Path
from typing import Any

import msgspec
import pytest

from firmware_bridge.kits import find_kit, new_game
from firmware_bridge.remote import protocol, seat_moves
from firmware_bridge.remote.browser_seat import Seat
from firmware_bridge.remote.privacy import HIDDEN, seat_facts, seat_view, view_digest
from firmware_bridge.remote.seat_tokens import Tokens
from firmware_bridge.remote.seat_web import SeatApp
from games.core import Action, Game

HOST, GUEST = "bob", "carol"
SEED = 48213907
"""The seed that deals the host's game: a number no page could hold by chance."""
KEY = "7@2026-01-01T10:00:00"


class Host:
    """The host's game, played from its seed, and what it sends the seat."""

    def __init__(self, name: str, seed: int = SEED) -> None:
        self.name = name
        self.game = new_game(name, 2, random.Random(seed), {})
        self.seen: list[protocol.Seen] = [self._seen(0)]

    def _seen(self, n: int) -> protocol.Seen:
        view = seat_view(self.game, {1})
        shown = seat_facts(view) if n else view
        return protocol.Seen(game_key=KEY, number=n, view=shown, digest=protocol.value_digest(view))

    def moves(self) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self.game.history]

    def table(self) -> protocol.Table:
        start = protocol.start_digest(self.name, 2, None, {})
        over = self.game.outcome is not None
        return protocol.Table(
            protocol=protocol.PROTOCOL, host=HOST, game_key=KEY, started="2026-01-01T10:00:00",
            game=self.name, players=2, seed=SEED if over else None, options={},
            seats=[HOST, GUEST], moves=self.moves(), finished=over,
            digest=protocol.digests(start, self.moves())[-1],
        )  # fmt: skip

    def play(self, data: dict[str, Any]) -> protocol.Move:
        """Play a move; the move as published (its view is in :attr:`seen`)."""
        start = protocol.start_digest(self.name, 2, None, {})
        before = protocol.digests(start, self.moves())[-1]
        seat = self.game.to_move
        action = self.game.decode(data)
        assert self.game.judge(action).accepted, self.game.judge(action).reason
        self.game.apply(action)
        n = len(self.game.history)
        self.seen.append(self._seen(n))
        return protocol.Move(
            game_key=KEY, number=n, before=before, seat=seat, action=data,
            board=[HOST, GUEST][seat],
        )  # fmt: skip


def _give(seat: Seat, message: protocol.Message) -> None:
    topic = {
        protocol.Move: protocol.moves_topic(HOST),
        protocol.Table: protocol.table_topic(HOST),
    }.get(type(message), protocol.to_topic(HOST, GUEST))
    with seat.lock:
        seat.take(topic, protocol.encode(message))


class Sent(list[tuple[str, protocol.Message]]):
    def __call__(self, topic: str, message: protocol.Message) -> None:
        self.append((topic, message))


def _call(app: SeatApp, path: str, form: dict[str, Any] | None = None) -> tuple[int, str]:
    data = urllib.parse.urlencode(form or {}, doseq=True).encode()
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "POST" if form is not None else "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "CONTENT_LENGTH": str(len(data)),
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "HTTP_HOST": "127.0.0.1:8090",
    }
    got: dict[str, int] = {}

    def start_response(status: str, hdrs: list[tuple[str, str]]) -> None:
        got["status"] = int(status.split(maxsplit=1)[0])

    body = b"".join(app(environ, start_response)).decode()
    return got["status"], body


class Page:
    """The seat's page, answered by the seat's application, and its forms."""

    def __init__(self, tmp: Path, seat: Seat) -> None:
        tokens = Tokens(tmp / "carol.token")
        self.base = f"/seat/{tokens.issue()}"
        self.app = SeatApp(seat, tokens)
        self.seat = seat

    def html(self) -> str:
        return _call(self.app, self.base)[1]

    def data(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(_call(self.app, self.base + "/game.json")[1])
        return value

    def post(self, route: str, **form: Any) -> None:
        n = str(len(self.seat.game.history))
        status, text = _call(self.app, f"{self.base}/{route}", {"n": n, **form})
        assert status == 303, text

    def rack(self) -> list[str]:
        part = re.search(r'aria-label="your rack">(.*?)</div>', self.html())
        return re.findall(r"<button[^>]*>([^<]*)</button>", part.group(1)) if part else []

    def pick(self, label: str) -> None:
        self.post("tile", i=str(self.rack().index(label)))

    def make(self, action: Action) -> None:
        """Say ``action`` as a person would: a piece of the hand, its squares, a button."""
        data = action.to_dict()
        kind = data["type"]
        if kind == "place" and "domino_a" in data:
            a, b = data["domino_a"], data["domino_b"]
            self.pick(f"{a}-{b}" if f"{a}-{b}" in self.rack() else f"{b}-{a}")
            self.post("tap", cell=data["cell_a"])
            self.post("tap", cell=data["cell_b"])
            if self.seat.draft.choices:
                index = [c["cell_a"] == data["cell_a"] and c["domino_a"] == a
                         for c in self.seat.draft.choices].index(True)  # fmt: skip
                self.post("do", act=f"choice:{index}")
        elif kind == "place":
            self.pick(data["letter"])
            self.post("tap", cell=data["cell"])
        elif kind == "bomb":
            self.pick(f"{data['kind']} bomb")
            self.post("tap", cell=data["cell"])
        elif kind == "discard":
            a, b = data["a"], data["b"]
            self.pick(f"{a}-{b}" if f"{a}-{b}" in self.rack() else f"{b}-{a}")
            self.post("do", act="discard:")
        else:
            self.post("do", act=f"{kind}:")


def _hidden_of(game: Game, seat: int) -> list[str]:
    return HIDDEN[game.name].pieces(game, seat)


def _check_private(page: Page, host: Host) -> None:
    """The page and game.json: the seat's own pieces, the others' only counted, no
    seed, no bag in order."""
    game: Any = host.game
    html, data = page.html(), page.data()
    text = html + json.dumps(data)
    assert str(SEED) not in text and "seed" not in data
    what = f"{HIDDEN[game.name].what}s"
    if page.seat.ready():
        assert data[what] == [len(_hidden_of(game, 0)), _hidden_of(game, 1)]
        shown = page.rack()
        if game.name == "dominoes":
            assert sorted(shown) == sorted(_hidden_of(game, 1))
        else:
            assert shown == [*game.rack(1), *(f"{k} bomb" for k in game.tray(1))]
    assert not any(drawn in text for drawn in next_drawn(game))


def next_drawn(game: Any) -> list[str]:
    """The next four pieces to be drawn, in their order, as a page or JSON could
    write them (none when fewer are left: a few could be there by chance)."""
    if game.name == "dominoes":
        bag = [str(d) for d in reversed(game._boneyard)]
    else:
        bag = list(game.state.bag)
    if len(bag) < 4:
        return []
    first = [str(piece) for piece in bag[:4]]
    return [sep.join(first) for sep in ("", " ", ", ", ",")] + [json.dumps(first)]


def _choose(game: Game, turn: int) -> Action:
    return find_kit(game.name).make_player(game, random.Random(turn)).choose(game)


@pytest.mark.parametrize("name", ["dominoes", "doublecross"])
def test_a_whole_game_from_the_seats_views_shows_only_its_own_pieces(
    tmp_path: Path, name: str
) -> None:
    host = Host(name)
    sent = Sent()
    seat = Seat(GUEST, host.table(), sent)
    page = Page(tmp_path, seat)
    assert not seat.ready() and "to deal this seat its pieces" in page.html()
    assert "<svg" not in page.html()  # no board before the deal
    _give(seat, host.seen[0])
    assert seat.ready()
    made = 0
    kinds: set[str] = set()
    while host.game.outcome is None:
        assert len(host.game.history) < 1000
        _check_private(page, host)
        if host.game.to_move == 0:
            move = host.play(_choose(host.game, len(host.game.history)).to_dict())
            _give(seat, host.seen[-1])
            _give(seat, move)
            continue
        assert seat.my_turn(), (seat.error, seat.note)
        sent.clear()
        chosen = _choose(host.game, len(host.game.history))
        kinds.add(chosen.to_dict()["type"])
        page.make(chosen)
        mine = [m for _, m in sent if isinstance(m, protocol.Move)]
        assert len(mine) == 1, seat.note
        # The host judges it from its own game: the seat's view is its own.
        assert mine[0].seen == view_digest(host.game, {1})
        assert mine[0].number == len(host.game.history) + 1
        published = host.play(mine[0].action)
        assert not seat.my_turn()  # sent: the page waits for the host
        _give(seat, published)  # the move before its view: it waits for the view
        assert len(seat.game.history) == published.number - 1
        _give(seat, host.seen[-1])
        made += 1
    assert host.game.outcome is not None and not seat.error
    assert made > 5
    print(f"{name}: {len(host.game.history)} moves, {made} at the seat: {sorted(kinds)}")
    assert [m["action"] for m in seat.moves] == host.moves()
    assert seat.game.outcome == host.game.outcome
    _give(seat, host.table())  # the table as it ended: with the seed, never shown
    _check_private(page, host)
    assert "wins" in page.html() or "Draw" in page.html()


def test_the_seat_is_dealt_after_a_table_of_moves_and_a_wrong_view_stops_it() -> None:
    host = Host("dominoes")
    for _ in range(3):
        host.play(_choose(host.game, 0).to_dict())
    seat = Seat(GUEST, host.table(), Sent())
    assert not seat.ready() and not seat.my_turn()
    for seen in host.seen:
        _give(seat, seen)
    assert seat.ready() and len(seat.game.history) == 3 and not seat.error
    _give(seat, host.seen[1])  # sent again: dropped
    assert seat.dropped == 1
    # A view this seat's game cannot reach stops it, saying why.
    move = host.play(_choose(host.game, 3).to_dict())
    view = dict(host.seen[-1].view)
    view["boneyard"] = int(view["boneyard"]) + 5
    wrong = protocol.Seen(game_key=KEY, number=4, view=view, digest=protocol.value_digest(view))
    _give(seat, wrong)
    _give(seat, move)
    assert "this seat's game stops here" in seat.error
    assert not seat.my_turn()


def test_dominoes_taps_say_the_rules_reasons_and_send_nothing(tmp_path: Path) -> None:
    host = Host("dominoes")
    while host.game.to_move == 0:
        host.play(_choose(host.game, 0).to_dict())
    sent = Sent()
    seat = Seat(GUEST, host.table(), sent)
    for seen in host.seen:
        _give(seat, seen)
    page = Page(tmp_path, seat)
    assert seat.my_turn()
    assert "Draw a domino" in page.html()
    page.post("tap", cell="H8")
    assert seat.note == "tap a domino of your hand, then the square it goes on"
    domino = page.rack()[0]
    page.pick(domino)
    page.post("tap", cell="A1")
    page.post("tap", cell="A2")
    a, b = (int(p) for p in domino.split("-"))
    reason = host.game.judge(host.game.decode(
        {"type": "place", "domino_a": a, "domino_b": b, "cell_a": "A1", "cell_b": "A2"}
    )).reason  # fmt: skip
    assert reason == "draw a domino from the boneyard first" == seat.note
    page.post("do", act="discard:")
    assert (
        seat.note == host.game.judge(host.game.decode({"type": "discard", "a": a, "b": b})).reason
    )
    page.post("do", act="end-turn:")
    assert seat.note == host.game.judge(host.game.decode({"type": "end-turn"})).reason
    page.post("do", act="exchange:")  # no such button in Dominoes
    assert seat.note == "exchange is not open now"
    assert not sent
    page.post("tile", i="99")
    assert seat.note == "that domino is not in your hand"
    stale = str(len(seat.game.history) + 1)
    status, _ = _call(page.app, page.base + "/tile", {"n": stale, "i": "0"})
    assert status == 303 and seat.note.startswith("the game moved on")  # a stale page
    page.post("do", act="draw:")
    assert isinstance(sent[-1][1], protocol.Move) and sent[-1][1].action == {"type": "draw"}


def test_doublecross_tiles_and_buttons_are_judged_by_the_rules(tmp_path: Path) -> None:
    host = Host("doublecross")
    while host.game.to_move == 0:
        host.play({"type": "pass"})
    sent = Sent()
    seat = Seat(GUEST, host.table(), sent)
    for seen in host.seen:
        _give(seat, seen)
    page = Page(tmp_path, seat)
    assert seat.my_turn()
    html = page.html()
    assert "New letters" in html and "Pass" in html and "Exchange the ticked" not in html
    letter = page.rack()[0]
    page.pick(letter)
    page.post("tap", cell="A1")  # far from every tile
    reason = host.game.judge(host.game.decode({"type": "place", "cell": "A1", "letter": letter}))
    assert not reason.accepted and seat.note == reason.reason and not sent
    page.post("do", act="undo:")
    undo = host.game.judge(host.game.decode({"type": "undo"}))
    assert not undo.accepted and seat.note == undo.reason
    assert not sent
    page.post("do", act="new-letters:")
    assert isinstance(sent[-1][1], protocol.Move)
    assert sent[-1][1].action == {"type": "new-letters"}
    assert sent[-1][1].seen == view_digest(host.game, {1})


def test_the_hosts_next_game_of_hidden_pieces_is_dealt_when_asked() -> None:
    host = Host("dominoes")
    sent = Sent()
    seat = Seat(GUEST, host.table(), sent)
    _give(seat, host.seen[0])
    assert seat.ready()
    nxt = Host("dominoes", seed=SEED + 1)
    key, started = "8@2026-01-01T11:00:00", "2026-01-01T11:00:00"
    table = msgspec.structs.replace(nxt.table(), game_key=key, started=started)
    _give(seat, table)
    assert seat.game_key == table.game_key and not seat.ready()
    asked = sent[-1][1]
    assert isinstance(asked, protocol.Sync) and asked.game_key == table.game_key
    assert asked.have == 0
    _give(seat, msgspec.structs.replace(nxt.seen[0], game_key=key))
    assert seat.ready() and not seat.error
    assert seat_moves.rack(seat) == _hidden_of(nxt.game, 1)
