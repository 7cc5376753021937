"""DoubleCross at the table: scripted turns in simulation show what each tile
made, and the fixes for a refused tile, a destroyed tile and a bomb, with play
waiting until they are done; the set-up lists the markers and checks the start word."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.export import export_game
from firmware_bridge.kits.doublecross.referee import DoubleCrossReferee
from firmware_bridge.kits.doublecross.turn import MARKERS_FIRST
from firmware_bridge.referees.facts import Facts
from firmware_bridge.runtime.session_state import TableState
from firmware_bridge.screen.layout import render
from firmware_bridge.screen.palette import DESTROYED, SPOT
from firmware_bridge.sim.runner import SimOptions, Simulation
from firmware_bridge.sim.script import Line, parse_all
from games.doublecross.game import DoubleCross, EndGame
from games.lexicon import Lexicon
from hardware.buttons import ButtonEvent
from tests.firmware_bridge.sim_runs import Play, SimRun, reason
from tests.firmware_bridge.tagged_table import TaggedTable
from wiring.errors import ProfileError
from wiring.loader import load_profile

SCENARIOS = Path(__file__).parents[2] / "scenarios"
OPTIONS = {
    "start_word": "CAT",
    "racks": ["AXERST", "OEDINS"],
    "bag": "EEEAAOOIINNRRTTLLSSUDG",
    "specials": {"H9": "ns"},
    "first": 1,
}
"""The set-up every scenario is played with: what its comments name."""


pytestmark = pytest.mark.usefixtures("kit_lexicon")


OPTION_PAIRS = [f"{k}={json.dumps(v)}" for k, v in OPTIONS.items()]
"""``OPTIONS`` as ``--option`` pairs."""


def scenario(play: Play, name: str) -> SimRun:
    return play("doublecross", options=OPTION_PAIRS, script=SCENARIOS / name)


def moves(run: SimRun) -> list[str]:
    """The accepted moves, in order, each once."""
    return [f"{p.player} {p.text}" for p in run.played]


def shown(state: TableState) -> str:
    """The OLED's words, its wrapped lines joined again."""
    return " ".join(state.oled)


def after(run: SimRun, played: int) -> list[TableState]:
    return [s for s in run.states if s.moves_played == played]


def test_a_refused_tile_goes_back_to_the_rack_and_play_waits_for_it(play: Play) -> None:
    run = scenario(play, "dc_fixes.txt")
    before = after(run, 0)
    refused = next(s for s in before if s.fixes)
    assert reason(refused).startswith("refused: E on A1 does not extend")
    assert "E on A1 refused: no stable letter Lift E from A1" in shown(refused)
    assert [f["cell"] for f in refused.fixes] == ["A1"]
    # The A laid while the E is still there is not judged; ok is not taken either.
    waiting = [s for s in before if [f["cell"] for f in s.fixes] == ["A1", "H9"]]
    assert waiting and all(s.layout.keys() == {"G8", "H8", "I8"} for s in waiting)
    assert any("Fix the board first." in shown(s) for s in before)
    assert before[-1].fixes == [] and before[-1].extra["racks"]["player 1"] == list("AXERST")


def test_a_destroyed_tile_is_named_by_cell_and_lifted_before_play_goes_on(play: Play) -> None:
    run = scenario(play, "dc_fixes.txt")
    assert moves(run)[:3] == [
        "player 1 A on H9 partial: AA; ns bomb +2",
        "player 1 X on J8 destroyed",
        "player 2 N on H10 partial: AAN",
    ]
    gone = after(run, 2)
    assert gone[0].oled[0].startswith("P2 to play")
    assert "P1: X on J8 destroyed, P1 -4 Lift X from J8" in shown(gone[0])
    assert [f["cell"] for f in gone[0].fixes] == ["J8"]
    assert gone[0].move is not None
    assert gone[0].move["points"] == {"player 1": -4, "player 2": 0}
    assert gone[0].scores == {"player 1": -2, "player 2": 0}
    # Player 2's ok before the X is lifted is not a pass: no move is played.
    assert any("Fix the board first." in shown(s) for s in gone)
    assert "J8" not in gone[-1].layout and gone[-1].fixes == []
    assert gone[-1].extra["dealt"] == {"player": "player 1", "tiles": ["E", "E"]}


