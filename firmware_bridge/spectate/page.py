"""The spectators' HTML: one board's page, the hub's grid, and the parts that change.

Pages are rendered whole on the server so a late visitor sees the game at once;
afterwards server-sent events carry new HTML for the parts that changed, and a
dozen lines of JavaScript put them in place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from ..screen.palette import COLOURS, Colour
from .geometry import Geometry
from .style import NAMED_COLOURS, NO_OWNER, PALETTE, hex_colour, seat_colour
from .svg import board_svg, lit

SEAT_COLOURS = sorted({*NAMED_COLOURS.values(), *PALETTE, NO_OWNER})
"""Every colour a seat's swatch can have (``style.seat_colour``), each a class."""

STYLE = """
body{font-family:sans-serif;margin:1em;background:#faf7f0;color:#222}
.view{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
#board{max-width:min(92vw,560px)}
#board svg{width:100%;height:auto}
#panel{min-width:16em;max-width:28em}
table.scores td{padding:.1em .6em}
.swatch{display:inline-block;width:.9em;height:.9em;border-radius:50%;vertical-align:middle}
.turn{font-weight:bold}
.result{font-size:1.2em;font-weight:bold;color:#0b6623}
.error{color:#b00020}
.fixes li{color:#c55a00}
.oled{font-family:monospace;background:#111;color:#8ef;padding:.4em;white-space:pre}
#moves{max-height:24em;overflow-y:auto;font-size:.9em}
#grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,260px),1fr));gap:1em}
.card{border:1px solid #ccc;border-radius:6px;padding:.4em;background:#fff}
.legend{font-size:.85em;color:#444}.legend span{display:inline-block;margin-right:1em}
.legend b{display:inline-block;min-width:1.6em;text-align:center;border-radius:3px;padding:0 .2em}
@media (max-width:480px){body{margin:.5em}#panel{min-width:0;max-width:none}}
.card a{color:inherit;text-decoration:none}
.card svg{width:100%;height:auto}
.card h3{margin:.1em 0;font-size:1em}
.card p{margin:.1em 0;font-size:.85em}
.lights{font-size:.85em;color:#444}.lights span{display:block}
.lights b{display:inline-block;width:.9em;height:.9em;border-radius:2px;vertical-align:middle;
border:1px solid #a08660;margin-right:.3em}
.legend svg{width:1.6em;height:1.1em;vertical-align:middle}
"""
STYLE += "".join(f".led-{c.name}{{background:{hex_colour(c.rgb)}}}" for c in COLOURS.values())
STYLE += "".join(f".seat-{colour[1:]}{{background:{colour}}}" for colour in SEAT_COLOURS)
"""The pages' style sheet, served as a file (``/app.css``): the pages' policy allows no
inline style, so markup a board slipped into a page could not restyle it."""

SCRIPT = """"use strict";
const UNSAFE='script,style,link,meta,base,iframe,frame,object,embed,form,template';
function inert(html){const t=document.createElement('template');t.innerHTML=html;
t.content.querySelectorAll(UNSAFE).forEach(e=>e.remove());return t.content;}
function apply(parts){for(const[id,html]of Object.entries(parts)){
let el=document.getElementById(id);
if(!el){el=document.createElement('div');el.id=id;el.className='card';
document.getElementById('grid').appendChild(el);}
el.replaceChildren(inert(html));}}
const es=new EventSource(document.body.dataset.events);
es.onmessage=e=>{const d=JSON.parse(e.data);apply(d.parts);
document.body.dataset.version=d.version;};
"""


def seat_label(view: Mapping[str, Any], seat: str) -> str:
    """A seat as the pages name it: ``"green"``, or ``"green: computer (expert)"`` for a
    seat the computer plays."""
    level = (view.get("computer") or {}).get(seat)
    return f"{seat}: computer ({level})" if level else seat


def _scores(view: Mapping[str, Any]) -> str:
    seats: list[str] = view["seats"]
    rows = []
    for i, seat in enumerate(seats):
        score = view["scores"].get(seat, "")
        mark = " ◀" if view.get("turn") == seat else ""
        rows.append(
            f'<tr data-seat="{escape(seat)}"><td><span class="swatch '
            f'seat-{seat_colour(seats, i)[1:]}"></span> {escape(seat_label(view, seat))}</td>'
            f'<td class="score">{escape(str(score))}</td><td>{mark}</td></tr>'
        )
    return f'<table class="scores">{"".join(rows)}</table>'


def _points(points: Mapping[str, int]) -> str:
    shown = [f"{k} {v:+d}" for k, v in points.items() if v]
    return f" ({', '.join(shown)})" if shown else ""


