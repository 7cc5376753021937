"""The Doubles Wild roll animation: dice tumble on the OLED, then settle on the roll."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from pathlib import Path

from PIL import Image, ImageChops

from firmware_bridge.journal import Journal
from firmware_bridge.kits.doubles_wild.referee import DoublesWildReferee
from firmware_bridge.referees.events import Event, Tick
from firmware_bridge.runtime.loop import Loop
from firmware_bridge.screen.dice_faces import (
    TUMBLE_FRAME_S,
    TUMBLE_S,
    BattlePicture,
    RollPicture,
    tumble_faces,
)
from firmware_bridge.screen.layout import render
from firmware_bridge.screen.palette import LAST, SPOT
from games.doubles_wild.game import DoublesWild
from hardware.board import OCCUPIED, BoardSettled
from hardware.buttons import ButtonEvent
from hardware.dice import DiceSource
from tests.boards import FakeBoard
from tests.firmware_bridge.sim_runs import Play
from tests.firmware_bridge.test_oled_frames import check_frame
from tests.tables import on_table

STEP_S = 0.01


class Display:
    """Keeps every frame the session shows."""

    def __init__(self) -> None:
        self.frames: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.frames.append(image)


class Table:
    """A session with a display, stepped by the real loop on a counted clock."""

    def __init__(self, board: Mapping[str, str] | None = None) -> None:
        game = DoublesWild.from_position(board or {}, to_move=0)
        self.dice = DiceSource.seeded(1)
        self.rolls: list[int] = []
        roll = self.dice.roll

        def counted(n: int) -> tuple[int, ...]:
            self.rolls.append(n)
            return roll(n)

        self.dice.roll = counted  # type: ignore[method-assign]
        self.display = Display()
        self.session = on_table(
            game, journaled_as="doubles-wild-gpio", display=self.display, dice=self.dice
        )
        self.ticks: list[float] = []
        handle = self.session.handle

        def counting(event: Event) -> None:
            if isinstance(event, Tick):
                self.ticks.append(event.now)
            handle(event)

        self.session.handle = counting  # type: ignore[method-assign]
        self.board = FakeBoard()
        self.layout = dict.fromkeys(game.layout(), OCCUPIED)
        self.loop = Loop(self.session, self.board)
        self.now = 0.0
        self.board.pending.append(BoardSettled(dict(self.layout)))
        self.step()

    @property
    def referee(self) -> DoublesWildReferee:
        referee = self.session.referee
        assert isinstance(referee, DoublesWildReferee)
        return referee

    def step(self, seconds: float = STEP_S) -> None:
        """Let ``seconds`` pass, one loop step every ``STEP_S``."""
        end = self.now + seconds
        while True:
            self.loop.step(self.now)
            if self.now >= end - 1e-9:
                return
            self.now = round(self.now + STEP_S, 6)

    def press(self, name: str, *faces: int) -> None:
        self.dice.load(faces)
        self.loop.put(ButtonEvent(name, False))
        self.step()

    def place(self, cell: str) -> None:
        self.layout[cell] = OCCUPIED
        self.board.pending.append(BoardSettled(dict(self.layout)))
        self.step()


def test_tumble_faces_follow_a_fixed_sequence_in_which_every_die_moves() -> None:
    first = [tumble_faces(7, frame, 4) for frame in range(6)]
    assert first == [tumble_faces(7, frame, 4) for frame in range(6)]
    assert all(1 <= face <= 6 for faces in first for face in faces)
    for before, after in itertools.pairwise(first):
        assert all(a != b for a, b in zip(before, after, strict=True))
    assert tumble_faces(8, 0, 4) != tumble_faces(7, 0, 4)


def test_rolled_dice_tumble_then_settle_and_the_ticks_stop() -> None:
    t = Table({"r5c4": "red", "r9c9": "blue"})
    assert not t.session.wants_ticks() and t.ticks == [], "an idle table asks for no ticks"
    t.press("roll", 3, 4, 2, 3)
    picture = t.session.screen().picture
    assert isinstance(picture, RollPicture) and picture.rolling == (True, True)
    assert t.session.state().extra["rolling"] is True
    rolling = t.session.screen()
    assert rolling.lines == () and rolling.prompt == "", "tumbling dice say nothing yet"
    assert rolling.board is not None and rolling.board.focus is None
    t.step(TUMBLE_S)
    assert "Spot r7c5" in t.session.screen().lines, "the spot is named once they settle"
    assert not t.session.wants_ticks() and not t.referee.turn.tumble
    ticks = list(t.ticks)
    t.step(1.0)
    assert t.ticks == ticks, "no ticks once the dice have settled"
    # A tick for each new face and one to settle, not one for every loop step.
    rolled_at = 0.01
    frames = round(TUMBLE_S / TUMBLE_FRAME_S)
    expected = [round(TUMBLE_FRAME_S * (n + 1), 6) for n in range(frames)]
    assert expected[-1] == TUMBLE_S  # the last face's tick is the one that settles them
    assert [round(tick - rolled_at, 6) for tick in ticks] == expected
    settled = t.session.screen().picture
    assert settled == RollPicture((3, 4), (2, 3))
    assert t.session.state().extra["rolling"] is False


def test_the_frames_tumble_before_the_final_one_which_is_the_reference_frame(
    update_golden: bool,
) -> None:
    t = Table({"r5c4": "red", "r9c9": "blue"})
    before = len(t.display.frames)
    t.press("roll", 3, 4, 2, 3)
    t.step(TUMBLE_S + 0.1)
    shown = t.display.frames[before:]
    frames = round(TUMBLE_S / TUMBLE_FRAME_S)
    assert len(shown) == frames + 1
    final = shown[-1]
    assert all(ImageChops.difference(f, final).getbbox() is not None for f in shown[:-1])
    # The settled frame is the one a table without animation shows at once.
    check_frame(final, "dw_roll", update=False)
    check_frame(shown[1], "dw_roll_tumbling", update_golden)


def test_the_tumble_rolls_none_of_the_stations_dice() -> None:
    t = Table()
    t.press("roll", 3, 4, 2, 3)
    t.step(TUMBLE_S)
    t.press("left", 5, 6)
    t.step(TUMBLE_S)
    assert t.rolls == [4, 2]
    assert [type(a).__name__ for a in t.session.game.history] == ["Roll", "Reroll"]


def test_a_reroll_tumbles_only_the_pair_rolled_again() -> None:
    t = Table()
    t.press("roll", 3, 4, 2, 3)
    t.step(TUMBLE_S)
    t.press("right", 5, 6)
    picture = t.session.screen().picture
    assert isinstance(picture, RollPicture) and picture.rolling == (False, True)
    assert picture.red == (3, 4)
    assert picture.words() == ("red 3 4 (7), blue rolling",)


def test_a_ball_placed_while_the_dice_tumble_ends_the_tumble() -> None:
    t = Table()
    t.press("roll", 3, 4, 2, 3)
    t.place("r7c5")
    assert t.session.game.history[-1].type == "place"
    assert not t.session.wants_ticks()


def test_a_battle_roll_tumbles_the_dice_not_kept(update_golden: bool) -> None:
    t = Table({"r7c5": "red"})
    t.press("roll", 3, 4, 2, 3)
    t.press("ok")
    t.press("roll", 6, 5, 1)  # blue attacks
    t.press("roll", 3, 3, 3)  # red defends
    t.step(TUMBLE_S)
    t.loop.put(ButtonEvent("ok", False))  # keep the 6
    t.step()
    t.press("roll", 2, 2)
    picture = t.session.screen().picture
    assert isinstance(picture, BattlePicture)
    attacker = picture.rows[0]
    assert attacker.rolling and attacker.dice[0] == 6, "the kept die stays still"
    assert picture.words()[0] == "Blue rolling (2/3)"
    check_frame(render(t.session.screen()), "dw_battle_tumbling", update_golden)
    t.step(TUMBLE_S)
    settled = t.session.screen().picture
    assert isinstance(settled, BattlePicture) and not settled.rows[0].rolling
    assert settled.rows[0].dice == (6, 2, 2)


def test_a_session_without_a_display_shows_the_settled_dice_at_once() -> None:
    game = DoublesWild()
    dice = DiceSource.seeded(1)
    session = on_table(game, journal=Journal(":memory:"), game_id=1, dice=dice)
    dice.load((3, 4, 2, 3))
    session.handle(ButtonEvent("roll", False))
    assert not session.wants_ticks()
    assert session.screen().picture == RollPicture((3, 4), (2, 3))


def test_a_scripted_roll_writes_the_tumbling_frames_before_the_final_one(
    tmp_path: Path, play: Play
) -> None:
    script = Path(__file__).parents[2] / "scenarios" / "dw_roll_tumbles.txt"
    frames, journal = tmp_path / "frames", tmp_path / "game.sqlite"
    run = play("doubles-wild", script=script, frames=frames, journal=journal)
    rolling = [s.extra["rolling"] for s in run.states]
    # Each roll: a tumbling state first, then the settled one.
    assert rolling == [False, True, False, True, False]
    assert run.last.oled[1] == "red 5 6 (11), blue 2 3 (5)"
    written = sorted(frames.glob("frame-*.png"))
    assert len(written) >= 2 + 2 * round(TUMBLE_S / TUMBLE_FRAME_S)
    last = Image.open(written[-1]).convert("1")
    for earlier in written[-4:-1]:
        assert ImageChops.difference(Image.open(earlier).convert("1"), last).getbbox()
    with Journal(journal) as book:
        record = book.games()[-1]
        kinds = [e.payload["type"] for e in book.entries(record.id) if e.kind == "action"]
    assert kinds == ["roll", "reroll"], "one journaled action per roll, none for the tumble"


def test_the_spot_the_roll_names_lights_once_the_dice_settle() -> None:
    t = Table({"r5c4": "red", "r9c9": "blue"})
    t.press("roll", 3, 4, 2, 3)
    assert SPOT not in t.session.leds().values(), "tumbling dice light nothing yet"
    t.step(TUMBLE_S)
    assert t.session.leds() == {"r7c5": SPOT}
    t.place("r7c5")
    assert SPOT not in t.session.leds().values()
    assert t.session.leds()["r7c5"] == LAST
