"""Loading profiles: the shipped ones, extends, and a message for every kind of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.wiring.conftest import VALID, WriteProfile, edit
from wiring.loader import ProfileError, check_fits, list_profiles, load_profile

SHIPPED = [
    "double-take-gpio",
    "double-take-pico",
    "doubles-wild-gpio",
    "doubles-wild-rfid-pico",
    "occupancy-15x15-pico",
    "rfid-15x15-pico",
    "rfid-15x15-racks-pico",
    "sim",
]


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ProfileError) as caught:
        load_profile(str(path))
    return caught.value.problems


def only_problem(path: Path) -> str:
    problems = problems_of(path)
    assert len(problems) == 1, problems
    return problems[0]


# -- the shipped profiles ------------------------------------------------------


def test_list_profiles_names_every_shipped_file() -> None:
    assert list_profiles() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_profile_loads_and_fits_its_own_games(name: str) -> None:
    profile = load_profile(name)
    assert profile.name == name
    assert len(set(profile.cells)) == len(profile.cells)
    for game in profile.games:
        assert check_fits(profile, game, profile.cells) == []


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_profile_pins_are_all_distinct(name: str) -> None:
    profile = load_profile(name)
    pins = list(profile.buttons.pins.values())
    if profile.matrix is not None:
        pins += [*profile.matrix.row_pins, *profile.matrix.column_pins]
    pins += [p for p in (profile.buzzer_pin, profile.led_pin) if p is not None]
    assert len(pins) == len(set(pins))
    assert not set(pins) & {0, 1, 2, 3}


def test_double_take_board_is_8_files_by_9_ranks_from_reds_corner() -> None:
    profile = load_profile("double-take-gpio")
    assert profile.matrix is not None
    assert len(profile.matrix.row_pins) == 9
    assert len(profile.matrix.column_pins) == 8
    assert profile.cells[0] == "a1"
    assert profile.cells[7] == "h1"
    assert profile.cells[8] == "a2"
    assert profile.cells[-1] == "h9"
    assert profile.buzzer_pin in (12, 13, 18, 19)
    assert profile.led_pin is not None
    assert not profile.simulated_only


def test_sim_is_the_real_double_take_board_marked_simulated_only() -> None:
    real = load_profile("double-take-gpio")
    sim = load_profile("sim")
    assert sim.simulated_only
    assert sim.name == "sim"
    assert sim.matrix == real.matrix
    assert sim.cells == real.cells
    assert sim.buttons == real.buttons
    assert (sim.buzzer_pin, sim.led_pin, sim.oled) == (real.buzzer_pin, real.led_pin, real.oled)


@pytest.mark.parametrize("name", ["rfid-15x15-pico", "occupancy-15x15-pico"])
def test_pico_boards_are_15_by_15_lettered_from_top_left(name: str) -> None:
    profile = load_profile(name)
    assert profile.serial is not None
    assert profile.serial.baudrate == 115200
    assert profile.serial.sensor == name.split("-", maxsplit=1)[0]
    assert profile.cells[:2] == ("A1", "B1")
    assert profile.cells[15] == "A2"
    assert profile.cells[-1] == "O15"
    assert "H8" in profile.cells
    expected = (
        {"dominoes"} if name.startswith("occupancy") else {"crosslet", "doublecross", "dominoes"}
    )
    assert set(profile.games) == expected


def test_doubles_wild_board_runs_row_then_column_from_3_and_has_no_led() -> None:
    profile = load_profile("doubles-wild-gpio")
    assert profile.cells[0] == "r3c3"
    assert profile.cells[1] == "r3c4"
    assert profile.cells[9] == "r4c3"
    assert profile.cells[-1] == "r11c11"
    assert profile.led_pin is None
    text = (Path(__file__).parents[2] / "wiring/profiles/doubles-wild-gpio.toml").read_text()
    assert "NO PIN LEFT FOR THE STATUS LED" in text


def test_unknown_profile_name_suggests_the_close_one() -> None:
    with pytest.raises(ProfileError) as caught:
        load_profile("double-take-gpi")
    assert "did you mean 'double-take-gpio'" in str(caught.value)


def test_missing_profile_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as caught:
        load_profile(str(tmp_path / "nowhere.toml"))
    assert "nowhere.toml" in caught.value.problems[0]
    assert "no such file" in caught.value.problems[0]


def test_user_profile_file_loads_with_defaults(write_profile: WriteProfile) -> None:
    profile = load_profile(str(write_profile()))
    assert profile.name == "test-board"
    assert profile.cells == ("a1", "b1", "c1", "a2", "b2", "c2")
    assert profile.matrix is not None and profile.matrix.scan_hz == 50.0
    assert profile.settle_ms == 150
    assert profile.buttons.bounce_time == 0.02
    assert profile.source.endswith("board.toml")


def test_error_is_a_value_error_with_a_summary(write_profile: WriteProfile) -> None:
    path = write_profile(edit("rotate = 0", "rotate = 9"))
    with pytest.raises(ValueError, match="1 problem"):
        load_profile(str(path))


# -- bad input: one message each, naming file and key ---------------------------


def test_toml_syntax_error_gives_the_line(write_profile: WriteProfile) -> None:
    path = write_profile(edit("roll = 10", "roll 10"))
    message = only_problem(path)
    assert str(path) in message
    line = VALID.splitlines().index("roll = 10") + 1
    assert f"line {line}, column" in message
    assert "TOML syntax error" in message


def test_missing_section_is_named(write_profile: WriteProfile) -> None:
    text = VALID.split("[buttons]")[0] + "[buzzer]" + VALID.split("[buzzer]")[1]
    message = only_problem(write_profile(text))
    assert "[buttons]: missing section" in message
    assert "board.toml" in message


def test_missing_button_is_named(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("back = 7\n", "")))
    assert "[buttons] back: missing key" in message
    assert "back = 7" in message


def test_missing_matrix_section_for_a_matrix_board(write_profile: WriteProfile) -> None:
    text = edit("[matrix]\nrow_pins = [4, 17]\ncolumn_pins = [23, 24, 25]\n", "")
    message = only_problem(write_profile(text))
    assert "[matrix]: missing section" in message


def test_unknown_key_suggests_the_close_name(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("roll = 10", "roll = 10\nrool = 12")))
    assert "[buttons] rool: unknown key" in message
    assert "did you mean 'roll'" in message


def test_unknown_section_suggests_the_close_name(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("[buzzer]", "[buzer]")))
    assert "[buzer]: unknown section" in message
    assert "'buzzer'" in message


def test_wrong_type_names_the_key_and_shows_an_example(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("ok = 8", 'ok = "8"')))
    assert "[buttons] ok:" in message
    assert "a string ('8')" in message
    assert "ok = 8" in message


def test_boolean_is_not_a_pin(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("pin = 18", "pin = true")))
    assert "[buzzer] pin:" in message


def test_pin_off_the_header_is_refused(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("row_pins = [4, 17]", "row_pins = [4, 28]")))
    assert "[matrix] row_pins[1]" in message
    assert "GPIO 28 is not on the Pi's 40-pin header" in message


def test_pin_used_twice_names_both_uses(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("ok = 8", "ok = 17")))
    assert "[buttons] ok" in message
    assert "already used by [matrix] row_pins[1] (matrix row 1)" in message
    assert "free: GPIO" in message


def test_button_on_i2c_pin_is_refused_while_the_oled_uses_i2c(
    write_profile: WriteProfile,
) -> None:
    message = only_problem(write_profile(edit("left = 9", "left = 3")))
    assert "[buttons] left" in message
    assert "I2C1, which the OLED uses" in message


def test_i2c_pin_is_free_when_the_oled_is_on_another_bus(write_profile: WriteProfile) -> None:
    text = edit("i2c_port = 1", "i2c_port = 3", edit("left = 9", "left = 3"))
    profile = load_profile(str(write_profile(text)))
    assert profile.buttons.pins["left"] == 3


@pytest.mark.parametrize("pin", [0, 1])
def test_id_eeprom_pins_are_refused(write_profile: WriteProfile, pin: int) -> None:
    message = only_problem(write_profile(edit("pin = 14", f"pin = {pin}")))
    assert "[led] pin" in message
    assert "HAT ID EEPROM" in message


def test_explicit_cells_must_match_the_matrix_size(write_profile: WriteProfile) -> None:
    text = edit('cells = "files-ranks"', 'cells = ["x1", "x2", "x3", "x4", "x5"]')
    message = only_problem(write_profile(text))
    assert "[board] cells" in message
    assert "5 cells are listed but the matrix has 2 rows × 3 columns = 6 sensors" in message


def test_explicit_cells_must_be_distinct(write_profile: WriteProfile) -> None:
    text = edit('cells = "files-ranks"', 'cells = ["x1", "x2", "x3", "x4", "x5", "x1"]')
    assert "listed more than once: x1" in only_problem(write_profile(text))


def test_explicit_cells_are_taken_in_sensor_order(write_profile: WriteProfile) -> None:
    text = edit('cells = "files-ranks"', 'cells = ["f", "e", "d", "c", "b", "a"]')
    assert load_profile(str(write_profile(text))).cells == ("f", "e", "d", "c", "b", "a")


def test_unknown_cell_scheme_suggests_one(write_profile: WriteProfile) -> None:
    text = edit('cells = "files-ranks"', 'cells = "file-ranks"')
    assert "did you mean 'files-ranks'" in only_problem(write_profile(text))


def test_unknown_oled_driver_is_refused(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit('driver = "ssd1306"', 'driver = "ssd1309"')))
    assert "[oled] driver" in message
    assert "'ssd1309' is not a known value" in message


def test_sh1106_driver_is_accepted(write_profile: WriteProfile) -> None:
    text = edit('driver = "ssd1306"', 'driver = "sh1106"')
    assert load_profile(str(write_profile(text))).oled.driver == "sh1106"


def test_oled_address_must_be_3c_or_3d(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("i2c_address = 0x3C", "i2c_address = 0x27")))
    assert "[oled] i2c_address: 0x27" in message
    assert "0x3D" in message


def test_oled_rotate_must_be_0_to_3(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit("rotate = 0", "rotate = 4")))
    assert "[oled] rotate: 4 is out of range" in message
    assert "from 0 to 3" in message


def test_unknown_sensor_kind_is_refused(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(edit('sensor = "gpio-matrix"', 'sensor = "gpio"')))
    assert "[board] sensor" in message


def test_serial_section_on_a_matrix_board_is_refused(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile(VALID + '\n[serial]\nport = "/dev/ttyACM0"\n'))
    assert "[serial]" in message
    assert "only read when sensor = 'serial'" in message


def test_every_problem_is_reported_at_once(write_profile: WriteProfile) -> None:
    text = edit(
        "rotate = 0", "rotate = 7", edit("ok = 8", "ok = 17", edit("roll = 10", "rol = 10"))
    )
    problems = problems_of(write_profile(text))
    joined = "\n".join(problems)
    assert len(problems) == 4, problems
    assert "[buttons] rol: unknown key" in joined
    assert "[buttons] roll: missing key" in joined
    assert "[buttons] ok" in joined
    assert "[oled] rotate" in joined


def test_bounce_time_zero_turns_debouncing_off(write_profile: WriteProfile) -> None:
    text = edit("back = 7\n", "back = 7\nbounce_time = 0\n")
    assert load_profile(str(write_profile(text))).buttons.bounce_time is None


def test_serial_board_takes_its_size_from_the_serial_section(write_profile: WriteProfile) -> None:
    text = (
        VALID.split("[matrix]")[0]
        .replace("gpio-matrix", "serial")
        .replace("files-ranks", "letters-numbers")
    )
    text += '[serial]\nport = "loop://"\nrows = 3\ncolumns = 2\nsensor = "rfid"\n'
    text += "[buttons]" + VALID.split("[buttons]")[1]
    profile = load_profile(str(write_profile(text)))
    assert profile.cells == ("A1", "B1", "A2", "B2", "A3", "B3")
    assert profile.serial is not None and profile.serial.sensor == "rfid"
    assert profile.matrix is None


# -- extends -------------------------------------------------------------------


def test_extends_a_shipped_profile_and_overrides_keys(write_profile: WriteProfile) -> None:
    path = write_profile('extends = "double-take-gpio"\n[oled]\ndriver = "sh1106"\nrotate = 2\n')
    profile = load_profile(str(path))
    base = load_profile("double-take-gpio")
    assert profile.oled.driver == "sh1106"
    assert profile.oled.rotate == 2
    assert profile.oled.i2c_address == base.oled.i2c_address
    assert profile.matrix == base.matrix
    assert profile.name == "board"


def test_extends_a_file_beside_the_profile(write_profile: WriteProfile) -> None:
    write_profile(name="base.toml")
    path = write_profile('extends = "base.toml"\n[board]\nname = "child"\n', name="child.toml")
    profile = load_profile(str(path))
    assert profile.name == "child"
    assert profile.cells == ("a1", "b1", "c1", "a2", "b2", "c2")


def test_problem_in_an_inherited_key_names_the_file_it_came_from(
    write_profile: WriteProfile,
) -> None:
    write_profile(edit("rotate = 0", "rotate = 5"), name="base.toml")
    path = write_profile('extends = "base.toml"\n', name="child.toml")
    message = only_problem(path)
    assert message.startswith(str(path.parent / "base.toml"))
    assert "[oled] rotate" in message


def test_extends_cycle_is_rejected(write_profile: WriteProfile) -> None:
    write_profile('extends = "b.toml"\n' + VALID, name="a.toml")
    path = write_profile('extends = "a.toml"\n', name="b.toml")
    message = only_problem(path)
    assert "leads back" in message
    assert "b.toml → " in message


def test_extends_itself_is_rejected(write_profile: WriteProfile) -> None:
    path = write_profile('extends = "self.toml"\n' + VALID, name="self.toml")
    assert "leads back" in only_problem(path)


def test_extends_an_unknown_profile_is_named(write_profile: WriteProfile) -> None:
    message = only_problem(write_profile('extends = "sim-board"\n'))
    assert "board.toml: extends" in message
    assert "no shipped profile is called 'sim-board'" in message


# -- check_fits ----------------------------------------------------------------


def double_take_cells(rows: int) -> list[str]:
    return [f"{f}{r}" for r in range(1, rows + 1) for f in "abcdefgh"]


def test_check_fits_accepts_double_take_with_9_ranks() -> None:
    assert check_fits(load_profile("double-take-gpio"), "double-take", double_take_cells(9)) == []


def test_check_fits_accepts_double_take_with_8_ranks() -> None:
    assert check_fits(load_profile("sim"), "double-take", double_take_cells(8)) == []


def test_check_fits_rejects_double_take_with_10_ranks() -> None:
    problems = check_fits(
        load_profile("double-take-gpio"),
        "double-take",
        double_take_cells(10),
        settings={"rows": 10},
    )
    assert len(problems) == 1
    assert "the board has 8×9 sensors but double-take with rows=10 needs 80" in problems[0]
    assert "a10" in problems[0]


def test_check_fits_rejects_a_game_the_board_is_not_made_for() -> None:
    cells = [f"{c}{r}" for r in range(1, 16) for c in "ABCDEFGHIJKLMNO"]
    problems = check_fits(load_profile("double-take-gpio"), "crosslet", cells)
    assert any("not 'crosslet'" in p and "rfid-15x15-pico" in p for p in problems)
    assert any("needs 225" in p for p in problems)


def test_check_fits_names_cells_a_board_lacks_even_when_it_is_big_enough() -> None:
    cells = [f"r{r}c{c}" for r in range(3, 12) for c in range(3, 12)]
    problems = check_fits(load_profile("rfid-15x15-pico"), "doubles-wild", cells)
    assert any("81 of the 81 cells doubles-wild uses have no sensor" in p for p in problems)


# -- [timing] ------------------------------------------------------------------


def test_timing_defaults_follow_the_kind_of_board() -> None:
    rfid = load_profile("rfid-15x15-pico").timing
    occupancy = load_profile("occupancy-15x15-pico").timing
    gpio = load_profile("double-take-gpio").timing
    # The RFID board scans its switches as the occupancy board does, and reads a tag
    # through the multiplexer where one changed, the field on for each read.
    assert rfid.debounce_ms == occupancy.debounce_ms == 30
    assert rfid.scan_ms == occupancy.scan_ms == pytest.approx(225 * 0.033)
    assert occupancy.power_up_ms == 0 and rfid.power_up_ms == 3
    assert gpio.loop_us == 0 and gpio.debounce_ms == 0
    assert rfid.read_us(bytes(7)) == 50 + 3000 + 132 * 40
    assert rfid.read_us(None) == 50 + 3000 + 36 * 40
    # A sweep: the switches, the loop, and a line of 15 long tags read.
    scan = 225 * 33 + 300
    assert rfid.sweep_s(225, rfid=True) == pytest.approx((scan + 15 * (3050 + 171 * 40)) / 1e6)
    assert occupancy.sweep_s(225, rfid=False) == pytest.approx(scan / 1e6)


def test_timing_takes_a_builders_measured_figures(write_profile: WriteProfile) -> None:
    text = VALID + "\n[timing]\nscan_ms = 2.5\ntransfers_tag = [70, 110, 150]\npower_up_ms = 5\n"
    timing = load_profile(str(write_profile(text))).timing
    assert timing.scan_ms == 2.5 and timing.transfers_tag == (70, 110, 150)
    assert timing.read_us(bytes(4)) == timing.switch_us + 5000 + 70 * timing.transfer_us


def test_timing_mistakes_are_named_with_what_to_write(write_profile: WriteProfile) -> None:
    text = VALID + "\n[timing]\ntransfer_uss = 30\nscan_ms = -1\ntransfers_tag = [1, 2]\n"
    problems = problems_of(write_profile(text))
    assert any(
        "[timing] transfer_uss: unknown key; did you mean 'transfer_us'" in p for p in problems
    )
    assert any("[timing] scan_ms: -1 is out of range" in p for p in problems)
    assert any(
        "[timing] transfers_tag" in p and "transfers_tag = [135, 178, 221]" in p for p in problems
    )
    assert len(problems) == 3