PHASES = {
    "draw": "draws a domino",
    "play": "lays a domino",
    "chain": "lays beside the double, or ends the turn",
    "discard": "puts a domino in the pit",
    "count": "the tied hands are counted",
    "roll": "rolls the dice",
    "reroll-or-act": "places a ball, fights, or re-rolls",
    "place": "places a ball",
    "battle": "a battle is fought",
}
"""What a game's phase means for the player to move, in words."""
COUNTS = (("bag", "Bag: {} tiles left"), ("boneyard", "Boneyard: {} dominoes left"),
          ("pit", "Pit: {} dominoes"))  # fmt: skip


def _extras(extra: Mapping[str, Any]) -> str:
    words = [text.format(extra[key]) for key, text in COUNTS if isinstance(extra.get(key), int)]
    dice = extra.get("dice")
    if isinstance(dice, dict):
        words.append("Dice: " + ", ".join(f"{k} {'+'.join(map(str, v))}" for k, v in dice.items()))
    racks = extra.get("racks")
    if isinstance(racks, dict):
        # Crosslet's racks are open: everyone can see every rack (docs/rules.md).
        words += [f"{seat}'s rack: {' '.join(map(str, rack))}" for seat, rack in racks.items()]
    return "".join(f'<p class="extra">{escape(w)}</p>' for w in words)


def legend_html(geo: Geometry | None) -> str:
    """What the marks on the board's special spaces mean."""
    if geo is None:
        return ""
    seen: dict[tuple[str, str], str] = {}
    for space in geo.get("special", {}).values():
        if space.get("name") and space.get("text"):
            seen.setdefault((space["text"], space["name"]), space.get("fill", ""))
    # Each key drawn in SVG, its colour an attribute: the policy allows no inline style.
    items = "".join(
        f'<span><svg viewBox="0 0 24 16" role="img"><rect width="24" height="16" rx="3" '
        f'fill="{escape(fill)}"/><text x="12" y="8.5" font-size="9" font-weight="bold" '
        f'text-anchor="middle" dominant-baseline="middle" font-family="sans-serif">'
        f"{escape(text)}</text></svg> {escape(name)}</span>"
        for (text, name), fill in sorted(seen.items(), key=lambda kv: kv[0][1])
    )
    return f'<p class="legend">{items}</p>' if items else ""


def lights_html(lights: Mapping[str, Colour]) -> str:
    """The colours lit now, in the palette's order: a swatch, the name, what it means."""
    shown = {c.name for c in lights.values()}
    items = "".join(
        f'<span data-led="{escape(c.name)}"><b class="led-{escape(c.name)}"></b>'
        f"{escape(c.name)}: {escape(c.meaning)}</span>"
        for c in COLOURS.values()
        if c.name in shown
    )
    return f'<p class="lights">Lit now:{items}</p>' if items else ""


def panel_html(view: Mapping[str, Any] | None, error: str | None = None) -> str:
    """Whose turn, the scores, the last move, the fixes waited for, the OLED, the result."""
    out = []
    if error:
        out.append(f'<p class="error">{escape(error)}</p>')
    if view is None:
        out.append('<p class="waiting">No game to show yet.</p>')
        return "".join(out)
    name = f" — {view['board']}" if view.get("board") else ""
    out.append(f"<h1>{escape(view['title'] + name)}</h1>")
    if view.get("result"):
        out.append(f'<p class="result">{escape(view["result"])}</p>')
    elif view.get("turn"):
        phase = PHASES.get(str(view.get("extra", {}).get("phase")))
        doing = f": {phase}" if phase else ""
        out.append(
            f'<p class="turn">{escape(str(view["turn"]).capitalize())} to move{escape(doing)}</p>'
        )
    if view.get("connected") is False:
        out.append('<p class="error">The board is offline (its sensor cable).</p>')
    out.append(_scores(view))
    out.append(_extras(view.get("extra", {})))
    move = view.get("move")
    if move:
        out.append(
            f'<p class="last">Last move ({view["moves_played"]}): {escape(str(move["player"]))} '
            f"{escape(str(move['text']))}{escape(_points(move.get('points', {})))}</p>"
        )
    fixes = view.get("fixes") or []
    if fixes:
        items = "".join(f"<li>{escape(str(f.get('text', '')))}</li>" for f in fixes)
        out.append(f'<div class="fixes">The board waits for:<ul>{items}</ul></div>')
    oled = view.get("oled") or []
    if oled:
        out.append(f'<div class="oled">{escape(chr(10).join(map(str, oled)))}</div>')
    return "".join(out)


def moves_html(moves: Sequence[Mapping[str, Any]]) -> str:
    items = "".join(
        f'<li value="{m["n"]}">{escape(str(m["player"]))} {escape(str(m["text"]))}'
        f"{escape(_points(m.get('points', {})))}</li>"
        for m in moves
    )
    return f"<ol>{items}</ol>"


def touched(view: Mapping[str, Any], geo: Geometry) -> list[str]:
    """The cells the last move named."""
    move = view.get("move") or {}
    cells = geo["cells"]
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if value in cells:
                found.append(value)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    walk(move.get("action"))
    return found


