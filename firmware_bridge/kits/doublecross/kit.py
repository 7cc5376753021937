"""DoubleCross's kit: its referee, view, words, computer player, hand, options and board."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game, Player
from games.doublecross import ABOUT

from ..kit import BoardLook, Kit, Specials
from ..words import lexicon_for


def _new_doublecross(players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
    from games.doublecross.game import DoubleCross

    return DoubleCross(players, rng, options, lexicon=lexicon_for(options.get("words")))


def _player(game: Game, rng: random.Random, level: int | None = None, /) -> Player:
    """The computer player at ``level`` (``games.levels``; None: the default)."""
    from games.doublecross.player import make_player

    return make_player(game, rng) if level is None else make_player(game, rng, level)


def _problems(given: Mapping[str, Any], players: int | None) -> list[str]:
    """The setup's own check of the letters, the counts and the cells."""
    from games.doublecross.setup import read_options

    _, problems = read_options({k: v for k, v in given.items() if k != "words"}, players or 4)
    return problems


SPACES = {
    "bonus": {"text": "+", "fill": "#ffd966", "name": "bonus"},
    "block": {"text": "■", "fill": "#777777", "name": "block: no tile here"},
    "mystery": {"text": "?", "fill": "#d9d2e9", "name": "mystery"},
    "ns": {"text": "↕", "fill": "#f9cb9c", "name": "bomb: its column"},
    "ew": {"text": "↔", "fill": "#f9cb9c", "name": "bomb: its row"},
    "nsew": {"text": "✥", "fill": "#f9cb9c", "name": "bomb: row and column"},
}
"""How DoubleCross's special spaces are drawn; a coloured bomb shows its seat."""


def space(kind: str) -> dict[str, str]:
    """A DoubleCross special space (``bonus``, ``ns``, ``bomb-2`` ...) as text and fill."""
    if kind.startswith("bomb-"):
        return {"text": f"●{kind[5:]}", "fill": "#ea9999", "name": f"player {kind[5:]}'s bomb"}
    return dict(SPACES.get(kind, {"text": kind[:2], "fill": "#dddddd", "name": kind}))


def _spaces(game: Game, cells: Sequence[str]) -> Specials:
    """The bombs, bonus, mystery and blocking spaces of this game's layout."""
    specials = getattr(game, "specials", None)
    if specials is None:
        return {}
    return {cell: space(kind) for cell, kind in specials().items()}


KIT = Kit(
    about=ABOUT,
    make_player=_player,
    default_profile="rfid-15x15-pico",
    check_options=_problems,
    board=BoardLook(specials=_spaces),
    words=lexicon_for,
    make_game=_new_doublecross,
    needs_tags="DoubleCross's letter tiles differ only by their tags",
    # The players lay the start word once the markers are placed, as the OLED asks.
    set_up_cells=lambda game: game.start_cells,
)
