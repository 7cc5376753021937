"""Crosslet's kit: its referee, view, words, computer player, hand, options and board."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game, Player
from games.crosslet import ABOUT

from ..kit import BoardLook, Kit, Specials
from ..words import JournaledWords, lazy_generator, lexicon_for


def _new_crosslet(players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
    from games.crosslet.game import Crosslet

    lexicon = lexicon_for(options.get("words"))
    return Crosslet(
        players,
        rng,
        options,
        lexicon=lexicon,
        make_generator=lazy_generator(lexicon),
    )


def _followed_crosslet(players: int, rng: random.Random, options: Mapping[str, Any]) -> Game:
    """A Crosslet game to follow, its words taken on trust from the journal."""
    from games.crosslet.game import Crosslet

    return Crosslet(players, rng, options, lexicon=JournaledWords())


def _player(game: Game, rng: random.Random, level: int | None = None, /) -> Player:
    """The computer player at ``level`` (``games.levels``; None: the default)."""
    from games.crosslet.player import make_player

    return make_player(game, rng) if level is None else make_player(game, rng, level)


def _bonus_squares(game: Game, cells: Sequence[str]) -> Specials:
    """The start square and the letter and word multipliers."""
    from games.crosslet.board import CENTRE, LETTER_MULTIPLIER, WORD_MULTIPLIER, parse_cell

    out: Specials = {}
    for cell in cells:
        col, row = parse_cell(cell)
        word, letter = WORD_MULTIPLIER[row][col], LETTER_MULTIPLIER[row][col]
        if cell == CENTRE:
            out[cell] = {"text": "★", "fill": "#f4b6c2", "name": "start: word ×2"}
        elif word == 3:
            out[cell] = {"text": "3W", "fill": "#e06666", "name": "word ×3"}
        elif word == 2:
            out[cell] = {"text": "2W", "fill": "#9fc5e8", "name": "word ×2"}
        elif letter == 3:
            out[cell] = {"text": "3L", "fill": "#ffe599", "name": "letter ×3"}
        elif letter == 2:
            out[cell] = {"text": "2L", "fill": "#b6d7a8", "name": "letter ×2"}
    return out


def _letter_values() -> Mapping[str, int]:
    from games.crosslet.board import LETTER_VALUES

    return LETTER_VALUES


KIT = Kit(
    about=ABOUT,
    make_player=_player,
    default_profile="rfid-15x15-pico",
    board=BoardLook(specials=_bonus_squares, values=_letter_values),
    words=lexicon_for,
    make_game=_new_crosslet,
    follow_game=_followed_crosslet,
    table_options={"racks": "table"},
    open_racks=True,
    needs_tags="Crosslet's letter tiles differ only by their tags",
)
