"""A browser seat without a broker or a browser: its token, what it takes from the host,
and every request checked at intake (the WSGI application called directly)."""

from __future__ import annotations

import io
import os
import random
import stat
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.kits import KITS, new_game
from firmware_bridge.remote import protocol, seat_moves
from firmware_bridge.remote.browser_seat import Seat, fill_dice
from firmware_bridge.remote.seat_moves import mode_of
from firmware_bridge.remote.seat_tokens import Tokens, new_link, revoke_link
from firmware_bridge.remote.seat_web import MAX_FORM, WAITERS, SeatApp
from games.double_take.game import DoubleTake, Step

HOST, GUEST = "bob", "carol"


def _table(game: str = "double-take", moves: list[dict[str, Any]] | None = None) -> protocol.Table:
    moves = moves or []
    start = protocol.start_digest(game, 2, 1, {})
    return protocol.Table(
        protocol=protocol.PROTOCOL, host=HOST, game_key="7@2026-01-01T10:00:00",
        started="2026-01-01T10:00:00", game=game, players=2, seed=1, options={},
        seats=[HOST, GUEST], moves=moves, digest=protocol.digests(start, moves)[-1],
    )  # fmt: skip


def _first_move(game: str = "double-take") -> dict[str, Any]:
    """Red's (the host's) first move: one the rules allow."""
    fresh = new_game(game, 2, random.Random(1), {})
    return fresh.legal_actions()[0].to_dict()


class Sent(list[tuple[str, protocol.Message]]):
    def __call__(self, topic: str, message: protocol.Message) -> None:
        self.append((topic, message))


def _seat(
    game: str = "double-take", moves: list[dict[str, Any]] | None = None
) -> tuple[Seat, Sent]:
    sent = Sent()
    return Seat(GUEST, _table(game, moves), sent), sent


def _call(
    app: SeatApp,
    path: str,
    method: str = "GET",
    form: dict[str, Any] | None = None,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], str]:
    data = body if body is not None else urllib.parse.urlencode(form or {}, doseq=True).encode()
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "CONTENT_TYPE": "application/x-www-form-urlencoded" if method == "POST" else "",
        "CONTENT_LENGTH": str(len(data)),
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "HTTP_HOST": "127.0.0.1:8090",
        **{f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items()},
    }
    got: dict[str, Any] = {}

    def start_response(status: str, hdrs: list[tuple[str, str]]) -> None:
        got["status"] = int(status.split(maxsplit=1)[0])
        got["headers"] = dict(hdrs)

    out = b"".join(app(environ, start_response))
    return got["status"], got["headers"], out.decode()


@pytest.fixture
def app(tmp_path: Path) -> tuple[SeatApp, Seat, Sent, str]:
    seat, sent = _seat(moves=[_first_move()])
    tokens = Tokens(tmp_path / "carol.token")
    token = tokens.issue()
    return SeatApp(seat, tokens), seat, sent, token


# -- the token ------------------------------------------------------------------------------
def test_a_token_is_128_random_bits_kept_private_and_revocable(tmp_path: Path) -> None:
    path = tmp_path / "seat.token"
    tokens = Tokens(path)
    first = tokens.issue()
    assert len(first) == 22 and tokens.valid(first)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert not tokens.valid(first[:-1] + ("A" if first[-1] != "A" else "B"))
    assert not tokens.valid("")
    assert not tokens.valid("../" + first)
    # Another process (the host's menu, tabletop seat --new-link / --revoke) changes the
    # file: the running server's tokens follow at once.
    second = new_link(path)
    assert second != first and tokens.valid(second) and not tokens.valid(first)
    revoke_link(path)
    assert not tokens.valid(second) and tokens.current() == ""
    assert tokens.ensure() not in (first, second, "")


# -- what the seat takes from the host ----------------------------------------------------------
def test_the_players_move_is_the_games_only_when_the_host_publishes_it() -> None:
    seat, sent = _seat(moves=[_first_move()])
    game = seat.game
    assert isinstance(game, DoubleTake) and seat.my_turn()
    step = game.legal_steps()[0]
    assert seat.play(step.to_dict())
    topic, move = sent[-1]
    assert topic == protocol.from_topic(HOST, GUEST) and isinstance(move, protocol.Move)
    assert (move.number, move.seat, move.board) == (2, 1, GUEST)
    assert move.before == protocol.digests(seat.start, [_first_move()])[-1]
    assert len(seat.game.history) == 1 and not seat.my_turn()  # sent, not yet the game's
    echo = protocol.encode(move)
    seat.take(protocol.moves_topic(HOST), echo)
    assert len(seat.game.history) == 2 and seat.pending is None
    seat.take(protocol.moves_topic(HOST), echo)  # a QoS 1 resend
    assert len(seat.game.history) == 2 and seat.dropped == 1


