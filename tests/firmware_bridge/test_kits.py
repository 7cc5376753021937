"""What the kits make: a Crosslet game loads its move generator only when asked."""

from __future__ import annotations

import random

from firmware_bridge import kits
from games.crosslet import Crosslet


def test_a_crosslet_game_loads_its_move_generator_when_first_asked_and_shares_it() -> None:
    kits._generator.cache_clear()
    game = kits.find_kit("crosslet").new_game(2, random.Random(1), {})
    assert isinstance(game, Crosslet)
    assert kits._generator.cache_info().currsize == 0, "loaded before anything asked"
    generator = game.generator
    assert kits._generator.cache_info().currsize == 1
    assert game.generator is generator
    other = kits.find_kit("crosslet").new_game(3, random.Random(2), {})
    assert isinstance(other, Crosslet)
    assert other.generator is generator, "games of one word list share one generator"
    assert game.shortlist(), "the generator it loaded finds moves"