def test_a_bomb_lists_every_tile_it_destroys_one_at_a_time(play: Play) -> None:
    run = scenario(play, "dc_fixes.txt")
    assert moves(run)[3:5] == ["player 2 ends the turn", "player 1 ns bomb on H1: 2 destroyed"]
    blast = after(run, 5)
    # What the bomb did and who lost what, whole, above the fix.
    assert "P1: ns bomb on H1: 2 destroyed, P1 -4 P2 -4 Lift A from H9 (1/2)" in shown(blast[0])
    assert blast[0].extra["said"] == "P1: ns bomb on H1: 2 destroyed"
    assert [f["cell"] for f in blast[0].fixes] == ["H9", "H10"]
    assert blast[0].move is not None
    assert blast[0].move["points"] == {"player 1": -4, "player 2": -4}
    assert blast[0].extra["trays"]["player 1"] == []
    second = next(s for s in blast if [f["cell"] for f in s.fixes] == ["H10"])
    assert "Lift N from H10" in shown(second)
    assert any("Fix the board first." in shown(s) for s in blast)
    assert blast[-1].fixes == [] and blast[-1].layout.keys() == {"G8", "H8", "I8"}


def test_new_letters_and_a_round_of_passes_let_the_last_passer_end_the_game(
    play: Play,
) -> None:
    run = scenario(play, "dc_fixes.txt")
    assert moves(run)[5:] == [
        "player 1 ends the turn",
        "player 2 new letters",
        "player 1 passes",
        "player 1 ends the game",
    ]
    last = run.last
    assert last.outcome is not None
    assert last.outcome["reason"] == "the last passer ended the game"
    assert last.extra["said"] == "P1 ends the game"
    # 2 for the bomb picked up, -4 for X, -4 for the A the bomb took, -24 for six tiles left.
    assert last.scores == {"player 1": -30, "player 2": -28}
    assert last.oled[0].startswith("Game over") and "bag 19" in shown(last)
    assert "P2 wins The last passer ended the game." in shown(last)
    may_end = next(s for s in run.states if s.extra["may_end"] == "player 1")
    assert "P1 may end: back" in shown(may_end)


def test_the_journal_credits_the_end_to_the_last_passer_also_when_written_without_a_seat(
    tmp_path: Path, play: Play
) -> None:
    journal = tmp_path / "dc.sqlite"
    play("doublecross", options=OPTION_PAIRS, journal=journal, script=SCENARIOS / "dc_fixes.txt")
    record = export_game(journal)
    end = record["moves"][-1]
    # Player 1 made the last pass; player 2 was to move when the game was ended.
    assert end["action"] == {"type": "end-game", "player": 0}
    assert end["player"] == "player 1"
    # The same end as a journal written before the seat was recorded holds it.
    with sqlite3.connect(journal) as db:
        db.execute(
            "UPDATE inputs SET payload = ? WHERE seq = (SELECT MAX(seq) FROM inputs)",
            ('{"type": "end-game"}',),
        )
    db.close()
    old = export_game(journal)
    assert old["moves"][-1]["action"] == {"type": "end-game"}
    assert old["moves"][-1]["player"] == "player 1"
    assert old["outcome"] == record["outcome"]
    assert old["outcome"]["reason"] == "the last passer ended the game"
    assert old["scores"] == record["scores"] == {"player 1": -30, "player 2": -28}


def test_the_simulated_hand_ends_the_game_only_for_the_last_passer() -> None:
    sim = Simulation(SimOptions("doublecross", options=dict(OPTIONS)))
    try:
        sim.start()
        # The markers, then player 1 and player 2 pass: player 2 made the last pass.
        for line in parse_all("press ok\npress ok\npress ok\n"):
            sim.run_line(line)
        game = sim.session.game
        assert (game.may_end, game.to_move) == (1, 0)
        with pytest.raises(ValueError, match="player 1 cannot end the game from the turn menu"):
            sim.hand.steps(EndGame(0))
        with pytest.raises(ValueError, match="seat 5 cannot end the game"):
            sim.hand.steps(EndGame(5))
        for step in sim.hand.steps(EndGame(1)):
            sim.run_line(Line("hand", 1, step[0], tuple(step[1:])))
        assert game.history[-1] == EndGame(1)
        assert game.outcome is not None
        assert sim.session.state().extra["said"] == "P2 ends the game"
    finally:
        sim.close()


