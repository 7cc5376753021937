"""The ``--json`` state: what the stream reports about the table (with the record of
an accepted action it and the hooks are told), told to its listeners when it changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core import Action, Game, Verdict

from ..referees.decisions import Played
from ..referees.fixes import Fix
from ..screen.layout import Layout

Listener = Callable[[dict[str, Any]], None]


def table_state(
    game: Game,
    layout: Layout,
    fixes: list[Fix],
    verdict: Verdict | None,
    move: dict[str, Any] | None,
    connected: bool,
    leds: dict[str, str],
    extra: dict[str, Any],
) -> dict[str, Any]:
    """Everything the ``--json`` stream reports about the table now; ``oled`` is
    the text as drawn, wrapped and on the page shown."""
    outcome = game.outcome
    return {
        "turn": game.seat_name(game.to_move) if outcome is None else None,
        "scores": {game.seat_name(p): s for p, s in enumerate(game.scores())},
        "oled": layout.text(),
        "fixes": [f.to_dict() for f in fixes],
        "verdict": verdict_dict(game, verdict) if verdict else None,
        "move": move,
        "moves_played": len(game.history),
        "layout": game.state_dict()["layout"],
        "connected": connected,
        "outcome": outcome.to_dict() if outcome else None,
        "leds": leds,
        **extra,
    }


def played_record(
    game: Game, describe: Callable[[Action], str], mover: int, action: Action, verdict: Verdict
) -> Played:
    """The record of ``action``, the last of ``game``'s history, credited to ``mover``."""
    return Played(
        number=len(game.history),
        mover=mover,
        player=game.seat_name(mover),
        action=action,
        text=describe(action),
        verdict=verdict,
        points=tuple(verdict.points(game.players)),
    )


class Stream:
    """Tells ``listeners`` each state that differs from the last one told."""

    def __init__(self, listeners: list[Listener]) -> None:
        self.listeners = listeners
        self.last: dict[str, Any] | None = None

    def emit(self, state: dict[str, Any]) -> None:
        if state != self.last:
            self.last = state
            for listener in self.listeners:
                listener(state)


def verdict_dict(game: Game, verdict: Verdict) -> dict[str, Any]:
    """The verdict for the stream, each score event's seat by name ("player 2"),
    as the scores and the turn name it."""
    out = verdict.to_dict()
    if "events" in out:
        name = game.seat_name
        out["events"] = [{**e, "player": name(e["player"])} for e in out["events"]]
    return out
