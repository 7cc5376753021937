"""The shipped profiles fit the registered games' boards, cell for cell."""

from __future__ import annotations

import pytest

from games.core import Game
from games.lexicon import Lexicon
from games.registry import GAMES
from wiring.loader import check_fits, list_profiles, load_profile

PAIRS = [
    (profile, listed.load())
    for profile in list_profiles()
    for listed in GAMES
    if listed.name in load_profile(profile).games
]


def board_cells(game: type[Game]) -> list[str]:
    """The game's cells; the word games need a word list to be built at all."""
    if game.name in ("crosslet", "doublecross"):
        return game(lexicon=Lexicon.build(["at", "cat"])).cells()  # type: ignore[call-arg]
    return game().cells()


@pytest.mark.parametrize(("profile", "game"), PAIRS, ids=[f"{p}-{g.name}" for p, g in PAIRS])
def test_shipped_profile_has_a_sensor_for_every_cell_of(profile: str, game: type[Game]) -> None:
    assert check_fits(load_profile(profile), game.name, board_cells(game)) == []


def test_double_take_with_ten_ranks_does_not_fit_the_real_board() -> None:
    game = next(g for g in GAMES if g.name == "double-take").load()
    cells = game(options={"rows": 10}).cells()
    problems = check_fits(
        load_profile("double-take-gpio"), "double-take", cells, settings={"rows": 10}
    )
    assert len(problems) == 1
    assert "8×9 sensors but double-take with rows=10 needs 80" in problems[0]
