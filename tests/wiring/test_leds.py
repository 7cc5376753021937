"""The profile's [leds] section: the chain's order through the cells and a message
for every kind of bad input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from tests.wiring.conftest import VALID, WriteProfile, edit
from wiring.loader import ProfileError, list_profiles, load_profile
from wiring.pico import firmware_pins

PICO = """\
[board]
name = "led-board"
games = ["dominoes"]
sensor = "serial"
cells = "letters-numbers"

[serial]
port = "/dev/ttyACM0"
sensor = "occupancy"
rows = 3
columns = 3

[buttons]
roll = 10
left = 9
right = 11
ok = 8
back = 7

[oled]
driver = "ssd1306"

[leds]
pin = 15
order = "rows"
"""


def problems(write_profile: WriteProfile, text: str) -> list[str]:
    with pytest.raises(ProfileError) as caught:
        load_profile(str(write_profile(text)))
    return caught.value.problems


def only(write_profile: WriteProfile, text: str) -> str:
    found = problems(write_profile, text)
    assert len(found) == 1, found
    return found[0]


def test_rows_run_along_each_row_from_the_top(write_profile: WriteProfile) -> None:
    leds = load_profile(str(write_profile(PICO))).leds
    assert leds is not None
    assert leds.chain == ("A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3")
    assert (leds.pin, leds.order, leds.brightness, leds.budget_ma) == (15, "rows", 0.25, 2000)


def test_serpentine_comes_back_along_every_other_row(write_profile: WriteProfile) -> None:
    text = edit('order = "rows"', 'order = "serpentine"\nbrightness = 0.5\nbudget_ma = 900', PICO)
    leds = load_profile(str(write_profile(text))).leds
    assert leds is not None
    assert leds.chain == ("A1", "B1", "C1", "C2", "B2", "A2", "A3", "B3", "C3")
    assert (leds.brightness, leds.budget_ma) == (0.5, 900)


def test_rack_slots_follow_the_board_seat_by_seat(write_profile: WriteProfile) -> None:
    text = PICO.replace('order = "rows"', 'order = "serpentine"')
    text += '\n[racks]\nseat2 = ["A3", "B3"]\nseat1 = ["C3", "C2"]\n'
    leds = load_profile(str(write_profile(text))).leds
    assert leds is not None
    # Row 2 keeps only its one cell that is no rack slot; then seat 1, then seat 2.
    assert leds.chain == ("A1", "B1", "C1", "B2", "A2", "C3", "C2", "A3", "B3")


def test_a_table_gives_the_order_cell_by_cell(write_profile: WriteProfile) -> None:
    order = ["C3", "B3", "A3", "A2", "B2", "C2", "C1", "B1", "A1"]
    text = edit('order = "rows"', f'order = "table"\ntable = {order}', PICO)
    leds = load_profile(str(write_profile(text))).leds
    assert leds is not None and leds.chain == tuple(order)


def test_a_table_that_misses_repeats_or_invents_cells_names_them(
    write_profile: WriteProfile,
) -> None:
    text = edit('order = "rows"', 'order = "table"\ntable = ["A1", "B1", "A1", "Z9"]', PICO)
    found = problems(write_profile, text)
    assert len(found) == 3, found
    stray, repeated, missing = found
    assert "[leds] table: not cells of the board: Z9" in stray
    assert "listed more than once: A1" in repeated
    assert "7 cells have no LED: C1, A2, B2, C2, A3, B3, C3" in missing
    assert all(p.startswith(str(write_profile(text))) for p in found)
    assert "list every cell of [board] cells once" in missing


def test_order_table_needs_a_table_and_other_orders_refuse_one(
    write_profile: WriteProfile,
) -> None:
    message = only(write_profile, edit('order = "rows"', 'order = "table"', PICO))
    assert '[leds] table: missing key (order = "table" needs it)' in message
    message = only(write_profile, PICO + 'table = ["A1"]\n')
    assert "a table is only read with order = \"table\", but order = 'rows'" in message
    assert 'set order = "table"' in message


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('order = "rows"', 'order = "serpentin"', "did you mean 'serpentine'?"),
        ("pin = 15", "pin = 18", "GP18 is used by the switch matrix's SPI0 and latches"),
        ("pin = 15", "pin = 0", 'GP0 is used by the UART link (LINK = "uart")'),
        ("pin = 15", "pin = 25", "GP25 is used by the Pico's own board"),
        ("pin = 15", "pin = 30", "the Pico has no GP30"),
        ("pin = 15", 'pin = "GP15"', "a string ('GP15') where an integer is needed"),
        ("pin = 15", "pim = 15", "[leds] pim: unknown key; did you mean 'pin'?"),
        (
            'order = "rows"',
            'order = "rows"\nbrightness = 2',
            "[leds] brightness: 2 is out of range",
        ),
        (
            'order = "rows"',
            'order = "rows"\nbudget_ma = 50',
            "[leds] budget_ma: 50 is out of range",
        ),
    ],
)
def test_bad_leds_values_are_named_with_what_to_do(
    write_profile: WriteProfile, old: str, new: str, expected: str
) -> None:
    messages = problems(write_profile, edit(old, new, PICO))
    assert any(expected in m for m in messages), messages


def test_a_pin_taken_on_an_rfid_board_is_refused_with_the_free_pins(
    write_profile: WriteProfile,
) -> None:
    text = edit('sensor = "occupancy"', 'sensor = "rfid"', PICO).replace("pin = 15", "pin = 27")
    message = only(write_profile, text)
    assert "GP27 is used by the TPIC6B595 antenna chain on this rfid board" in message
    assert "free on this board: GP2 (pin 4), GP3 (pin 5)" in message
    assert "GP14" not in message.split("free on this board:")[1]
    # On an occupancy board the same pin is free; the older multiplexed board takes GP2-9.
    assert 27 not in firmware_pins("occupancy")
    assert 4 in firmware_pins("rfid", "mux") and 27 not in firmware_pins("rfid", "mux")


def test_a_gpio_board_refuses_a_chain_and_says_why(write_profile: WriteProfile) -> None:
    message = only(write_profile, VALID + '\n[leds]\npin = 15\norder = "rows"\n')
    assert "[leds]: an LED chain is driven by the Pico of a serial board" in message
    assert "remove the [leds] section" in message


@pytest.mark.parametrize("name", list_profiles())
def test_every_pico_profile_has_a_chain_on_a_free_pin(name: str) -> None:
    profile = load_profile(name)
    if profile.serial is None:
        assert profile.leds is None
        return
    assert profile.leds is not None
    assert profile.leds.pin not in firmware_pins(profile.serial.sensor)
    assert sorted(profile.leds.chain) == sorted(profile.cells)


def test_wiring_of_a_gpio_board_says_it_has_no_chain() -> None:
    out = io.StringIO()
    assert main(["wiring", "doubles-wild-gpio"], out) == 0
    text = out.getvalue()
    assert "LED chain: none. On a board wired to the Pi's GPIO" in text
    assert "seen only in the state, the spectators' view and the pictures" in text


def test_wiring_and_diagram_of_a_pico_board_show_the_chain(tmp_path: Path) -> None:
    out = io.StringIO()
    svg = tmp_path / "board.svg"
    assert main(["wiring", "double-take-pico", "--svg", str(svg)], out) == 0
    text = out.getvalue()
    assert "LED chain: 72 WS2812B-mini, serpentine from a1 to h9" in text
    assert "GP15 → 74AHCT125 (at 5 V) → 330 Ω → the first LED's DIN" in text
    assert " 20  GP15      LED data → 74AHCT125 1A" in text
    drawing = svg.read_text(encoding="utf-8")
    assert "LED data → 74AHCT125 1A → 330 Ω → first DIN" in drawing
    assert "its own 5 V supply into the first LED, 1000 µF there" in drawing
