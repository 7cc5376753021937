"""What each side may see: a board's view of a position holds its own seats' hand or
rack and only counts the others' (every hand shown once the game is over); the games
of hidden pieces are played sealed (the guest given its views, never the seed); and
another seat's draws are only counted in a board's words."""

from __future__ import annotations

import json
import random
from typing import Any

from firmware_bridge.kits import find_kit
from firmware_bridge.remote.privacy import HIDDEN, SEALED, public_words, seat_view
from firmware_bridge.remote.side import NO_GAMES, check_game
from games.dominoes.game import Dominoes, Draw

HAND_0 = [(0, 1), (2, 5), (6, 6)]
HAND_1 = [(3, 4), (1, 1), (0, 5)]


def _dominoes(hand_0: list[tuple[int, int]], boneyard: list[tuple[int, int]]) -> Dominoes:
    return Dominoes.from_position(2, hands=[hand_0, HAND_1], boneyard=boneyard, to_move=1)


def test_a_dominoes_view_lists_its_own_hand_and_counts_the_others() -> None:
    boneyard = [(4, 4), (2, 3), (5, 6), (0, 0)]
    game = _dominoes(HAND_0, boneyard)
    seen = seat_view(game, {1})
    assert seen["hands"] == [3, ["3-4", "1-1", "0-5"]]
    assert seen["boneyard"] == 4
    # Another hand at seat 0, and another order of the boneyard: seat 1 sees the same.
    other = _dominoes([(2, 3), (4, 4), (0, 0)], [(0, 1), (2, 5), (6, 6), (5, 6)])
    assert seat_view(other, {1}) == seen
    assert seat_view(other, {0}) != seat_view(game, {0})
    text = json.dumps(seen)
    assert all(f"{a}-{b}" not in text for a, b in HAND_0)
    # Seat 1 draws: its view names the domino it took; seat 0's only counts it.
    game.apply(Draw())
    assert seat_view(game, {1})["hands"][1][-1] == "4-4"  # boneyard[0] is drawn first
    assert seat_view(game, {0})["hands"] == [["0-1", "2-5", "6-6"], 4]


def test_every_hand_is_shown_once_the_game_is_over() -> None:
    # The last domino of the boneyard drawn ends the game: the hands are counted.
    game = Dominoes.from_position(2, hands=[HAND_0, HAND_1], boneyard=[(4, 4)], to_move=1)
    while game.outcome is None:
        game.apply(game.legal_actions()[0])
    hands = seat_view(game, {1})["hands"]
    assert hands == seat_view(game, {0})["hands"]
    assert all(isinstance(hand, list) for hand in hands)


def test_a_doublecross_view_lists_its_own_rack_and_counts_the_others() -> None:
    game: Any = find_kit("doublecross").new_game(2, random.Random(1), {})
    rack_0, rack_1 = game.rack(0), game.rack(1)
    seen = seat_view(game, {1})
    assert seen["racks"] == [len(rack_0), rack_1] and seen["bag"] == game.bag_count
    assert game.state_dict()["racks"][0] == rack_0  # the whole picture has it
    # Seat 0's rack changed for letters of the bag: seat 1 sees the same.
    state = game.state
    state.racks[0], state.bag[: len(rack_0)] = list(state.bag[: len(rack_0)]), list(rack_0)
    assert game.rack(0) != rack_0
    assert seat_view(game, {1}) == seen
    assert seat_view(game, {0})["racks"] == [game.rack(0), len(rack_1)]


def test_the_games_with_hidden_pieces_are_played_sealed() -> None:
    # A guest of each is given its views in the seed's place (test_hidden_*.py).
    assert set(HIDDEN) == set(SEALED) == {"dominoes", "doublecross"}
    assert NO_GAMES == {}
    for name in (*HIDDEN, "crosslet"):  # Crosslet's racks are public by its rules
        check_game(name)


def test_another_seats_draws_are_only_counted_in_a_boards_words() -> None:
    assert public_words("dominoes", "draws 0-3") == "draws a domino"
    assert public_words("dominoes", "4-2 on D6–E6, takes 5-6") == "4-2 on D6–E6, takes a domino"
    said = public_words("dominoes", "puts 1-2 in the pit, takes 0-0 3-4")
    assert said == "puts 1-2 in the pit, takes 2 dominoes"
    assert public_words("dominoes", "6-3 on F10–F11") == "6-3 on F10–F11"
    assert public_words("crosslet", "draws 0-3") == "draws 0-3"