def test_the_same_table_sent_again_redraws_nothing() -> None:
    # A host that has waited long on the seat says its table again (remote.side's
    # QUIET_S): the page, read by a person, must not redraw itself for it.
    seat, _ = _seat(moves=[_first_move()])
    version = seat.version
    seat.take(protocol.table_topic(HOST), protocol.encode(_table(moves=[_first_move()])))
    assert seat.version == version and seat.dropped == 1


def test_a_move_the_rules_refuse_is_not_sent_and_says_their_reason() -> None:
    seat, sent = _seat(moves=[_first_move()])
    game = seat.game
    assert isinstance(game, DoubleTake)
    frm = game.legal_steps()[0].frm
    legal = {(s.frm, s.to) for s in game.legal_steps()}
    far = next(c for c in game.cells() if c not in game.layout() and (frm, c) not in legal)
    reason = game.judge(Step(frm, far, game.sandwiched(frm, far))).reason
    assert not seat.play({"type": "step", "frm": frm, "to": far, "captures": []})
    assert seat.note == reason and not sent


def test_the_page_says_when_the_host_is_off_line_and_asks_again_when_it_is_back(
    app: tuple[SeatApp, Seat, Sent, str],
) -> None:
    web, seat, sent, token = app
    gone = protocol.Presence(board=HOST, online=False)
    seat.take(protocol.presence_topic(HOST, HOST), protocol.encode(gone))
    _, _, text = _call(web, f"/seat/{token}")
    assert "bob&#x27;s board is off line: the game waits for it." in text
    back = protocol.Presence(board=HOST, online=True)
    seat.take(protocol.presence_topic(HOST, HOST), protocol.encode(back))
    assert isinstance(sent[-1][1], protocol.Sync)  # the table again: a move may be lost
    _, _, text = _call(web, f"/seat/{token}")
    assert "off line" not in text


def test_the_hosts_refusal_is_shown_and_a_gap_asks_for_the_table() -> None:
    seat, sent = _seat(moves=[_first_move()])
    game = seat.game
    assert isinstance(game, DoubleTake)
    seat.play(game.legal_steps()[0].to_dict())
    refused = protocol.Refused(game_key=seat.game_key, number=2, reason="<b>no</b>")
    seat.take(protocol.to_topic(HOST, GUEST), protocol.encode(refused))
    assert seat.pending is None and seat.note == "bob's board refused it: <b>no</b>"
    far = protocol.Move(
        game_key=seat.game_key, number=5, before="0" * 32, seat=0, action={}, board=HOST
    )
    seat.take(protocol.moves_topic(HOST), protocol.encode(far))
    assert isinstance(sent[-1][1], protocol.Sync) and sent[-1][1].have == 1
    seat.take(protocol.to_topic(HOST, GUEST), protocol.encode(_table()))  # not its topic
    seat.take(protocol.moves_topic(HOST), b"{not json")
    assert len(seat.refused) == 2 and len(seat.game.history) == 1


def test_the_hosts_next_game_is_followed_if_it_gives_the_seat_a_seat() -> None:
    seat, _ = _seat(moves=[_first_move()])
    older = protocol.Table(**{**_fields(_table()), "game_key": "6@x", "started": "2025-01-01"})
    seat.take(protocol.table_topic(HOST), protocol.encode(older))
    assert seat.dropped == 1 and len(seat.game.history) == 1  # an earlier game's, kept
    later = {**_fields(_table()), "game_key": "8@y", "started": "2026-02-01T10:00:00"}
    seat.take(protocol.table_topic(HOST), protocol.encode(protocol.Table(**later)))
    assert seat.game_key == "8@y" and not seat.game.history and not seat.error
    gone = {**later, "game_key": "9@z", "started": "2026-03-01", "seats": [HOST, "dora"]}
    seat.take(protocol.table_topic(HOST), protocol.encode(protocol.Table(**gone)))
    assert str(seat.error) == "bob's board now hosts another game, with no seat for this one"
    assert not seat.my_turn() and not seat.play({"type": "pass"})


def _fields(table: protocol.Table) -> dict[str, Any]:
    return {name: getattr(table, name) for name in table.__struct_fields__}


