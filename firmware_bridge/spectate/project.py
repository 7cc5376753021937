"""Projections of a followed game: the ``--json`` state, the view, one move's record.

Pure functions of a game, its journal facts and the daemon's live state; what
the web page, ``/state.json`` and the MQTT messages carry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import Game

from ..kits import KITS
from ..runtime.session_state import TableState

EXTRA_KEYS = (
    "phase",
    "dice",
    "target",
    "bag",
    "boneyard",
    "pit",
    "hand_sizes",
    "rack_sizes",
    "pieces_left",
    "balls_left",
    "battle",
    "rows",
)
"""Facts of a game's ``state_dict`` a spectator may see (racks and hands stay hidden)."""


def describe(action: Mapping[str, Any]) -> str:
    """A short text for an action's dict, when the referee's own words are not known."""
    kind = str(action.get("type", "?"))
    if "frm" in action and "to" in action:
        text = f"{action['frm']}-{action['to']}"
        caps = action.get("captures")
        return text + (" x" + ",".join(map(str, caps)) if caps else "")
    parts = [kind]
    for key, value in action.items():
        if key == "type" or value in (None, "", [], {}):
            continue
        parts.append(_words(value))
    return " ".join(parts)


def _words(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(
            _words(v) if not isinstance(v, list | tuple) else "".join(map(str, v)) for v in value
        )
    if isinstance(value, dict):
        return ",".join(f"{k}={_words(v)}" for k, v in value.items())
    return str(value)


def seat_names(game: Game) -> list[str]:
    return [game.seat_name(p) for p in range(game.players)]


def scores(game: Game) -> dict[str, int]:
    return {game.seat_name(p): s for p, s in enumerate(game.scores())}


def result_text(game: Game) -> str | None:
    """Who won and why, or None while the game goes on."""
    outcome = game.outcome
    if outcome is None:
        return None
    if outcome.draw:
        return f"Draw: {outcome.reason}"
    names = " and ".join(game.seat_name(p) for p in outcome.winners)
    verb = "wins" if len(outcome.winners) == 1 else "win"
    return f"{names.capitalize()} {verb}: {outcome.reason}"


OPEN_RACKS = tuple(name for name, kit in KITS.items() if kit.open_racks)
"""Games whose racks every player sees (docs/rules.md), and so every spectator."""


def extra(game: Game) -> dict[str, Any]:
    full = game.state_dict()
    out = {k: full[k] for k in EXTRA_KEYS if k in full}
    racks = full.get("racks")
    if game.name in OPEN_RACKS and isinstance(racks, list):
        out["racks"] = {game.seat_name(p): list(rack) for p, rack in enumerate(racks)}
    return out


def state(
    game: Game,
    moves: Sequence[Mapping[str, Any]],
    live: Mapping[str, Any] | None,
    lit: Callable[[], Mapping[str, str]] | None = None,
) -> dict[str, Any]:
    """The ``--json`` projection: the live file's when it is current, else the journal's,
    with the lights ``lit`` gives (``lights.position_lights``; asked only then)."""
    played = len(game.history)
    if live is not None and live.get("moves_played") == played:
        return {k: v for k, v in live.items() if k != "t"}
    last = moves[-1] if moves else None
    move = None if last is None else {k: last[k] for k in ("player", "action", "text", "points")}
    leds = dict(lit()) if lit is not None else {}
    state = TableState.of(
        game, oled=[], fixes=[], verdict=None, move=move, connected=None, leds=leds
    )
    return state.to_json()


def view(
    game: Game,
    game_id: int,
    moves: Sequence[Mapping[str, Any]],
    live: Mapping[str, Any] | None,
    board: str | None = None,
    lit: Callable[[], Mapping[str, str]] | None = None,
    computer: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Everything a spectator's page shows, but the move list; ``computer`` the level of
    each seat the computer plays, by seat name (``{"green": "expert"}``)."""
    st = state(game, moves, live, lit)
    return {
        "board": board,
        "journal_game": game_id,
        "game": game.name,
        "title": game.title,
        "players": game.players,
        "seats": seat_names(game),
        "computer": dict(computer or {}),
        "turn": st["turn"],
        "scores": st["scores"],
        "move": st["move"],
        "moves_played": st["moves_played"],
        "layout": st["layout"],
        "oled": st["oled"],
        "fixes": st["fixes"],
        "connected": st["connected"],
        "outcome": st["outcome"],
        "leds": st.get("leds", {}),
        "result": result_text(game),
        "extra": extra(game),
    }
