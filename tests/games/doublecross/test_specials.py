"""DoubleCross special spaces: bonus, coloured and directional bombs, blocking, mystery."""

from __future__ import annotations

from collections import Counter

from games.doublecross.game import EndTurn, NewLetters, PlaceTile, PlayBomb
from tests.games.doublecross.helpers import game, play, recount


def test_a_bonus_space_pays_its_value_and_every_bonus_space_left_gains_5() -> None:
    g = game(specials={"H9": "bonus", "H11": "bonus"})
    play(g, "H9 R")
    assert g.scores() == [5, 0]
    assert g.bonus_value == 10
    assert "H9" not in g.specials()
    play(g, "H10 T", "H11 S")  # ART (9), then ARTS (4 + S 4) and the bonus, now 10
    assert g.scores() == [5 + 9 + 8 + 10, 0]
    assert g.bonus_value == 15
    assert g.scores() == recount(g.record, 2)


def test_a_destroyed_tile_does_not_trigger_the_space_under_it() -> None:
    g = game(specials={"J8": "bonus"})
    verdict = g.apply(PlaceTile("J8", "S"))  # CATS is in no word of the list
    assert verdict.removed == ("J8",)
    assert g.scores() == [-4, 0]
    assert g.specials()["J8"] == "bonus"
    assert g.bonus_value == 5


def test_another_players_coloured_bomb_destroys_their_unstable_tiles_first() -> None:
    g = game(racks=("T", "R"), specials={"H10": "bomb-2"}, first=2, bag="EEEE")
    play(g, "H9 R")  # seat 2's unstable R under the start word's A
    g.apply(EndTurn())
    # Seat 1 lays T on seat 2's bomb: ART would be complete, but the bomb goes off
    # first: R is destroyed, so T is orphaned and destroyed too; +8 all the same.
    verdict = play(g, "H10 T")[0]
    assert set(verdict.removed) == {"H9", "H10"}
    assert g.scores() == [8 - 4, -4]
    assert g.to_move == 0  # the turn goes on
    assert g.scores() == recount(g.record, 2)


def test_your_own_coloured_bomb_is_defused_for_16_and_destroys_nothing() -> None:
    g = game(specials={"H10": "bomb-1"})
    play(g, "H9 R")
    play(g, "H10 T")
    assert g.scores() == [16 + 9, 0]
    assert "H10" not in g.specials()


def test_directional_bombs_are_picked_up_into_a_tray_of_two_and_more_still_score() -> None:
    g = game(specials={"H9": "ns", "H10": "nsew", "H11": "ew"})
    play(g, "H9 R")
    assert (g.tray(0), g.scores()) == (["ns"], [2, 0])
    play(g, "H10 T")
    assert (g.tray(0), g.scores()) == (["ns", "nsew"], [2 + 4 + 9, 0])
    play(g, "H11 S")
    assert g.tray(0) == ["ns", "nsew"]  # full: the ew bomb is not kept...
    assert g.scores() == [2 + 4 + 9 + 8 + 2, 0]  # ...but its 2 points are


def holding_bombs():  # type: ignore[no-untyped-def]
    """Seat 1 has picked up an ns and an ew bomb (laying E on I9 and A on G9)."""
    g = game(
        racks=("EAQ", "EA"),
        specials={"I9": "ns", "G9": "ew", "M3": "bonus"},
        extra=("tea", "tee", "ca"),
        bag="ROOOOOOOIIIIIIII",
    )
    play(g, "I9 E", "G9 A")  # TE (partial) and CA (partial), picking up both bombs
    g.apply(EndTurn())
    return g


def test_bombs_from_the_tray_destroy_every_unstable_tile_in_their_line() -> None:
    g = holding_bombs()
    assert g.tray(0) == ["ns", "ew"]
    play(g, "I10 A")  # seat 2 makes TEA down column I: E (seat 1) and A stabilise
    g.apply(EndTurn())
    assert g.stable("I9") and g.stable("I10")
    # Row 9 holds seat 1's unstable A on G9; the ew bomb there clears the row.
    verdict = g.apply(PlayBomb("ew", "A9"))
    assert verdict.accepted
    assert verdict.removed == ("G9",)
    assert "G9" not in g.layout() and "I9" in g.layout()  # stable tiles stay
    assert g.tray(0) == ["ns"]


def test_several_bombs_in_one_turn_on_any_square_but_a_blocking_one() -> None:
    g = game(
        racks=("EAQ", "EA"),
        specials={"I9": "ns", "G9": "ew", "M3": "bonus", "A3": "block"},
        extra=("tea", "tee", "ca"),
    )
    play(g, "I9 E", "G9 A")
    g.apply(EndTurn())
    g.apply(EndTurn())
    assert not g.judge(PlayBomb("ns", "A3")).accepted  # a blocking space
    assert g.apply(PlayBomb("ns", "M3")).accepted  # on a bonus space: not triggered
    assert g.specials()["M3"] == "bonus"
    verdict = g.apply(PlayBomb("ew", "O9"))  # the whole row 9: E and A, seat 1's own
    assert set(verdict.removed) == {"G9", "I9"}
    assert g.tray(0) == []
    assert not g.judge(PlayBomb("ns", "B2")).accepted  # none left
    assert g.scores() == recount(g.record, 2)


def test_new_letters_are_allowed_after_a_bomb_but_not_after_a_tile() -> None:
    g = holding_bombs()
    g.apply(EndTurn())
    assert g.apply(PlayBomb("ns", "B2")).accepted
    assert g.apply(NewLetters()).accepted
    assert g.to_move == 1
    g2 = holding_bombs()
    g2.apply(EndTurn())
    play(g2, "H9 R")
    assert "new letters only before placing a tile" in g2.judge(NewLetters()).reason


def test_a_blocking_space_takes_no_tile() -> None:
    g = game(specials={"H9": "block"})
    verdict = g.judge(PlaceTile("H9", "R"))
    assert not verdict.accepted
    assert "blocking space" in verdict.reason


def test_mystery_spaces_do_one_of_four_things_from_the_games_random_source() -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        g = game(specials={"H9": "mystery"}, seed=seed)
        play(g, "H9 R")
        kinds = [n.kind for n in g.last_notes if n.kind != "placed"]
        if kinds[0] == "bonus":
            assert g.scores() == [5, 0] and g.bonus_value == 5  # no rise
        elif kinds[0] == "pickup":
            assert len(g.tray(0)) == 1 and g.scores()[0] in (2, 4)
        elif kinds[0] == "coloured-bomb":
            assert g.scores() == [8, 0]
        else:
            assert kinds[0] == "mystery" and g.scores() == [0, 0]
        seen[kinds[0]] += 1
        again = game(specials={"H9": "mystery"}, seed=seed)
        play(again, "H9 R")
        assert again.state_dict() == g.state_dict()  # the same seed, the same mystery
    assert set(seen) == {"bonus", "pickup", "coloured-bomb", "mystery"}