def board_part(view: Mapping[str, Any] | None, geo: Geometry | None) -> str:
    if view is None or geo is None:
        return ""
    leds = view.get("leds")
    return (
        board_svg(
            geo,
            view["layout"],
            view["seats"],
            view.get("extra"),
            view.get("fixes") or (),
            touched(view, geo),
            leds,
            view.get("computer") or {},
        )
        + lights_html(lit(geo["cells"], leds))
        + legend_html(geo)
    )


def parts(
    view: Mapping[str, Any] | None,
    geo: Geometry | None,
    moves: Sequence[Mapping[str, Any]],
    error: str | None = None,
) -> dict[str, str]:
    """The ids of one board's page and their HTML now."""
    return {
        "board": board_part(view, geo),
        "panel": panel_html(view, error),
        "moves": moves_html(moves),
    }


def _document(title: str, events: str, body: str) -> str:
    # The script is served as a file (``/app.js``), never inline: the pages' policy
    # (``wsgi.SECURITY_HEADERS``) forbids inline script, so markup slipped into a
    # page by a board could not run.
    root = "/" if events.startswith("/") or not events else ""
    script = f'<script src="{root}app.js"></script>' if events else ""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="{root}app.css"></head>'
        f'<body data-events="{escape(events)}" data-version="0">{body}'
        f"{script}</body></html>"
    )


def board_page(title: str, events: str, now: Mapping[str, str], back: str | None = None) -> str:
    """One board's page, showing ``now`` (from ``parts``) until the events say otherwise."""
    link = f'<p><a href="{escape(back)}">All boards</a></p>' if back else ""
    body = (
        f'{link}<div class="view"><div id="board">{now["board"]}</div>'
        f'<div><div id="panel">{now["panel"]}</div><h2>Moves</h2>'
        f'<div id="moves">{now["moves"]}</div></div></div>'
    )
    return _document(title, events, body)


def card_id(name: str) -> str:
    """The id of a board's card: its letters and digits as they are, any other
    character as ``_<hex>_``, so two names never share one card (``t.1``, ``t_1``)."""
    return "card-" + "".join(
        ch if ch.isascii() and (ch.isalnum() or ch == "-") else f"_{ord(ch):x}_" for ch in name
    )


def card_html(
    name: str,
    view: Mapping[str, Any] | None,
    geo: Geometry | None,
    href: str,
    note: str = "waiting…",
) -> str:
    """One board in the hub's grid: name, game, scores, turn, and the board small;
    ``note`` in their place while there is no view."""
    if view is None:
        return f'<a href="{escape(href)}"><h3>{escape(name)}</h3><p>{escape(note)}</p></a>'
    scores = ", ".join(f"{k} {v}" for k, v in view["scores"].items())
    status = view.get("result") or (f"{view['turn']} to move" if view.get("turn") else "")
    computer = view.get("computer") or {}
    svg = (
        board_svg(
            geo,
            view["layout"],
            view["seats"],
            view.get("extra"),
            leds=view.get("leds"),
            computer=computer,
        )
        if geo
        else ""
    )
    if computer:
        who = ", ".join(seat_label(view, seat) for seat in view["seats"] if seat in computer)
        scores += f" · {who}"
    return (
        f'<a href="{escape(href)}"><h3>{escape(name)}</h3>'
        f'<p class="game">{escape(view["title"])} · move {view["moves_played"]}</p>'
        f'<p class="scores">{escape(scores)}</p><p class="status">{escape(status)}</p>'
        f"{svg}</a>"
    )


def hub_page(title: str, events: str, cards: Iterable[tuple[str, str]]) -> str:
    grid = "".join(f'<div class="card" id="{escape(cid)}">{html}</div>' for cid, html in cards)
    body = f'<h1>{escape(title)}</h1><div id="grid">{grid}</div>'
    return _document(title, events, body)


def diagnostics_html(facts: Mapping[str, Any]) -> str:
    """The hub's diagnostics: boards kept, and what was refused from each board name."""
    rows = "".join(
        f"<tr><td>{escape(name)}</td><td>{int(r['refused'])}</td><td>{escape(str(r['last']))}</td></tr>"
        for name, r in facts["by_board"].items()
    )
    body = (
        "<h1>tabletop club: diagnostics</h1>"
        f"<p>{int(facts['messages'])} messages heard; {int(facts['refused'])} refused. "
        f"{int(facts['boards'])} boards kept (at most {int(facts['max_boards'])}); "
        f"{int(facts['dropped'])} idle boards let go to make room.</p>"
        '<table class="refused"><tr><th>board</th><th>refused</th><th>last reason</th></tr>'
        f"{rows}</table>"
    )
    return _document("tabletop club: diagnostics", "", body)
