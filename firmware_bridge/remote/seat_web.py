"""The browser seat's web server: the page, and the requests it answers.

Every request is checked at intake: the token in its path (its shape, then in
constant time), its method, its size (at most :data:`MAX_FORM` bytes of form), its
fields (only those the route takes, each of its kind: a cell of the board, a tile of
the rack, one letter), that it was drawn at the move the game is at (a stale page's
tap is refused, not guessed at), and, for a form, that it came from this page (its
``Origin`` and ``Sec-Fetch-Site``). A form answered is redirected to the page (303).
"""

from __future__ import annotations

import json
import re
import threading
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

from ..spectate.geometry import Geometry, geometry
from ..spectate.page import STYLE, board_part, moves_html, panel_html
from ..spectate.project import view
from ..spectate.seat_page import (
    SEAT_SCRIPT,
    SEAT_STYLE,
    SeatView,
    refusal_page,
    seat_page,
)
from ..spectate.wsgi import Environ, Reply, StartResponse, WebApp, plain
from .browser_seat import Seat
from .seat_moves import (
    NUMBER,
    Refusal,
    battle_dice,
    do,
    exchange,
    mode_of,
    offers,
    pick_tile,
    rack,
    set_blank,
    tap,
    toggle_keep,
)
from .seat_sealed import hidden_json
from .seat_tokens import Tokens

MAX_FORM = 2048
"""Bytes of a form, at most (the largest, an exchange of seven tiles, is under 100)."""
MAX_FIELDS = 16
CHANGES_WAIT_S = 20.0
"""How long a page's request for changes is held open before it is answered 'none'."""
THREADS = 6
WAITERS = THREADS - 2
"""Requests for changes held open at once: two threads are always left for the page and
its forms; a page beyond these is told to ask again in a while (503)."""
LETTER = re.compile(r"^[A-Za-z]$")