def test_a_person_who_made_the_last_pass_ends_the_game_while_the_computer_is_to_move() -> None:
    # Nothing of player 2's rack makes a word with GYM: the computer asks for new letters.
    options = {"start_word": "GYM", "racks": ["AEERST", "QJVKWZ"], "specials": {}, "first": 2}
    sim = Simulation(SimOptions("doublecross", options=options, humans=frozenset({0})))
    try:
        sim.start()
        sim.play_computer_seats()
        game = sim.session.game
        assert [a.type for a in game.history] == ["new-letters"]
        sim.run_line(Line("person", 1, "press", ("ok",)))  # player 1 passes too
        assert (game.may_end, game.to_move) == (0, 1)
        # The computer would play on; the end is player 1's, not a move made for it.
        assert not isinstance(sim.session.expected(), EndGame)
        for line in parse_all("endgame\n"):
            sim.run_line(line)
        assert game.history[-1] == EndGame(0)
        assert game.outcome is not None
        assert sim.session.state().extra["said"] == "P1 ends the game"
    finally:
        sim.close()


def test_a_completed_word_pays_the_placer_and_the_owners_made_stable(play: Play) -> None:
    run = scenario(play, "dc_points.txt")
    assert moves(run) == [
        "player 1 A on H9 partial: AA; ns bomb +2",
        "player 1 ends the turn",
        "player 2 S on H10 complete: AAS",
        "player 2 ends the turn",
    ]
    done = after(run, 3)[0]
    assert done.move is not None
    assert done.move["points"] == {"player 1": 3, "player 2": 6}
    assert "P2: S on H10 complete: AAS P1 +3 P2 +6" in shown(done)
    assert done.layout["H9"] == {"kind": "tile", "label": "A", "owner": 0, "stable": True}
    assert done.layout["H10"] == {"kind": "tile", "label": "S", "owner": 1, "stable": True}
    assert done.layout["G8"] == {"kind": "tile", "label": "C", "owner": None, "stable": True}
    assert done.scores == {"player 1": 5, "player 2": 6}


# -- set-up, straight on a session ---------------------------------------------------
def new_table(lexicon: Lexicon, specials: dict[str, str]) -> TaggedTable:
    options = {**OPTIONS, "specials": specials}
    game = DoubleCross(2, random.Random(1), options, lexicon=lexicon)
    return TaggedTable(game)


def press(table: TaggedTable, name: str) -> None:
    table.session.handle(ButtonEvent(name, False))


def test_the_markers_are_listed_then_the_start_word_is_checked_before_play(
    lexicon: Lexicon,
) -> None:
    specials = {"A1": "bomb-1", "O1": "bomb-2", "C3": "bonus", "M13": "block", "E5": "mystery"}
    table = new_table(lexicon, specials)
    table.board.clear()
    table.settle()
    screen = table.session.screen()
    assert screen.header == "Markers 1-3/5" and screen.scores == ()
    assert screen.lines == ("A1 P1 bomb", "O1 P2 bomb", "C3 bonus")
    assert screen.prompt == "ok: next markers"
    # A tile laid now is not judged: the markers come first, and the OLED says so.
    table.board["H9"] = table.tag("A")
    table.settle()
    assert table.session.game.history == []
    refused = table.session.screen()
    assert refused.lines == (f"No: {MARKERS_FIRST}",) and refused.prompt == "Lift A from H9"
    del table.board["H9"]
    table.settle()
    assert table.session.screen().header == "Markers 1-3/5", "the same markers again"
    press(table, "ok")
    screen = table.session.screen()
    assert screen.header == "Markers 4-5/5" and screen.lines == ("E5 mystery", "M13 block")
    assert screen.prompt == "ok: the start word"
    press(table, "ok")
    screen = table.session.screen()
    assert screen.lines == ("No: lay the start word CAT",)
    assert screen.prompt == "Put C on G8 (1/3)"
    assert screen.board is not None and screen.board.focus == "G8"
    for cell, letter in zip(("G8", "H8", "I8"), "CAT", strict=True):
        table.board[cell] = table.tag(letter)
        table.settle()
    assert table.session.pending_fixes() == []
    table.board["H9"] = table.tag("A")
    table.settle()
    assert len(table.session.game.history) == 1


