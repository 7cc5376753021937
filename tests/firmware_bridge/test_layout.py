"""What the OLED layout keeps, wraps and pages: measured with the font it draws in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageFont

from firmware_bridge.screen import layout
from firmware_bridge.screen.layout import PAGE_S, flow, lay_out, render
from firmware_bridge.screen.screens import BoardMap, Mark, Screen, printable, seat_mark

FONT = ImageFont.load_default_imagefont()
SIZE = (128, 64)
GRID = tuple(tuple(f"{f}{r}" for f in "abcdefgh") for r in range(9, 0, -1))


def drawn(screen: Screen, now: float = 0.0) -> list[str]:
    return [line.text for line in lay_out(screen, SIZE, now).lines]


def test_a_letter_is_never_left_alone_on_a_line() -> None:
    lines = flow("P2 takes A D F H I R T", [127])
    assert lines == ["P2 takes A D F H I", "R T"]
    assert all(1 + FONT.getlength(line) <= 127 for line in lines)


def test_two_spaces_keep_a_group_whole() -> None:
    assert flow("ok: start  back: game", [80]) == ["ok: start", "back: game"]
    assert flow("< 0-4 >  ok: pit it", [127]) == ["< 0-4 >  ok: pit it"]


def test_a_score_is_never_split_from_its_name() -> None:
    scores = tuple(f"P{p} {s}({s % 7})" for p, s in enumerate([23, 27, 14, 42, 17, 22], 1))
    lines = drawn(Screen("P3 draws", "bone 38", ("Press roll.",), scores=scores))
    assert lines[-3:] == ["P1 23(2) P2 27(6)", "P3 14(0) P4 42(0)", "P5 17(3) P6 22(1)"]


def test_scores_share_the_bar_when_they_fit_beside_the_header() -> None:
    layout = lay_out(Screen("Blue's turn", scores=("B0", "R2")), SIZE)
    assert (layout.header, layout.status) == ("Blue's turn", "B0 R2")
    crowded = lay_out(Screen("Purple's turn", scores=("B0", "R0", "P1", "G0")), SIZE)
    assert crowded.status == "" and crowded.text()[-1] == "B0 R0 P1 G0"


def test_lines_that_do_not_fit_take_turns_and_the_prompt_and_scores_stay() -> None:
    body = tuple(f"Line {n} of the news" for n in range(1, 7))
    screen = Screen("P1 to play", "bag 80", body, prompt="Lay tiles, then ok.", scores=("P1 3",))
    first = lay_out(screen, SIZE, 0.0)
    assert first.pages == 2
    pages = [drawn(screen, page * PAGE_S) for page in range(first.pages)]
    assert pages[0] == [
        "Line 1 of the news",
        "Line 2 of the news",
        "Line 3 of the news",
        "Lay tiles, then ok.",
        "P1 3",
    ]
    assert pages[1][-2:] == ["Lay tiles, then ok.", "P1 3"]
    assert [line for page in pages for line in page[:-2]] == list(body)
    assert drawn(screen, 2 * PAGE_S) == pages[0], "the pages go round"


def test_text_beside_the_map_stops_short_of_it() -> None:
    screen = Screen(
        "Red to move",
        "",
        ("Last: a3-a4",),
        BoardMap(GRID),
        prompt="Move a piece.",
        scores=("Red 12", "Green 12"),
    )
    layout = lay_out(screen, SIZE)
    assert layout.map is not None
    for line in layout.lines:
        assert line.x + FONT.getbbox(line.text)[2] < layout.map.left - 1
    assert [line.text for line in layout.lines][-2:] == ["Red 12", "Green 12"]


def test_each_seat_has_its_own_pattern_and_every_named_cell_is_framed() -> None:
    assert [seat_mark(p) for p in range(4)] == [Mark.SOLID, Mark.HOLLOW, Mark.CROSS, Mark.CHECK]
    marks = {"a1": Mark.SOLID, "b1": Mark.HOLLOW, "c1": Mark.CROSS, "d1": Mark.CHECK}
    image = render(Screen("Map", board=BoardMap(GRID, marks)), SIZE)
    layout = lay_out(Screen("Map", board=BoardMap(GRID, marks)), SIZE)
    assert layout.map is not None
    box = layout.map

    def cell(column: int) -> list[int]:
        x, y = box.corner(8, column)
        return [image.getpixel((x + dx, y + dy)) for dy in range(4) for dx in range(4)]

    patterns = [cell(c) for c in range(4)]
    assert len({tuple(p) for p in patterns}) == 4, "four seats, four patterns"
    assert sum(p == 255 for p in patterns[0]) == 16 and patterns[1][5] == 0
    framed = render(Screen("Map", board=BoardMap(GRID, marks, ("e5", "g5"))), SIZE)
    for column in (4, 6):
        x, y = box.corner(4, column)
        assert framed.getpixel((x - 1, y - 1)) == 255 and image.getpixel((x - 1, y - 1)) == 0


def measured_flow(text: str, rights: tuple[int, ...]) -> tuple[str, ...]:
    """Line breaking that measures each candidate line whole: what ``flow`` must equal."""
    out: list[str] = []
    for para in printable(text).split("\n"):
        indent = para[: len(para) - len(para.lstrip(" "))]
        lines: list[str] = []
        words = layout._words(para, max(rights))
        if words:
            words[0] = indent + words[0]
        for word in words:
            right = rights[min(len(out) + max(len(lines) - 1, 0), len(rights) - 1)]
            if lines and layout._fits(f"{lines[-1]} {word}", right):
                lines[-1] = f"{lines[-1]} {word}"
                continue
            right = rights[min(len(out) + len(lines), len(rights) - 1)]
            lines.extend(layout._split_long(word, right))
        if len(lines) >= 2 and len(lines[-1]) == 1 and " " in lines[-2]:
            head, moved = lines[-2].rsplit(" ", 1)
            lines[-2:] = [head, f"{moved} {lines[-1]}"]
        out.extend(lines or [""])
    return tuple(line.replace(layout._KEEP, " ").rstrip() for line in out)


@settings(max_examples=400, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("ab Wi.:-1\n "), max_size=80),
    rights=st.lists(st.integers(8, 128), min_size=1, max_size=5),
)
def test_flow_breaks_lines_as_measuring_each_line_whole_does(text: str, rights: list[int]) -> None:
    assert tuple(flow(text, rights)) == measured_flow(text, tuple(rights))


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("ab Wi.:-1\n "), max_size=80),
    rights=st.lists(st.sampled_from([20, 65, 128]), min_size=1, max_size=6),
)
def test_widths_that_repeat_the_last_one_break_lines_as_the_full_list_does(
    text: str, rights: list[int]
) -> None:
    assert tuple(flow(text, rights)) == measured_flow(text, tuple(rights))