SECURITY_HEADERS = (
    # The spectators' policy, but that the page's own forms may post to it.
    (
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self'; frame-src 'none'; child-src 'none'; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    # Not "no-referrer": a browser then sends its forms with "Origin: null", and the
    # origin check could not tell this page's forms from another site's. The link's
    # token never leaves this server all the same.
    ("Referrer-Policy", "same-origin"),
    ("Cache-Control", "no-store"),
)
_REASONS = {
    200: "OK",
    303: "See Other",
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    503: "Service Unavailable",
}


# -- the page ----------------------------------------------------------------------------
def status(seat: Seat) -> str:
    """What the game waits for now, in one line."""
    game = seat.game
    if seat.error:
        return seat.error
    if game.outcome is not None:
        return "The game is over."
    away = "" if seat.host_online else f" {seat.host}'s board is off line: the game waits for it."
    if seat.pending is not None:
        n = seat.pending.number
        return f"Move {n} sent: waiting for {seat.host}'s board to take it.{away}"
    if seat.asked is not None:
        return f"Waiting for the dice from {seat.host}'s board.{away}"
    if seat.my_turn():
        hint = {
            "move": "tap a piece, then where it goes",
            "cell": "tap a spot the dice allow, or choose below",
            "tiles": "tap a tile of your rack, then its square; then play",
            "domino": "tap a domino of your hand, then the two squares it covers",
            "letter": "tap a tile of your rack, then its square",
        }[mode_of(game.name)]
        return f"Your turn ({game.seat_name(game.to_move)}): {hint}.{away}"
    return f"{game.seat_name(game.to_move).capitalize()} to move.{away}"


def page_html(seat: Seat, base: str, geo: Geometry) -> str:
    game = seat.game
    if not seat.ready() and not seat.error:
        return waiting_html(seat, base)
    shown = view(game, 0, seat.moves, None, board=seat.host)
    d = seat.draft
    tiles = rack(seat)
    laid = {i for _, i in d.laid}
    if d.laid:
        layout = dict(shown["layout"])
        owner = game.to_move
        for cell, i in d.laid:
            layout[cell] = {"kind": "tile", "label": tiles[i], "owner": owner, "state": "laid"}
        shown["layout"] = layout
    picked = [d.frm] if d.frm else [c for c, _ in d.laid]
    shown["fixes"] = [{"cell": c, "text": "picked"} for c in picked]
    board = board_part(shown, geo)
    names = " and ".join(seat.seat_names())
    you = f"You play {names} in {seat.host}'s {game.title} game."
    mine = seat.my_turn()
    seat_view = SeatView(
        base=base,
        version=seat.version,
        played=len(game.history),
        you=you,
        status=status(seat),
        note=seat.note,
        mine=mine,
        rack=[
            (i, t, "laid" if i in laid else "picked" if d.tile == i else "")
            for i, t in enumerate(tiles)
        ],
        exchange=mine and bool(tiles) and mode_of(game.name) == "tiles",  # the rules: the bag
        blanks=[c for c, i in d.laid if tiles[i] == "?" and c not in d.blanks],
        dice=battle_dice(seat),
        offers=offers(seat),
    )
    shown_panel = {**shown, "oled": [], "fixes": []}
    return seat_page(
        f"{game.title} — your seat",
        seat_view,
        board,
        panel_html(shown_panel),
        moves_html(seat.moves),
    )


def waiting_html(seat: Seat, base: str) -> str:
    """A game of hidden pieces before the seat's game is the host's (its deal, or a
    move whose view is still to come): no board, the status only."""
    you = f"You play {' and '.join(seat.seat_names())} in {seat.host}'s {seat.game.title} game."
    line = f"Waiting for {seat.host}'s board to deal this seat its pieces."
    if seat.sealed is not None and seat.sealed.dealt:
        line = f"Waiting for {seat.host}'s board to say what this seat sees."
    shown = SeatView(base=base, version=seat.version, played=0, you=you, status=line)
    return seat_page(f"{seat.game.title} — your seat", shown, "", "", "")


def game_json(seat: Seat) -> dict[str, Any]:
    """What the seat knows of the game: the host's table and the moves since; in a game
    of hidden pieces, no seed (it deals every hand) and its own pieces only."""
    t = seat.table
    sealed = seat.sealed is not None
    return {
        "host": seat.host,
        "game": t.game,
        "players": t.players,
        **({} if sealed else {"seed": t.seed}),
        **(hidden_json(seat.game, seat.mine) if sealed and seat.ready() else {}),
        "options": t.options,
        "seats": sorted(seat.mine),
        "moves": [m["action"] for m in seat.moves],
        "to_move": seat.game.to_move,
        "mine": seat.my_turn(),
        "over": seat.game.outcome is not None,
        "pending": seat.pending is not None or seat.asked is not None,
        "version": seat.version,
        "note": seat.note,
    }


# -- the requests --------------------------------------------------------------------------
FORMS: dict[str, tuple[str, ...]] = {
    "tap": ("cell",),
    "tile": ("i",),
    "blank": ("cell", "letter", "go"),
    "keep": ("i",),
    "do": ("act",),
    "exchange": ("x", "go"),
}
"""Each form and the fields it may carry (besides ``n``, the moves its page was drawn at)."""


def read_form(environ: Environ, allowed: tuple[str, ...]) -> dict[str, list[str]]:
    """The form's fields, checked: its size, its encoding, its names."""
    kind = environ.get("CONTENT_TYPE", "").split(";")[0].strip()
    if kind != "application/x-www-form-urlencoded":
        raise Refusal(400, "send the page's own form (application/x-www-form-urlencoded)")
    length_text = environ.get("CONTENT_LENGTH") or "0"
    if not length_text.isdigit() or int(length_text) > MAX_FORM:
        raise Refusal(413, f"a form is at most {MAX_FORM} bytes")
    body = environ["wsgi.input"].read(int(length_text))
    try:
        text = body.decode("ascii")
        fields = urllib.parse.parse_qs(
            text, keep_blank_values=True, strict_parsing=bool(text), max_num_fields=MAX_FIELDS
        )
    except (UnicodeDecodeError, ValueError):
        raise Refusal(400, "the form is not one this page sends") from None
    unknown = set(fields) - {"n", *allowed}
    if unknown:
        raise Refusal(400, f"the form has a field {sorted(unknown)[0][:20]!r} it does not take")
    return fields


def one(fields: Mapping[str, list[str]], name: str, pattern: re.Pattern[str]) -> str:
    values = fields.get(name, [])
    if len(values) != 1 or not pattern.match(values[0]):
        raise Refusal(400, f"the form's {name} is missing or not of its kind")
    return values[0]


def handle_form(seat: Seat, route: str, fields: Mapping[str, list[str]]) -> None:
    """One form, under the seat's lock."""
    if int(one(fields, "n", NUMBER)) != len(seat.game.history):
        seat.say("the game moved on since this page was drawn: look again and choose")
        return
    if route == "tap":
        cell = fields.get("cell", [""])[0]
        if len(fields.get("cell", [])) != 1 or cell not in seat.game.cells():
            raise Refusal(400, "the tap names no cell of this board")
        tap(seat, cell)
    elif route == "tile":
        pick_tile(seat, int(one(fields, "i", NUMBER)))
    elif route == "keep":
        toggle_keep(seat, int(one(fields, "i", NUMBER)))
    elif route == "blank":
        cell = fields.get("cell", [""])[0]
        if cell not in seat.game.cells():
            raise Refusal(400, "the form names no cell of this board")
        set_blank(seat, cell, one(fields, "letter", LETTER))
    elif route == "do":
        act = one(fields, "act", re.compile(r"^[a-z-]{1,20}:[a-z0-9]{0,8}$"))
        do(seat, act)
    elif route == "exchange":
        xs = fields.get("x", [])
        if not all(NUMBER.match(x) for x in xs):
            raise Refusal(400, "the form's tiles are not tiles of the rack")
        exchange(seat, [int(x) for x in xs])


class SeatApp(WebApp):
    """The seat's pages: ``/seat/<token>``, its forms and ``changes``, ``game.json``."""

    PATH = re.compile(r"^/seat/([^/]{1,64})(?:/([a-z.]{1,16}))?$")

    def __init__(
        self,
        seat: Seat,
        tokens: Tokens,
        on_start: list[Callable[[], None]] | None = None,
        on_stop: list[Callable[[], None]] | None = None,
    ) -> None:
        super().__init__([], THREADS, on_start or [], on_stop or [])
        self.seat = seat
        self.tokens = tokens
        self._geo: tuple[str, Geometry] | None = None
        self._waiters = threading.BoundedSemaphore(WAITERS)

    def geometry(self) -> Geometry:
        key = self.seat.game_key
        if self._geo is None or self._geo[0] != key:
            self._geo = (key, geometry(self.seat.game))
        return self._geo[1]

    def __call__(self, environ: Environ, start_response: StartResponse) -> Any:
        try:
            reply = self.reply(environ)
        except Refusal as refused:
            reply = Reply(
                refused.status,
                refusal_page(refused.text).encode(),
                [("Content-Type", "text/html; charset=utf-8")],
            )
        headers = [*reply.headers, *SECURITY_HEADERS]
        body = reply.body if isinstance(reply.body, bytes) else b"".join(reply.body)
        headers.append(("Content-Length", str(len(body))))
        start_response(f"{reply.status} {_REASONS.get(reply.status, '')}".strip(), headers)
        return [] if environ.get("REQUEST_METHOD") == "HEAD" else [body]

    def reply(self, environ: Environ) -> Reply:
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "")
        if path in ("/seat.js", "/seat.css", "/app.css"):
            if method not in ("GET", "HEAD"):
                raise Refusal(405, "only GET here")
            if path == "/seat.js":
                return Reply(200, SEAT_SCRIPT.encode(), [("Content-Type", "text/javascript")])
            style = SEAT_STYLE if path == "/seat.css" else STYLE
            return Reply(200, style.encode(), [("Content-Type", "text/css; charset=utf-8")])
        found = self.PATH.match(path)
        if found is None:
            raise Refusal(404, "there is no such page: open the link the host gave you")
        token, route = found.group(1), found.group(2) or ""
        if not self.tokens.valid(token):
            raise Refusal(
                403,
                "this seat's link is not valid (revoked, or mistyped): ask the host for a new one",
            )
        base = f"/seat/{token}"
        if route in FORMS:
            if method != "POST":
                raise Refusal(405, "a tap is sent by the page's form (POST)")
            self._same_origin(environ)
            fields = read_form(environ, FORMS[route])
            with self.seat.lock:
                handle_form(self.seat, route, fields)
            return Reply(303, b"", [("Location", base)])
        if method not in ("GET", "HEAD"):
            raise Refusal(405, "only GET here")
        if route == "":
            with self.seat.lock:
                text = page_html(self.seat, base, self.geometry())
            return Reply(200, text.encode(), [("Content-Type", "text/html; charset=utf-8")])
        if route == "changes":
            query = urllib.parse.parse_qs(environ.get("QUERY_STRING", ""), max_num_fields=2)
            seen = query.get("v", [""])[0]
            if not self._waiters.acquire(blocking=False):
                return plain("too many pages wait for this seat's changes: ask again", 503)
            try:
                with self.seat.changed:
                    if (
                        seen.isdigit()
                        and int(seen) == self.seat.version
                        and not self.stopping.is_set()
                    ):
                        self.seat.changed.wait(CHANGES_WAIT_S)
                    now = self.seat.version
            finally:
                self._waiters.release()
            return plain(str(now), 200)
        if route == "game.json":
            with self.seat.lock:
                data = game_json(self.seat)
            return Reply(200, json.dumps(data).encode(), [("Content-Type", "application/json")])
        raise Refusal(404, "there is no such page: open the link the host gave you")

    def _same_origin(self, environ: Environ) -> None:
        site = environ.get("HTTP_SEC_FETCH_SITE")
        if site is not None and site not in ("same-origin", "none"):
            raise Refusal(403, "a seat's form is taken only from its own page")
        origin = environ.get("HTTP_ORIGIN")
        if origin is not None:
            scheme = environ.get("wsgi.url_scheme", "http")
            if origin != f"{scheme}://{environ.get('HTTP_HOST', '')}":
                raise Refusal(403, "a seat's form is taken only from its own page")

    def stop(self) -> None:
        super().stop()
        with self.seat.changed:
            self.seat.changed.notify_all()  # the pages' waits end
