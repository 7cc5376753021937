"""The diag view: a :class:`~firmware_bridge.apps.diag.Bench` drawn with rich for a terminal.

The board as a grid (``·`` empty, ``■`` occupied, a tag by its enrolled name, ``?``
and its id when not enrolled; the cells that just changed in reverse), the
station's buttons with their presses, the link's counters and the last events.
"""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from hardware.board import OCCUPIED

from ..kits import KITS
from ..spectate.geometry import positions
from .diag import BUZZER_BUTTON, LED_BUTTON, PATTERN_BUTTON, Bench, cross_reads

CELL_WIDTH = 4
_ROW_COL = re.compile(r"^r(\d+)c(\d+)$")
_LETTERS_NUMBER = re.compile(r"^([A-Za-z]+)(\d+)$")

KEYS = "keys: o OLED test pattern · b buzzer test · l LED chase · q quit"
KEYS_SIM = "keys: 1-5 press a station button (shift: hold) · o pattern · b buzzer · l LEDs · q quit"


def cell_text(bench: Bench, cell: str) -> str:
    """What one cell of the grid shows, at most :data:`CELL_WIDTH` characters."""
    value = bench.observation.get(cell)
    if value is None:
        return "·"
    if value == OCCUPIED:
        return "■"
    name = bench.labels(value)
    return (name if name else "?" + value[-3:])[:CELL_WIDTH]


def board_positions(bench: Bench) -> dict[str, tuple[int, int]]:
    """Where each cell is drawn: as the spectators' page draws it, so a Double Take
    board has rank 1 at the bottom, as red sits and as the OLED's map shows it."""
    pos = positions(bench.profile.cells)
    if any(KITS[g].board.upside_down for g in bench.profile.games if g in KITS):
        bottom = max(y for _, y in pos.values())
        pos = {c: (x, bottom - y) for c, (x, y) in pos.items()}
    return pos


def _axes(pos: dict[str, tuple[int, int]]) -> tuple[dict[int, str], dict[int, str]]:
    """Column and row headings from the cells' names (``H`` and ``8`` of ``H8``)."""
    cols: dict[int, str] = {}
    rows: dict[int, str] = {}
    for cell, (x, y) in pos.items():
        m = _ROW_COL.match(cell)
        if m:
            rows.setdefault(y, f"r{m.group(1)}")
            cols.setdefault(x, f"c{m.group(2)}")
            continue
        m = _LETTERS_NUMBER.match(cell)
        if m:
            cols.setdefault(x, m.group(1))
            rows.setdefault(y, m.group(2))
            continue
        rows.setdefault(y, cell)
    return cols, rows


def grid(bench: Bench) -> Table:
    """The board, one column per cell column, headed by the cells' names."""
    pos = board_positions(bench)
    cols, rows = _axes(pos)
    width = max(x for x, _ in pos.values()) + 1
    height = max(y for _, y in pos.values()) + 1
    table = Table(box=None, padding=(0, 1), collapse_padding=True, show_edge=False, pad_edge=False)
    table.add_column("", justify="right", no_wrap=True)
    for x in range(width):
        table.add_column(cols.get(x, str(x)), justify="center", width=CELL_WIDTH, no_wrap=True)
    at = {p: c for c, p in pos.items()}
    for y in range(height):
        row: list[RenderableType] = [Text(rows.get(y, str(y)), style="dim")]
        for x in range(width):
            cell = at.get((x, y))
            if cell is None:
                row.append(Text(""))
                continue
            style = (
                "reverse"
                if cell in bench.recent
                else ("bold" if cell in bench.observation else "dim")
            )
            row.append(Text(cell_text(bench, cell), style=style))
        table.add_row(*row)
    return table


def buttons(bench: Bench) -> Table:
    table = Table(title="buttons", title_justify="left", box=None, padding=(0, 1))
    for heading in ("button", "pin", "short", "long"):
        table.add_column(heading, justify="left" if heading == "button" else "right")
    pins = bench.profile.buttons.pins
    for name, counts in bench.presses.items():
        style = "reverse" if name == bench.last_button else ""
        pin = pins.get(name)
        table.add_row(
            Text(name, style=style),
            f"GPIO{pin}" if pin is not None else "-",
            str(counts.short),
            str(counts.long),
        )
    return table


def link(bench: Bench) -> Table:
    table = Table(title="link", title_justify="left", box=None, padding=(0, 1), show_header=False)
    table.add_column("what")
    table.add_column("count", justify="right")
    counters = bench.link()
    if counters is None:
        table.add_row("sensors", "GPIO: no link")
        return table
    rows = [
        ("connected", "yes" if counters.connected else "no"),
        ("frames good", str(counters.frames)),
        ("frames bad", str(counters.bad_frames)),
        ("events lost", str(counters.lost_events)),
        ("duplicates", str(counters.duplicates)),
        ("refused", str(counters.refused)),
        ("board restarts", str(counters.restarts)),
        ("reconnects", str(counters.reconnects)),
        ("copy whole", "yes" if counters.whole else "no"),
    ]
    if counters.sweep_ms is not None:
        rows.append(("sweep", f"{counters.sweep_ms} ms"))
        rows.append(("longest pass", f"{counters.loop_ms} ms"))
    rows += [(line.split(": ", 1)[0], line.split(": ", 1)[1]) for line in counters.readers]
    for what, count in rows:
        table.add_row(what, count)
    share = getattr(bench.lights, "share", None)
    if bench.chase.chain and share is not None:
        table.add_row("LED budget", f"{share}% lit")
    led_error = getattr(bench.board, "led_error", None)
    if led_error:
        table.add_row(Text(f"LED chain: {led_error}"[:40], style="bold red"), "error")
    for tag, cells in sorted(cross_reads(bench.observation).items()):
        table.add_row(Text(f"tag {tag} on {', '.join(cells)}", style="bold red"), "cross-read")
    for reason, times in sorted(counters.bad_reasons.items()):
        table.add_row(Text(f"  {reason}"[:40], style="dim"), str(times))
    return table


def render(bench: Bench, *, keys: str = KEYS) -> RenderableType:
    """The whole view, top to bottom."""
    profile = bench.profile
    used = len(bench.observation)
    head = Text.assemble((f"tabletop diag: {profile.name}", "bold"), f" ({bench.board_kind})")
    status = Text(bench.status, style="green" if bench.connected else "yellow")
    changed = ", ".join(sorted(bench.recent, key=profile.cells.index)) or "-"
    counts = Text(
        f"{used} of {len(profile.cells)} cells in use; last change: {changed}; "
        f"OLED: {bench.oled_mode}"
    )
    side = Table.grid(padding=(0, 3))
    side.add_row(buttons(bench), link(bench))
    log = Text("\n".join(bench.log) if bench.log else "(nothing yet)")
    station = (
        f"station: hold {PATTERN_BUTTON} for the OLED test pattern, "
        f"hold {BUZZER_BUTTON} for the next buzzer sound, hold {LED_BUTTON} for the LED chase"
    )
    leds = Text(bench.chase.text())
    parts: list[RenderableType] = [head, status, counts, grid(bench), leds, side]
    parts += [Text("events", style="bold"), log, Text(station, style="dim")]
    if keys:
        parts.append(Text(keys, style="dim"))
    return Group(*parts)