def test_the_whole_board_map_shows_stable_tiles_each_seat_and_the_spaces_left(
    lexicon: Lexicon,
) -> None:
    table = new_table(lexicon, {"H9": "ns", "C3": "bonus", "D4": "block"})
    press(table, "ok")  # the markers
    table.board["H10"] = table.tag("A")  # refused, no move
    table.settle()
    del table.board["H10"]
    table.settle()
    table.board["H9"] = table.tag("A")
    table.settle()
    press(table, "roll")
    screen = table.session.screen()
    assert screen.picture is not None
    image = render(screen)
    left = 128 - 15 * 4

    def lit(cell: tuple[int, int], dx: int, dy: int) -> bool:
        r, c = cell
        return bool(image.getpixel((left + c * 4 + dx, 2 + r * 4 + dy)))

    stable = (7, 6)  # G8, the C of CAT
    assert all(lit(stable, x, y) for x in range(3) for y in range(3))
    seat1 = (8, 7)  # H9: player 1's unstable A, drawn as a box
    assert lit(seat1, 0, 0) and lit(seat1, 2, 2) and not lit(seat1, 1, 1)
    bonus = (2, 2)  # C3: a dot
    assert lit(bonus, 1, 1) and not lit(bonus, 0, 0)
    block = (3, 3)  # D4: a bar
    assert lit(block, 0, 1) and lit(block, 2, 1) and not lit(block, 1, 0)
    assert not lit((0, 0), 1, 1)
    press(table, "roll")
    assert table.session.screen().picture is None


