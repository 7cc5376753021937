"""``tabletop show`` draws the board of a saved game where the journal puts its pieces."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image, ImageColor

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.export import export_game
from firmware_bridge.journal import Journal
from firmware_bridge.kits import KITS, find_kit
from firmware_bridge.spectate.board_png import CELL, PAD, cell_box, domino_pairs
from firmware_bridge.spectate.geometry import geometry
from firmware_bridge.spectate.style import (
    CELL_FILL,
    DOMINO_FILL,
    NAMED_COLOURS,
    PIPS,
    TILE_EDGE,
    TILE_FILL,
    piece_look,
    seat_colour,
)

GAMES = tuple(name for name in sorted(KITS) if name != "doublecross")
"""Every game whose special spaces stay as a new game has them; DoubleCross's are used
up as it is played (its own test below)."""
RGB = tuple[int, int, int]


@pytest.fixture(scope="module")
def journals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("journals")
    out: dict[str, Path] = {}
    for name in GAMES:
        path = folder / f"{name}.sqlite"
        assert main(["sim", "--game", name, "--seed", "4", "--journal", str(path)]) == 0
        out[name] = path
    return out


def _rgb(colour: str) -> RGB:
    r, g, b = ImageColor.getrgb(colour)[:3]
    return (r, g, b)


def _near(a: tuple[int, ...], b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b, strict=True))


def _draw(journal: Path, png: Path, capsys: pytest.CaptureFixture[str]) -> Image.Image:
    assert main(["show", "--journal", str(journal), "--png", str(png)]) == 0
    assert f"drawn to {png}" in capsys.readouterr().out
    return Image.open(png).convert("RGB")


@pytest.mark.parametrize("name", GAMES)
def test_every_piece_is_drawn_on_its_cell_and_no_piece_elsewhere(
    name: str, journals: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = _draw(journals[name], tmp_path / "board.png", capsys)
    record = export_game(journals[name])
    game = find_kit(name).new_game(
        record["players"], random.Random(record["seed"]), record["options"]
    )
    geo = geometry(game)
    assert image.width >= geo["cols"] * CELL + 2 * PAD
    assert image.height > geo["rows"] * CELL + 2 * PAD
    layout = record["layout"]
    assert len(layout) >= 4, "the saved game left pieces on the board"
    special = geo["special"]
    for cell in geo["cells"]:
        x0, y0, x1, y1 = cell_box(geo, cell)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        piece = layout.get(cell)
        if piece is None:
            fill = special[cell]["fill"] if cell in special else CELL_FILL
            assert _near(image.getpixel((x0 + 3, y0 + 3)), _rgb(fill)), f"empty {cell}"
            continue
        look = piece_look(piece, record["seats"])
        if look.kind == "disc":
            # Between the state ring and the disc's rim: the owner's colour.
            at = (cx + round(CELL * 0.32), cy)
            assert _near(image.getpixel(at), _rgb(look.colour)), f"{cell} {piece}"
        elif look.kind == "tile":
            assert _near(image.getpixel((x0 + 6, y0 + 6)), _rgb(TILE_FILL)), f"{cell} {piece}"
            # The letter itself is dark ink somewhere in the middle of the tile.
            middle = image.crop((x0 + 8, y0 + 6, x1 - 8, y1 - 8))
            ink = 3 * 0x88 if look.faint else 3 * 0x22
            darkest = min(sum(p[:3]) for p in middle.get_flattened_data())
            assert darkest <= ink + 30, f"{cell} has no letter"
        else:
            assert _near(image.getpixel((x0 + 5, y0 + 5)), _rgb(DOMINO_FILL)), f"{cell}"
            side = x1 - 2 - (x0 + 2)
            for px, py in PIPS[look.pips]:
                at = (round(x0 + 2 + px * side), round(y0 + 2 + py * side))
                assert sum(image.getpixel(at)[:3]) < 200, f"{cell} {piece}: no pip at {px},{py}"
            if look.pips % 2 == 0:
                assert _near(image.getpixel((cx, cy)), _rgb(DOMINO_FILL)), f"{cell}: a centre pip"


def test_the_two_halves_of_a_domino_are_drawn_as_one(
    journals: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = _draw(journals["dominoes"], tmp_path / "board.png", capsys)
    record = export_game(journals["dominoes"])
    layout = record["layout"]
    geo = geometry(find_kit("dominoes").new_game(2, random.Random(record["seed"]), {}))
    pairs = domino_pairs(geo, layout)
    assert 2 * len(pairs) >= 0.9 * len(layout), "nearly every half finds its other half"
    for first, second in pairs:
        domino, _, half = layout[first]["label"].partition(":")
        assert layout[second]["label"].partition(":")[0] == domino
        assert sorted([half, layout[second]["label"].partition(":")[2]]) == sorted(
            domino.split("-")
        )
        a, b = cell_box(geo, first), cell_box(geo, second)
        # Where the board's line between the two cells would be, the domino's body is.
        edge = (b[0], a[1] + 5) if b[0] > a[0] else (a[0] + 5, b[1])
        assert _near(image.getpixel(edge), _rgb(DOMINO_FILL)), f"{first}-{second} split"


def test_a_disc_is_drawn_in_its_owners_colour(
    journals: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = _draw(journals["doubles-wild"], tmp_path / "board.png", capsys)
    record = export_game(journals["doubles-wild"])
    game = find_kit("doubles-wild").new_game(2, random.Random(record["seed"]), {})
    geo = geometry(game)
    seen = set()
    for cell, piece in record["layout"].items():
        x0, y0, x1, y1 = cell_box(geo, cell)
        pixel = image.getpixel(((x0 + x1) // 2 + round(CELL * 0.32), (y0 + y1) // 2))
        seen.add(pixel)
        assert _near(pixel, _rgb(NAMED_COLOURS[piece["label"]])), f"{cell} {piece}"
    assert len(seen) >= 2, "both colours of ball are on the board and drawn apart"


def test_an_earlier_game_of_the_journal_is_drawn_by_its_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "two.sqlite"
    script = tmp_path / "resign.txt"
    script.write_text("hold back\n", encoding="utf-8")
    base = ["sim", "--game", "double-take", "--journal", str(journal), "--script", str(script)]
    assert main(base) == 0
    assert main(base) == 0
    capsys.readouterr()
    png = tmp_path / "first.png"
    assert main(["show", "--journal", str(journal), "--game", "1", "--png", str(png)]) == 0
    assert "game 1 (double-take)" in capsys.readouterr().out
    assert Image.open(png).format == "PNG"


def test_bad_input_is_named_and_nothing_is_written(
    journals: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "out.png"
    cases = [
        (["--journal", str(tmp_path / "none.sqlite")], "there is no journal"),
        (["--journal", str(journals["dominoes"]), "--game", "9"], "has no game 9"),
    ]
    not_a_journal = tmp_path / "notes.sqlite"
    not_a_journal.write_text("shopping list\n", encoding="utf-8")
    cases.append((["--journal", str(not_a_journal)], str(not_a_journal)))
    empty = tmp_path / "empty.sqlite"
    Journal(empty).close()
    cases.append((["--journal", str(empty)], "holds no games"))
    for args, message in cases:
        assert main(["show", *args, "--png", str(png)]) == 2, args
        assert message in capsys.readouterr().err
        assert not png.exists()
    folder = tmp_path / "pictures"
    folder.mkdir()
    assert main(["show", "--journal", str(journals["dominoes"]), "--png", str(folder)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert not_a_journal.read_text(encoding="utf-8") == "shopping list\n"


def test_a_doublecross_board_shows_its_specials_and_which_tiles_are_stable() -> None:
    from firmware_bridge.kits import crosslet_lexicon
    from firmware_bridge.spectate.board_png import board_png
    from games.doublecross.game import DoubleCross

    game = DoubleCross(2, random.Random(1), lexicon=crosslet_lexicon())
    seats = [game.seat_name(p) for p in range(game.players)]
    geo = geometry(game)
    specials = game.specials()
    assert set(geo["special"]) == set(specials)
    layout = dict(game.state_dict()["layout"])
    start = sorted(layout)
    assert start and all(layout[c]["stable"] for c in start)
    # One tile of the first seat's, not stable, beside the start word.
    loose = next(c for c in geo["cells"] if c not in layout and c not in specials)
    layout[loose] = {"kind": "tile", "label": "Q", "owner": 0, "stable": False}
    image = board_png(geo, layout, seats)
    for cell, kind in specials.items():
        x0, y0, _, _ = cell_box(geo, cell)
        fill = geo["special"][cell]["fill"]
        assert _near(image.getpixel((x0 + 2, y0 + 2)), _rgb(fill)), f"{cell} {kind}"
    # A stable tile has a heavy edge; a loose one a thin edge in its owner's colour.
    x0, y0, _, y1 = cell_box(geo, start[0])
    assert _near(image.getpixel((x0 + 4, (y0 + y1) // 2)), _rgb(TILE_EDGE))
    x0, y0, _, y1 = cell_box(geo, loose)
    assert _near(image.getpixel((x0 + 2, (y0 + y1) // 2)), _rgb(seat_colour(seats, 0)))
    assert _near(image.getpixel((x0 + 4, (y0 + y1) // 2)), _rgb(TILE_FILL))


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        ("UPDATE inputs SET payload = '{\"type\": \"fly\"}' WHERE seq = 3", "game 1"),
        ("UPDATE inputs SET payload = 'not json' WHERE seq = 2", "game 1"),
        ("UPDATE inputs SET payload = (SELECT payload FROM inputs WHERE seq = 1) "
         "WHERE seq = 2", "does not replay"),
    ],
)  # fmt: skip
def test_a_journal_whose_moves_do_not_replay_is_named_damaged_and_nothing_is_drawn(
    edit: str, says: str, journals: dict[str, Path], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    import shutil
    import sqlite3

    path = tmp_path / "edited.sqlite"
    shutil.copy(journals["double-take"], path)
    db = sqlite3.connect(path)
    with db:
        db.execute(edit)
    db.close()
    before = path.read_bytes()
    png = tmp_path / "board.png"
    assert main(["show", "--journal", str(path), "--png", str(png)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and says in err
    assert "Traceback" not in err
    assert not png.exists()
    assert path.read_bytes() == before


def test_a_game_in_progress_shows_the_computers_move_lit_and_a_finished_one_dark(
    tmp_path: Path,
) -> None:
    from firmware_bridge.apps.show import lights_of, picture, saved_game
    from firmware_bridge.runtime.lights import action_moved
    from firmware_bridge.screen.palette import FROM, LAST, TO

    path = tmp_path / "g.sqlite"
    journal = Journal(path)
    game_id = journal.new_game("double-take", 2, 5, {}, "double-take-gpio")
    journal.append(game_id, "seats", {"computer": [1]})
    game = find_kit("double-take").new_game(2, random.Random(5), {})
    first = game.legal_actions()[0]
    journal.append(game_id, "action", first.to_dict())
    journal.close()

    saved = saved_game(path)
    assert saved.computer == frozenset({1}) and saved.game.to_move == 1
    lit = lights_of(saved)
    # The computer's reply, lit from and to, exactly the cells it moves (and the
    # person's move before it, dimly).
    from firmware_bridge.runtime.computer import Computer

    reply = Computer(find_kit("double-take").make_player, 5, frozenset({1})).expected(saved.game)
    assert reply is not None
    moved = action_moved(saved.game, reply)
    assert set(lit.values()) <= {FROM, TO, LAST}
    assert {c for c, v in lit.items() if v == FROM} == set(moved.frm)
    assert {c for c, v in lit.items() if v == TO} == set(moved.to)
    image = picture(saved).convert("RGB")
    geo = geometry(saved.game)
    for cell in moved.to:
        x0, y0, _, _ = cell_box(geo, cell)
        r, g, b = image.getpixel((x0 + 2, y0 + 2))  # type: ignore[misc]
        assert b > r, f"{cell} is not lit blue: {(r, g, b)}"


def test_a_finished_games_board_is_drawn_dark(journals: dict[str, Path]) -> None:
    from firmware_bridge.apps.show import lights_of, saved_game

    for path in journals.values():
        saved = saved_game(path)
        assert saved.game.outcome is not None and lights_of(saved) == {}
