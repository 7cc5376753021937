"""The page of a browser seat: the board as the spectators see it, the seat's own rack,
and what the player may do now, as forms; a tap on the board is a form too.

Everything shown is escaped; the page's only script is ``/seat.js`` and its only
style sheet ``/seat.css`` (the policy allows nothing inline). The script sends a tap
on the board as the cell tapped, and draws the page again when the game changes: it
fetches the page and puts its body in place (scripts in it are inert), so a server
that is away meanwhile leaves the page as it was, never a browser's error page.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from msgspec import Struct

from .page import STYLE

SEAT_STYLE = (
    STYLE
    + """
#board{cursor:pointer;touch-action:manipulation}
#board .legend svg{width:1.6em;height:1.1em}
.you{font-size:1.1em}.status{font-weight:bold}
.note{color:#b00020;font-weight:bold}
.rack button,.dice button{font:bold 1.3em monospace;min-width:2.2em;min-height:2.2em;margin:.15em}
.rack button.picked,.dice button.picked{background:#ffd54f}
.rack button.laid{opacity:.35}
.actions button{font-size:1.05em;margin:.2em;padding:.4em .8em}
form{display:inline}
"""
)

SEAT_SCRIPT = """"use strict";
const pause=ms=>new Promise(ok=>setTimeout(ok,ms));
document.addEventListener('click',e=>{
const board=document.getElementById('board'),tap=document.getElementById('tap');
if(!board||!tap||!board.contains(e.target))return;
for(const el of document.elementsFromPoint(e.clientX,e.clientY)){
if(el.classList&&el.classList.contains('cell')&&el.dataset.cell){
tap.elements.cell.value=el.dataset.cell;tap.submit();return;}}});
async function redraw(){const r=await fetch(location.href,{cache:'no-store'});
if(!(r.ok||r.status===403))return false;
const doc=new DOMParser().parseFromString(await r.text(),'text/html');
doc.querySelectorAll('script').forEach(el=>el.remove());
document.title=doc.title;document.body.replaceChildren(...doc.body.childNodes);
document.body.dataset.version=doc.body.dataset.version||'';return r.ok;}
async function watch(){for(;;){try{const b=document.body;
const r=await fetch(b.dataset.base+'/changes?v='+b.dataset.version,{cache:'no-store'});
if(r.status===403){await redraw();return;}
if(!r.ok){await pause(2000);continue;}
const v=(await r.text()).trim();
if(v!==b.dataset.version&&!(await redraw()))await pause(2000);
}catch(e){await pause(2000);}}}
watch();
"""


class Offer(Struct, frozen=True):
    """A button: what it does (``act``, ``value``) and what it says."""

    act: str
    value: str
    label: str


class SeatView(Struct, frozen=True):
    """What the seat's page shows besides the spectators' parts."""

    base: str
    """The page's own path (``/seat/<token>``): every form posts under it."""
    version: int
    played: int
    """Moves played: a form of a page drawn at another move is refused as stale."""
    you: str
    status: str
    note: str = ""
    mine: bool = False
    """Whether the player is to move now."""
    rack: Sequence[tuple[int, str, str]] = ()
    """The seat's rack: index, letter, and ``picked``, ``laid`` or ''."""
    exchange: bool = False
    """Whether the rack's tiles may be exchanged (a form with a box for each)."""
    blanks: Sequence[str] = ()
    """Cells of laid blanks still to be given a letter."""
    dice: Sequence[tuple[int, int, bool]] = ()
    """The seat's battle dice that may be kept: index, face, picked."""
    offers: Sequence[Offer] = ()


def _form(base: str, path: str, played: int, inner: str) -> str:
    return (
        f'<form method="post" action="{escape(base)}/{path}">'
        f'<input type="hidden" name="n" value="{played}">{inner}</form>'
    )


def _button(name: str, value: str, label: str, cls: str = "") -> str:
    klass = f' class="{escape(cls)}"' if cls else ""
    return (
        f'<button type="submit" name="{escape(name)}" value="{escape(value)}"{klass}>'
        f"{escape(label)}</button>"
    )


def controls_html(seat: SeatView) -> str:
    """The seat's rack, dice and buttons, each a form posting to the seat."""
    out = [
        f'<p class="you">{escape(seat.you)}</p>',
        f'<p class="status" data-mine="{"yes" if seat.mine else "no"}">{escape(seat.status)}</p>',
    ]
    if seat.note:
        out.append(f'<p class="note" role="alert">{escape(seat.note)}</p>')
    if seat.rack:
        tiles = "".join(
            _button("i", str(i), letter, state) if state != "laid" else
            f'<button type="button" class="laid" disabled>{escape(letter)}</button>'
            for i, letter, state in seat.rack
        )  # fmt: skip
        form = _form(seat.base, "tile", seat.played, tiles)
        out.append(f'<div class="rack" aria-label="your rack">{form}</div>')
    for cell in seat.blanks:
        inner = (
            f'<input type="hidden" name="cell" value="{escape(cell)}">'
            f"<label>The blank on {escape(cell)} stands for "
            f'<input name="letter" maxlength="1" size="2" pattern="[A-Za-z]" required></label>'
            + _button("go", "1", "Set")
        )
        form = _form(seat.base, "blank", seat.played, inner)
        out.append(f'<div class="blank">{form}</div>')
    if seat.dice:
        dice = "".join(
            _button("i", str(i), str(face), "picked" if picked else "")
            for i, face, picked in seat.dice
        )
        out.append(
            f'<div class="dice">Dice to keep: {_form(seat.base, "keep", seat.played, dice)}</div>'
        )
    if seat.offers:
        buttons = "".join(_button("act", f"{o.act}:{o.value}", o.label) for o in seat.offers)
        out.append(f'<div class="actions">{_form(seat.base, "do", seat.played, buttons)}</div>')
    if seat.exchange and seat.rack:
        boxes = "".join(
            f'<label><input type="checkbox" name="x" value="{i}"> {escape(letter)}</label> '
            for i, letter, state in seat.rack
            if state != "laid"
        )
        inner = boxes + _button("go", "1", "Exchange the ticked tiles")
        form = _form(seat.base, "exchange", seat.played, inner)
        out.append(f'<div class="exchange">{form}</div>')
    return "".join(out)


def seat_page(title: str, seat: SeatView, board: str, panel: str, moves: str) -> str:
    """The whole page: ``board``, ``panel`` and ``moves`` are the spectators' parts."""
    tap = _form(
        seat.base, "tap", seat.played, '<input type="hidden" name="cell" value="">'
    ).replace("<form ", '<form id="tap" ', 1)
    body = (
        f'<div class="view"><div id="board">{board}</div><div>'
        f'<div id="seat">{controls_html(seat)}</div>{tap}'
        f'<div id="panel">{panel}</div><h2>Moves</h2><div id="moves">{moves}</div></div></div>'
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="/seat.css"></head>'
        f'<body data-base="{escape(seat.base)}" data-version="{seat.version}">{body}'
        '<script src="/seat.js"></script></body></html>'
    )


def refusal_page(text: str) -> str:
    """A page that says, in one line, why the request was not taken."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>tabletop seat</title><link rel="stylesheet" href="/seat.css"></head>'
        f'<body><p class="note">{escape(text)}</p></body></html>'
    )
