"""The OLED frames of a Double Take game, compared with reference PNGs.

Regenerate the references only on purpose: ``pytest --update-golden``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware_bridge.referees.events import ButtonEvent
from firmware_bridge.runtime.session import Session
from firmware_bridge.screen.layout import render
from firmware_bridge.screen.screens import Screen
from games.double_take.game import DoubleTake
from hardware.board import OCCUPIED, BoardSettled, BoardStatus
from tests.tables import on_table

GOLDEN = Path(__file__).parent / "golden"


def check_frame(image: Image.Image, name: str, update: bool) -> None:
    path = GOLDEN / f"{name}.png"
    if update:
        GOLDEN.mkdir(exist_ok=True)
        image.save(path)
        return
    assert path.exists(), f"no reference {path}; run pytest --update-golden once"
    reference = Image.open(path).convert("1")
    assert reference.size == image.size == (128, 64)
    diff = ImageChops.difference(reference, image.convert("1")).getbbox()
    assert diff is None, f"frame {name} differs from {path} in the box {diff}"


def session_for(game: DoubleTake) -> tuple[Session, dict[str, str]]:
    session = on_table(game, journaled_as="sim")
    board = dict.fromkeys(game.layout(), OCCUPIED)
    session.handle(BoardSettled(dict(board)))
    return session, board


def frame(session: Session) -> Image.Image:
    return render(session.screen())


def test_opening_frame(update_golden: bool) -> None:
    session, _ = session_for(DoubleTake())
    image = frame(session)
    check_frame(image, "dt_opening", update_golden)
    # The header bar is lit and the map shows 24 pieces.
    assert image.getpixel((0, 0)) == 255


def test_rejected_move_frame_names_the_fix(update_golden: bool) -> None:
    session, board = session_for(DoubleTake())
    del board["a3"]
    board["a4"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    assert session.screen().lines[0].startswith("No: ")
    check_frame(frame(session), "dt_rejected", update_golden)


def test_capture_prompt_frame(update_golden: bool) -> None:
    red = {"a5": 0, "c3": 0, "a1": 0, "c1": 0}
    green = {"b5": 1, "h9": 1, "f9": 1, "d9": 1}
    game = DoubleTake.from_position(red | green, to_move=0)
    session, board = session_for(game)
    del board["c3"]
    board["c5"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    screen = session.screen()
    assert screen.prompt == "Lift b5 to capture, or ok: no capture"
    assert screen.board is not None and screen.board.framed == ("b5",)
    check_frame(frame(session), "dt_capture_prompt", update_golden)


def test_result_frame(update_golden: bool) -> None:
    red = {"a9": 0, "c9": 0, "e9": 0, "f8": 0}
    green = {"b3": 1, "d3": 1, "f3": 1, "h3": 1}
    game = DoubleTake.from_position(red | green, to_move=0)
    session, board = session_for(game)
    del board["f8"]
    board["g9"] = OCCUPIED
    session.handle(BoardSettled(dict(board)))
    assert game.outcome is not None and game.outcome.winners == (0,)
    check_frame(frame(session), "dt_result", update_golden)


def test_disconnected_frame(update_golden: bool) -> None:
    session, _ = session_for(DoubleTake())
    session.handle(BoardStatus(False, "Sensor board unplugged: check the USB cable."))
    check_frame(frame(session), "board_offline", update_golden)


def test_frames_differ_when_the_screen_differs() -> None:
    a = render(Screen("Red to move", "R12 G12", ("Move a piece.",)))
    b = render(Screen("Red to move", "R12 G11", ("Move a piece.",)))
    assert ImageChops.difference(a, b).getbbox() is not None


@pytest.mark.parametrize("text", ["c3→c5 passes over c4", "ÄÖÜ – ok…"])
def test_text_outside_the_font_is_drawn_not_refused(text: str) -> None:
    image = render(Screen("Red to move", "", (text,)))
    assert image.getbbox() is not None


def test_lobby_frames(update_golden: bool) -> None:
    from firmware_bridge.runtime.lobby import Choice, Lobby

    lobby = Lobby(
        [Choice("double-take", "Double Take", 2, 2), Choice("dominoes", "Dominoes", 2, 6)]
    )
    check_frame(render(lobby.screen()), "lobby_game", update_golden)
    lobby.handle(ButtonEvent("right", False))
    lobby.handle(ButtonEvent("ok", False))
    assert lobby.stage == "players"
    check_frame(render(lobby.screen()), "lobby_players", update_golden)