def test_a_board_with_the_special_spaces_printed_skips_the_marker_list(
    lexicon: Lexicon, tmp_path: Path
) -> None:
    game = DoubleCross(2, random.Random(1), OPTIONS, lexicon=lexicon)
    plain = load_profile("rfid-15x15-pico")
    assert DoubleCrossReferee.new_turn(game, Facts(profile=plain)).setting_up()
    mine = tmp_path / "printed.toml"
    mine.write_text('extends = "rfid-15x15-pico"\n[board]\nspecials_printed = true\n')
    printed = load_profile(str(mine))
    assert printed.specials_printed
    assert not DoubleCrossReferee.new_turn(game, Facts(profile=printed)).setting_up()
    mine.write_text('extends = "rfid-15x15-pico"\n[board]\nspecials_printed = "yes"\n')
    with pytest.raises(ProfileError, match="specials_printed"):
        load_profile(str(mine))


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("press ok\nbomb up H3\n", "line 2: a directional bomb is ns, ew or nsew, not 'up'"),
        ("press ok\nbomb ns Z99\n", "line 2: there is no cell 'Z99' on this board (A1 to O15)"),
        ("press ok\nbomb ns\n", "line 2: 'bomb' takes bomb KIND CELL"),
        ("press ok\nbomb ns H3\n", "line 2: there is no ns bomb to play: the tray holds no bombs"),
        ("press ok\nendgame\n", "line 2: the game may be ended only by the last of a full round"),
        (
            "press ok\nplace H9 A\nwait 0.5\nnewletters\n",
            "line 4: new letters only before a tile is laid",
        ),
    ],
)
def test_a_bad_doublecross_line_stops_with_its_number_and_what_is_wrong(
    lines: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's exit code and stderr are what is tested."""
    script = tmp_path / "bad.txt"
    script.write_text(lines)
    options = [a for pair in OPTION_PAIRS for a in ("--option", pair)]
    args = ["sim", "--game", "doublecross", *options, "--script", str(script)]
    assert main(args, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_doublecross_line_in_another_game_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line's exit code and stderr are what is tested."""
    script = tmp_path / "bad.txt"
    script.write_text("endgame\n")
    args = ["sim", "--game", "double-take", "--script", str(script)]
    assert main(args, out=io.StringIO()) == 2
    assert "line 1: 'endgame' has no meaning in double-take" in capsys.readouterr().err


def test_undo_from_the_menu_takes_the_last_tile_back_to_the_rack(lexicon: Lexicon) -> None:
    table = new_table(lexicon, {})
    table.board["H9"] = table.tag("A")
    table.settle()
    game = table.session.game
    assert game.rack(0) == list("XERST")
    press(table, "back")
    menu = table.session.referee.menu
    assert menu is not None and [label for label, _ in menu.options] == ["undo last tile"]
    press(table, "ok")
    assert game.rack(0) == list("AXERST") and "H9" not in game.layout()
    screen = table.session.screen()
    assert screen.lines == ("P1 takes the tile back",) and screen.prompt == "Lift A from H9"
    del table.board["H9"]
    table.settle()
    assert table.session.pending_fixes() == []


def test_a_bomb_is_aimed_column_then_row_with_the_cursor_on_the_map(lexicon: Lexicon) -> None:
    table = new_table(lexicon, {"H9": "ew"})
    press(table, "ok")  # the marker is in place
    table.board["H9"] = table.tag("A")
    table.settle()
    table.board["H10"] = table.tag("S")  # AAS: H9 and H10 stable
    table.settle()
    table.board["I9"] = table.tag("T")  # unstable: AT across
    table.settle()
    assert table.session.game.tray(0) == ["ew"]
    press(table, "back")
    referee = table.session.referee
    assert referee.menu is not None and referee.menu.options[0] == ("bomb ew", "ew")
    press(table, "ok")
    for _ in range(3):
        press(table, "right")
    screen = table.session.screen()
    assert screen.header == "Aim ew" and screen.lines[0] == "Column? D"
    assert screen.picture is not None and screen.picture.focus == (7, 3)  # D8
    press(table, "ok")
    for _ in range(8):
        press(table, "right")
    screen = table.session.screen()
    assert screen.lines[0] == "Row? 9" and screen.picture is not None
    assert screen.picture.focus == (8, 3)  # D9
    press(table, "ok")
    game = table.session.game
    assert game.history[-1].to_dict() == {"type": "bomb", "kind": "ew", "cell": "D9"}
    assert "I9" not in game.layout() and "H9" in game.layout()
    assert [f.cell for f in table.session.pending_fixes()] == ["I9"]


def test_back_leaves_the_aim_without_a_bomb(lexicon: Lexicon) -> None:
    table = new_table(lexicon, {"H9": "ns"})
    press(table, "ok")  # the marker is in place
    table.board["H9"] = table.tag("A")
    table.settle()
    press(table, "back")
    press(table, "ok")
    press(table, "back")
    referee = table.session.referee
    assert referee.menu is None and referee.turn.bomb == ""
    assert table.session.game.tray(0) == ["ns"] and len(table.session.game.history) == 1


def long_press(table: TaggedTable, name: str) -> None:
    table.session.handle(ButtonEvent(name, True))


def test_take_back_from_a_long_back_follows_doublecross_own_undo(lexicon: Lexicon) -> None:
    table = new_table(lexicon, {})
    long_press(table, "back")
    menu = table.session.referee.menu
    assert menu is not None and [v for _, v in menu.options][-1] == "take back"
    while menu.index != len(menu.options) - 1:
        press(table, "right")
    press(table, "ok")  # nothing laid yet: the engine's undo refuses
    verdict = table.session.last_verdict
    assert verdict is not None and not verdict.accepted
    assert verdict.reason.startswith("DoubleCross takes back only the last tile of a turn")
    table.board["H9"] = table.tag("A")
    table.settle()
    game = table.session.game
    assert game.rack(0) == list("XERST")
    long_press(table, "back")
    menu = table.session.referee.menu
    assert menu is not None
    while menu.index != len(menu.options) - 1:
        press(table, "right")
    press(table, "ok")
    assert game.rack(0) == list("AXERST") and "H9" not in game.layout()
    assert table.session.screen().prompt == "Lift A from H9"


def test_destroyed_tiles_light_as_destroyed_until_lifted_and_the_aim_as_a_spot(
    play: Play,
) -> None:
    run = scenario(play, "dc_fixes.txt")
    gone = after(run, 2)
    assert gone[0].leds["J8"] == DESTROYED
    blast = after(run, 5)
    assert blast[0].leds["H9"] == blast[0].leds["H10"] == DESTROYED
    second = next(s for s in blast if [f["cell"] for f in s.fixes] == ["H10"])
    assert second.leds.get("H9") != DESTROYED and second.leds["H10"] == DESTROYED
    assert blast[-1].fixes == [] and DESTROYED not in blast[-1].leds.values()
    aiming = [s for s in run.states if s.moves_played == 4 and SPOT in s.leds.values()]
    assert aiming, "the bomb's aim was lit"
    assert all(list(s.leds.values()).count(SPOT) == 1 for s in aiming)
    assert {c for s in aiming for c, v in s.leds.items() if v == SPOT} >= {"H1"}
