"""The README shows, for each game, an OLED frame, the lights under the squares and a
board picture the program drew.

``pytest --update-golden tests/firmware_bridge/test_readme_pictures.py`` draws them
again: a seeded computer game is simulated with ``tabletop sim --frames`` (the OLED frame
a third of the way through the game is shown 4× larger, and the board with its lit
squares at the computer's move a third of the way through), and its journal is drawn by
``tabletop show --png``.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from PIL import Image

from firmware_bridge.apps.cli import main
from firmware_bridge.kits import find_kit
from firmware_bridge.runtime.lights import position_lights
from firmware_bridge.runtime.replay import in_force, journaled_game, replay_action
from firmware_bridge.screen.palette import FROM, TO
from firmware_bridge.spectate.board_png import CELL, board_png
from firmware_bridge.spectate.geometry import geometry

ROOT = Path(__file__).resolve().parents[2]
IMG = ROOT / "docs" / "img"
SEEDS = {"double-take": 2, "dominoes": 2, "doubles-wild": 2, "crosslet": 1, "doublecross": 2}
"""The games on a board, with the seed of the game their pictures come from."""
SCALE = 4


def draw(name: str, seed: int, work: Path) -> None:
    journal = work / f"{name}.sqlite"
    frames = work / name
    sim = ["sim", "--game", name, "--seed", str(seed), "--journal", str(journal)]
    assert main([*sim, "--frames", str(frames)], out=io.StringIO()) == 0
    shown = sorted(frames.glob("frame-*.png"))
    frame = Image.open(shown[len(shown) // 3])
    big = frame.resize((frame.width * SCALE, frame.height * SCALE), Image.Resampling.NEAREST)
    IMG.mkdir(parents=True, exist_ok=True)
    big.convert("1").save(IMG / f"oled-{name}.png", optimize=True)
    lights_at_a_third(journal).save(IMG / f"lights-{name}.png", optimize=True)
    out = io.StringIO()
    show = ["show", "--journal", str(journal), "--png", str(IMG / f"board-{name}.png")]
    assert main(show, out=out) == 0


def lights_at_a_third(path: Path) -> Image.Image:
    """The board from a third of the way through the journaled game, at the first
    computer's move there that moves a piece, lit as the table lights it when the seat to
    move is the computer's: its move from and to, the last move dimly."""
    with journaled_game(path) as (journal, record):
        kit = find_kit(record.game)
        game = kit.new_game(record.players, random.Random(record.seed), record.options)
        actions = [e for e in in_force(journal.entries(record.id), str(path)) if e.kind == "action"]
        before: dict[str, Any] = {}
        lit: dict[str, str] = {}
        for entry in actions:
            if len(game.history) >= len(actions) // 3:
                lit = dict(position_lights(game, {game.to_move}, record.seed, before))
                if set(lit.values()) & {FROM, TO}:
                    break
            before = dict(game.layout())
            replay_action(game, entry.payload, str(path))
    assert set(lit.values()) & {FROM, TO}, f"{record.game}: no computer's move lit"
    seats = [game.seat_name(p) for p in range(game.players)]
    title = f"{game.title}: computer's move"
    layout = game.state_dict()["layout"]
    return board_png(geometry(game), layout, seats, title=title, scores=game.scores(), leds=lit)


def test_the_readme_shows_an_oled_frame_and_a_board_for_every_game(
    update_golden: bool, tmp_path: Path
) -> None:
    if update_golden:
        for name, seed in SEEDS.items():
            draw(name, seed, tmp_path)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, seed in SEEDS.items():
        oled = IMG / f"oled-{name}.png"
        board = IMG / f"board-{name}.png"
        lights = IMG / f"lights-{name}.png"
        for picture in (oled, board, lights):
            assert f"]({picture.relative_to(ROOT).as_posix()})" in readme, picture.name
            assert picture.exists(), f"{picture.name}: run pytest --update-golden on this file"
        frame = Image.open(oled)
        assert frame.size == (128 * SCALE, 64 * SCALE) and frame.mode == "1"
        assert frame.getbbox() is not None, f"{oled.name} is blank"
        game = find_kit(name).new_game(2, random.Random(seed), {})
        geo = geometry(game)
        drawn = Image.open(board)
        assert drawn.format == "PNG"
        assert drawn.width >= geo["cols"] * CELL and drawn.height > geo["rows"] * CELL