def test_the_dice_are_the_hosts() -> None:
    # Seat 1 is the host's and rolls first; its turn ends with a ball placed.
    fresh = new_game("doubles-wild", 2, random.Random(1), {})
    moves = [{"type": "roll", "red": [3, 4], "blue": [2, 6]}]
    fresh.apply(fresh.decode(moves[0]))
    while fresh.to_move == 0:
        action = next(a for a in fresh.legal_actions() if a.type in ("place", "end-turn"))
        moves.append(action.to_dict())
        fresh.apply(action)
    sent = Sent()
    seat = Seat(GUEST, _table("doubles-wild", moves), sent)
    assert seat.my_turn()
    assert seat.play({"type": "roll", "red": [6, 6], "blue": [6, 6]})
    ask = sent[-1][1]
    assert isinstance(ask, protocol.RollAsk) and ask.count == 4  # asked, not chosen here
    assert ask.number == len(moves) + 1 and not seat.my_turn()
    rolled = protocol.Rolled(game_key=seat.game_key, number=ask.number, faces=[2, 5, 4, 1])
    seat.take(protocol.to_topic(HOST, GUEST), protocol.encode(rolled))
    move = sent[-1][1]
    assert isinstance(move, protocol.Move)
    assert move.action == {"type": "roll", "red": [2, 5], "blue": [4, 1]}
    seat.take(protocol.to_topic(HOST, GUEST), protocol.encode(rolled))  # sent again
    assert sent[-1][1] is move and seat.dropped == 1
    assert fill_dice({"type": "reroll", "pair": "both", "values": [1] * 4}, [6, 5, 4, 3]) == {
        "type": "reroll", "pair": "both", "values": [6, 5, 4, 3],
    }  # fmt: skip


# -- every request checked at intake -----------------------------------------------------------
def test_the_page_draws_the_board_escapes_and_has_its_policy(
    app: tuple[SeatApp, Seat, Sent, str],
) -> None:
    web, seat, _, token = app
    seat.note = '<script>alert("x")</script>'
    status, headers, text = _call(web, f"/seat/{token}")
    assert status == 200
    assert "form-action 'self'" in headers["Content-Security-Policy"]
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Cache-Control"] == "no-store"
    assert 'class="board" data-game="double-take"' in text
    assert "<script>alert" not in text and "&lt;script&gt;alert" in text
    assert text.count("<script") == 1 and '<script src="/seat.js">' in text
    assert "style=" not in text and "onclick" not in text


@pytest.mark.parametrize(
    ("path", "method", "form", "extra", "status", "words"),
    [
        ("/seat/{bad}", "GET", None, {}, 403, "not valid"),
        ("/seat/{bad}/tap", "POST", {"n": "1", "cell": "e5"}, {}, 403, "not valid"),
        ("/seat/short", "GET", None, {}, 403, "not valid"),
        ("/seat/{token}/tap", "GET", None, {}, 405, "POST"),
        ("/seat/{token}", "POST", {"n": "1"}, {}, 405, "only GET"),
        ("/seat/{token}/tap", "POST", {"n": "1", "cell": "z99"}, {}, 400, "no cell"),
        ("/seat/{token}/tap", "POST", {"n": "1", "cell": "e5", "x": "1"}, {}, 400, "field"),
        ("/seat/{token}/tap", "POST", {"cell": "e5"}, {}, 400, "n is missing"),
        ("/seat/{token}/do", "POST", {"n": "1", "act": "<b>"}, {}, 400, "act"),
        (
            "/seat/{token}/tap", "POST", {"n": "1", "cell": "e5"},
            {"Origin": "http://evil.example"}, 403, "own page",
        ),
        (
            "/seat/{token}/tap", "POST", {"n": "1", "cell": "e5"},
            {"Sec-Fetch-Site": "cross-site"}, 403, "own page",
        ),
        ("/seat/{token}/nothing", "GET", None, {}, 404, "no such page"),
    ],
)  # fmt: skip
def test_a_request_that_is_not_the_pages_is_refused_with_why(
    app: tuple[SeatApp, Seat, Sent, str],
    path: str,
    method: str,
    form: dict[str, str] | None,
    extra: dict[str, str],
    status: int,
    words: str,
) -> None:
    web, seat, sent, token = app
    bad = ("A" if token[0] != "A" else "B") + token[1:]
    before = (seat.version, len(seat.game.history))
    got, _, text = _call(web, path.format(token=token, bad=bad), method, form, headers=extra)
    assert got == status and words in text
    assert not sent and (seat.version, len(seat.game.history)) == before


def test_a_form_too_large_or_not_a_form_is_refused(app: tuple[SeatApp, Seat, Sent, str]) -> None:
    web, _, sent, token = app
    big = b"n=1&cell=" + b"e" * MAX_FORM
    got, _, text = _call(web, f"/seat/{token}/tap", "POST", body=big)
    assert got == 413 and f"at most {MAX_FORM} bytes" in text
    got, _, _ = _call(web, f"/seat/{token}/tap", "POST", body="n=1&cell=é".encode())
    assert got == 400 and not sent


