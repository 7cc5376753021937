"""The start menu: reachable in ``tabletop sim`` (``--lobby``, or ok after a game ends),
walked with ``press`` lines to a running game of each game; its choices remembered."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.journal import Journal
from firmware_bridge.referees.events import ButtonEvent
from firmware_bridge.runtime.lobby import Choice, Lobby, Start
from firmware_bridge.runtime.lobby_memory import MEMORY_VERSION, Memory
from firmware_bridge.screen.layout import PAGE_S, lay_out, width_of
from tests.firmware_bridge.sim_runs import Play

RESIGN = "hold back\npress right\npress ok\n"


# (profile, presses of right to reach the game, presses of ok to start it, first line)
WALKS = {
    "double-take": ("sim", 0, 6, "Red to move"),
    "doubles-wild": ("doubles-wild-gpio", 0, 6, "Blue"),
    "crosslet": ("rfid-15x15-pico", 0, 7, "P1"),
    "dominoes": ("rfid-15x15-pico", 2, 5, "P1"),
    # game, players, two seats, min_word and first, ready; then the markers' set-up
    "doublecross": ("rfid-15x15-pico", 1, 7, "Markers"),
}


@pytest.mark.parametrize("game", sorted(WALKS))
def test_the_start_menu_walks_to_a_running_game(game: str, play: Play) -> None:
    profile, rights, oks, first = WALKS[game]
    script = "press right\n" * rights + "press ok\n" * oks + "wait 1\n"
    run = play(None, script=script, lobby=True, profile=profile)
    assert run.sim.on_table is not None and run.game.name == game
    assert run.outcome is None and len(run.game.history) == 0
    menus = run.menus
    assert menus and menus[0].oled[0].startswith("New game")
    ready = [s.oled for s in menus if s.oled[0].startswith("Ready?")]
    assert ready and all("ok: start" in " ".join(oled) for oled in ready), "ok: start shown"
    playing = run.states
    assert playing and playing[-1].oled[0].startswith(first)
    if game == "doublecross":
        # The markers come before the start word, which is asked for only after them.
        assert all(s.oled[0].startswith("Markers") for s in playing)


def test_the_menu_chooses_players_seats_and_options(tmp_path: Path, play: Play) -> None:
    journal = tmp_path / "game.db"
    # Double Take: red a person, green the computer, rows 10, repetitions default.
    # game, red (a person), green (right: the computer), rows (default, then 8),
    # repetitions (default), ready.
    script = "press ok\npress ok\npress right\npress ok\n"
    script += "press right\npress ok\npress ok\npress ok\n"
    script += "lift a3\nplace b4 red\n"
    run = play(None, script=script, lobby=True, profile="sim", journal=journal)
    with Journal(journal, read_only=True) as book:
        record = book.game(1)
        entries = book.entries(1)
    assert record.game == "double-take" and record.options == {"rows": 8}
    assert entries[0].kind == "seats" and entries[0].payload == {"computer": [1]}
    assert next(e.payload["frm"] for e in entries if e.kind == "action") == "a3"
    shown = [s.oled for s in run.menus] + [s.oled for s in run.states]
    assert any(line.startswith("Computer: ") for oled in shown for line in oled)
    assert (tmp_path / "game.lobby.json").exists()


def test_ok_after_a_game_ends_opens_the_menu(tmp_path: Path, play: Play) -> None:
    journal = tmp_path / "game.db"
    script = RESIGN + "press ok\n" + "press ok\n" * 6
    run = play("double-take", script=script, journal=journal)
    assert any(s.outcome for s in run.states)
    assert run.menus
    assert run.journal_game == 2 and run.outcome is None


def test_the_menu_opens_on_the_last_choices_after_a_restart(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "lobby.json")
    games = [
        Choice("double-take", "Double Take", 2, 2, ("red", "green")),
        Choice("dominoes", "Dominoes", 2, 6),
    ]
    lobby = Lobby(games, memory=memory)
    for name in ("right", "ok", "right", "ok", "ok", "right", "ok", "ok", "ok"):
        lobby.handle(ButtonEvent(name, False))
    assert lobby.chosen == Start("dominoes", 3, frozenset({1}), {})
    again = Lobby(games, memory=Memory(tmp_path / "lobby.json"))
    assert again.game.name == "dominoes" and again.players == 3 and again.computer == {1}
    assert again.screen().lines[0] == "< Dominoes >"


def test_a_crosslet_first_seat_remembered_from_0_is_shown_as_the_same_seat(
    tmp_path: Path,
) -> None:
    path = tmp_path / "lobby.json"
    games = [Choice("crosslet", "Crosslet", 2, 4)]
    # Written before the file had a version, when Crosslet counted seats from 0.
    old = {"players": 3, "computer": [], "options": {"first": 1}}
    path.write_text(json.dumps({"last": "crosslet", "games": {"crosslet": old}}), "utf-8")
    lobby = Lobby(games, memory=Memory(path))
    assert lobby.options["first"] == 2  # seat 2, as it was chosen
    Memory(path).save(Start("crosslet", 3, frozenset(), {"first": 2}))
    assert Lobby(games, memory=Memory(path)).options["first"] == 2
    assert json.loads(path.read_text("utf-8"))["version"] == MEMORY_VERSION


def test_a_damaged_memory_file_is_forgotten_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "lobby.json"
    path.write_text("{not json", encoding="utf-8")
    lobby = Lobby([Choice("double-take", "Double Take", 2, 2)], memory=Memory(path))
    assert lobby.players == 2 and lobby.computer == set()


def test_sim_without_a_game_or_the_menu_says_what_to_give(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command line's exit code and stderr are what is tested."""
    assert main(["sim", "--json"], io.StringIO()) == 2
    assert "give --game GAME, or --lobby" in capsys.readouterr().err


def test_the_menu_chooses_options_itself(capsys: pytest.CaptureFixture[str]) -> None:
    """The command line's exit code and stderr are what is tested."""
    code = main(
        ["sim", "--lobby", "--script", "-", "--option", "rows=8", "--profile", "sim"],
        io.StringIO(),
    )
    assert code == 2
    assert "--option not taken: the options and who plays" in capsys.readouterr().err


def test_a_game_the_board_cannot_hold_is_refused_on_the_menu(play: Play) -> None:
    # Double Take with 10 rows on the 9-row board.
    script = "press ok\n" * 3 + "press right\n" * 3 + "press ok\n" * 3
    run = play(None, script=script, lobby=True, profile="sim")
    assert run.states == [], "no game came to the table"
    last = run.menus[-1]
    assert last.stage == "ready" and last.oled[0] == "Cannot start"
    # The reason as drawn: its first page (it goes on to name a10, on the next).
    assert "the board has 8x9 sensors" in " ".join(last.oled)
    assert all(width_of(line) <= 128 for line in last.oled[1:])
    assert run.sim.on_table is None


def test_every_page_of_the_ready_screen_says_ok_starts(tmp_path: Path) -> None:
    lobby = Lobby([Choice("crosslet", "Crosslet", 2, 4)], memory=Memory(tmp_path / "m.json"))
    lobby.players = 4
    lobby.stage = "ready"
    screen = lobby.screen()
    assert screen.header == "Ready?"
    layout = lay_out(screen, (128, 64))
    assert layout.pages > 1, "a summary longer than the screen"
    for page in range(layout.pages):
        shown = " ".join(line.text for line in lay_out(screen, (128, 64), page * PAGE_S).lines)
        assert "ok: start" in shown, f"page {page + 1}: {shown}"
