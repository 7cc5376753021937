"""The seed's worked example, reached by legal plays: CUT 6 + TOUTER 8 + DIVES 27 + CEL 5
+ 15 = 61, seven tiles in several lines."""

from __future__ import annotations

from games.crosslet.game import Crosslet
from tests.games.crosslet.helpers import place, rigged_game

TURNS = (
    # seat 0: EL across H8 and LIRAS down column I
    "H8 E, I8 L, I9 I, I10 R, I11 A, I12 S",
    # seat 1: TEARS across row 12 and ER across row 10
    "E12 T, F12 E, G12 A, H12 R, H10 E",
    # seat 0: ES, TO across; EAT, OAT down
    "D8 E, E8 S, D9 A, D10 T, E10 O, E11 A",
)
SEVEN = place("A8 D, B8 I, C8 V, G8 C, G9 U, G10 T, F10 U")


def _position() -> Crosslet:
    game = rigged_game("ELIRASE", "TEAREDI", "SATOAN", "VCUTU")
    for spec in TURNS:
        verdict = game.apply(place(spec))
        assert verdict.accepted, verdict.reason
    return game


def test_setup_turns_score_as_the_rules_say() -> None:
    game = rigged_game("ELIRASE", "TEAREDI", "SATOAN", "VCUTU")
    points = [game.apply(place(spec)).points(2) for spec in TURNS]
    # EL 4 (centre doubles) + LIRAS 6 (I9 doubles the I); TEARS 6 (H12 doubles R) + ER 2;
    # ES 3 (D8 doubles E) + TO 2 + EAT 4 + OAT 6 (E11 doubles the word).
    assert points == [[10, 0], [0, 8], [15, 0]]


def test_seven_tiles_in_several_lines_score_61() -> None:
    game = _position()
    assert game.rack(1) == ["D", "I", "V", "C", "U", "T", "U"]
    assert game.judge(SEVEN).accepted
    verdict = game.apply(SEVEN)
    assert verdict.accepted
    assert {e.reason: e.points for e in verdict.events} == {
        "CUT": 6,
        "TOUTER": 8,
        "DIVES": 27,
        "CEL": 5,
        "all 7 tiles": 15,
    }
    assert verdict.points(2) == [0, 61]
    assert game.scores() == [25, 69]


def test_score_placement_lists_the_four_words_for_the_display() -> None:
    game = _position()
    assert game.score_placement(SEVEN) == [
        ("DIVES", 27),
        ("CEL", 5),
        ("TOUTER", 8),
        ("CUT", 6),
        ("all 7 tiles", 15),
    ]


def test_no_word_of_the_example_has_seven_letters() -> None:
    game = _position()
    assert max(len(word) for word, _ in game.score_placement(SEVEN)[:-1]) == 6