def test_taps_lay_a_move_and_a_stale_page_is_not_guessed_at(
    app: tuple[SeatApp, Seat, Sent, str],
) -> None:
    web, seat, sent, token = app
    game = seat.game
    assert isinstance(game, DoubleTake)
    step = game.legal_steps()[0]
    got, headers, _ = _call(web, f"/seat/{token}/tap", "POST", {"n": "0", "cell": step.frm})
    assert got == 303 and "moved on" in seat.note and seat.draft.frm is None  # drawn at move 0
    for cell in (step.frm, step.to):
        got, headers, _ = _call(web, f"/seat/{token}/tap", "POST", {"n": "1", "cell": cell})
        assert got == 303 and headers["Location"] == f"/seat/{token}"
    fits = [s for s in game.legal_steps() if (s.frm, s.to) == (step.frm, step.to)]
    if len(fits) == 1:
        move = sent[-1][1]
        assert isinstance(move, protocol.Move) and move.action == step.to_dict()
    else:
        assert len(seat.draft.choices) == len(fits)


def test_a_page_waits_for_the_next_change_and_never_holds_every_thread(
    app: tuple[SeatApp, Seat, Sent, str],
) -> None:
    web, seat, _, token = app
    path = f"/seat/{token}/changes"
    answers: list[tuple[int, str]] = []

    def wait() -> None:
        status, _, text = _call_query(web, path, f"v={seat.version}")
        answers.append((status, text))

    threads = [threading.Thread(target=wait) for _ in range(WAITERS)]
    for t in threads:
        t.start()
    end = time.monotonic() + 5
    while web._waiters._value > 0 and time.monotonic() < end:
        time.sleep(0.01)
    status, _, text = _call_query(web, path, f"v={seat.version}")
    assert status == 503 and "ask again" in text  # one more page is told to come back
    assert not answers  # the others wait
    with seat.lock:
        seat.bump()
    for t in threads:
        t.join(5)
    assert answers == [(200, str(seat.version))] * WAITERS


def _call_query(app: SeatApp, path: str, query: str) -> tuple[int, dict[str, str], str]:
    got: dict[str, Any] = {}

    def start_response(status: str, hdrs: list[tuple[str, str]]) -> None:
        got["status"] = int(status.split(maxsplit=1)[0])

    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query}
    out = b"".join(app(environ, start_response))
    return got["status"], {}, out.decode()


def test_every_game_is_offered_and_no_other() -> None:
    assert {mode_of(game) for game in KITS} == {"move", "cell", "tiles", "domino", "letter"}
    with pytest.raises(ValueError, match="chess cannot be played from a browser seat yet"):
        mode_of("chess")


def test_the_command_line_gives_and_revokes_the_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware_bridge.apps.cli import main

    path = tmp_path / "carol.seat-token"
    out = io.StringIO()
    args = ["seat", "--new-link", "--tokens", str(path), "--link-host", "10.0.0.5:8090"]
    assert main(args, out) == 0
    link = out.getvalue().strip()
    assert Tokens(path).valid(link.removeprefix("http://10.0.0.5:8090/seat/"))
    assert main(["seat", "--revoke", "--tokens", str(path)], out) == 0
    assert Tokens(path).current() == ""
    assert main(["seat", "--board-name", "carol"], out) == 2
    assert "give the hosting board with --join HOSTBOARD" in capsys.readouterr().err


def test_crosslet_tiles_are_laid_by_taps_and_the_rules_judge_them(tmp_path: Path) -> None:
    from games.crosslet.actions import PlaceTiles

    seat, sent = _seat("crosslet", moves=[{"type": "pass"}])  # the host's seat passed
    tokens = Tokens(tmp_path / "t")
    token = tokens.issue()
    web = SeatApp(seat, tokens)
    rack = seat_moves.rack(seat)
    assert len(rack) == 7 and seat.my_turn()

    def post(route: str, **form: Any) -> None:
        status, _, _ = _call(web, f"/seat/{token}/{route}", "POST", {"n": "1", **form})
        assert status == 303

    post("tap", cell="H8")
    assert seat.note == "tap a tile of your rack, then the square it goes on"
    post("tile", i="0")
    post("tap", cell="H8")
    assert seat.draft.laid == [("H8", 0)]
    _, _, page = _call(web, f"/seat/{token}")
    assert 'class="laid" disabled' in page  # the tile laid is out of the rack
    post("do", act="play:")
    letter = rack[0]
    blanks = (("H8", "E"),) if letter == "?" else ()
    if letter == "?":
        assert seat.note == "say which letter the blank on H8 stands for"
        post("blank", cell="H8", letter="e", go="1")
        post("do", act="play:")
    reason = seat.game.judge(PlaceTiles((("H8", letter),), blanks)).reason
    assert reason and seat.note == reason and not sent  # one tile is no word
    post("tap", cell="H8")  # the tile back to the rack
    assert seat.draft.laid == []
    post("exchange", x=["0", "2"], go="1")
    move = sent[-1][1]
    assert isinstance(move, protocol.Move)
    assert move.action == {"type": "exchange", "letters": [rack[0], rack[2]]}
