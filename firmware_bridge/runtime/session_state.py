"""The table's state: what the ``--json`` stream, the live file and the spectators report
about the table, one typed value with one ``to_json`` (with the record of an accepted
action it and the hooks are told), told to its listeners when it changes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from msgspec import Struct, field

from games.core import Game, Verdict

from ..referees.fixes import Fix
from ..screen.layout import LaidOut

Listener = Callable[[dict[str, Any]], None]


class TableState(Struct, frozen=True):
    """What the table reports now: built by :meth:`of` from the game and what the table
    shows of it, by the session and the spectators alike, and written out by
    :meth:`to_json` (the ``--json`` stream, the live file, the web view)."""

    turn: str | None
    """The seat to move, by name; None once the game is over."""
    scores: dict[str, int]
    oled: list[str]
    """The OLED's text as drawn, wrapped and on the page shown ([] where unknown)."""
    fixes: list[dict[str, Any]]
    verdict: dict[str, Any] | None
    move: dict[str, Any] | None
    """The last accepted action: who, what, the words shown, the points."""
    moves_played: int
    layout: dict[str, Any]
    connected: bool | None
    """Whether the board answers (None where unknown: a spectator's replay)."""
    outcome: dict[str, Any] | None
    leds: dict[str, str]
    extra: Mapping[str, Any] = field(default_factory=dict)
    """The game's own part (its view's ``extra_state``): phase, hand, rack…"""

    @classmethod
    def of(
        cls,
        game: Game,
        *,
        oled: list[str],
        fixes: list[Fix],
        verdict: Verdict | None,
        move: dict[str, Any] | None,
        connected: bool | None,
        leds: Mapping[str, str],
        extra: Mapping[str, Any] | None = None,
    ) -> TableState:
        outcome = game.outcome
        return cls(
            turn=game.seat_name(game.to_move) if outcome is None else None,
            scores={game.seat_name(p): s for p, s in enumerate(game.scores())},
            oled=oled,
            fixes=[f.to_dict() for f in fixes],
            verdict=verdict_dict(game, verdict) if verdict else None,
            move=move,
            moves_played=len(game.history),
            layout=game.state_dict()["layout"],
            connected=connected,
            outcome=outcome.to_dict() if outcome else None,
            leds=dict(leds),
            extra=extra or {},
        )

    def to_json(self) -> dict[str, Any]:
        """The state as JSON takes it, the game's own part after the table's."""
        return {
            "turn": self.turn,
            "scores": self.scores,
            "oled": self.oled,
            "fixes": self.fixes,
            "verdict": self.verdict,
            "move": self.move,
            "moves_played": self.moves_played,
            "layout": self.layout,
            "connected": self.connected,
            "outcome": self.outcome,
            "leds": self.leds,
            **self.extra,
        }


def table_state(
    game: Game,
    layout: LaidOut,
    fixes: list[Fix],
    verdict: Verdict | None,
    move: dict[str, Any] | None,
    connected: bool,
    leds: dict[str, str],
    extra: dict[str, Any],
) -> TableState:
    """The state of a table whose OLED shows ``layout``."""
    return TableState.of(
        game,
        oled=layout.text(),
        fixes=fixes,
        verdict=verdict,
        move=move,
        connected=connected,
        leds=leds,
        extra=extra,
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
