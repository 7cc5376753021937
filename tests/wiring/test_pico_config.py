"""``wiring/pico.py``'s pin list (what the wiring table, the diagram and the netlist
use) agrees with the firmware's shipped ``config.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from wiring import pico
from wiring.loader import load_profile

CONFIG = Path(__file__).parents[2] / "firmware_bridge/firmware/config.py"


def shipped_config() -> dict[str, Any]:
    config: dict[str, Any] = {}
    exec(CONFIG.read_text(encoding="utf-8"), config)
    return {k: v for k, v in config.items() if k.isupper()}


PINS = (
    "MATRIX_SCK", "MATRIX_MOSI", "MATRIX_MISO", "ROW_LATCH", "COLUMN_LOAD", "RFID_SCK",
    "RFID_MOSI", "RFID_MISO", "RFID_CS", "RFID_RST", "RFID_SELECT", "RECOVERY_PIN",
    "ANTENNA_SER", "ANTENNA_SRCK", "ANTENNA_RCK", "ANTENNA_G",
)  # fmt: skip


@pytest.mark.parametrize("name", PINS)
def test_every_pin_is_the_one_config_py_gives(name: str) -> None:
    assert getattr(pico, name) == shipped_config()[name]


def test_the_uart_link_and_the_rfid_board_are_config_py_s() -> None:
    config = shipped_config()
    assert (config["UART_TX"], config["UART_RX"]) == pico.UART_LINK
    assert config["RFID_BOARD"] == pico.RFID_BOARDS[0] == "rowcol"


def test_the_row_and_column_board_lists_every_pin_its_firmware_drives() -> None:
    config = shipped_config()
    used = pico.firmware_pins("rfid")
    for name in ("RFID_SCK", "RFID_MOSI", "RFID_MISO", "RFID_CS", "RFID_RST"):
        assert config[name] in used, name
    for name in ("ANTENNA_SER", "ANTENNA_SRCK", "ANTENNA_RCK", "ANTENNA_G"):
        assert used[config[name]] == "the TPIC6B595 antenna chain", name
    assert not set(config["RFID_SELECT"]) & set(used)  # the older board's select lines
    listed = {p.name for p in pico.pico_pins(load_profile("rfid-15x15-pico"))}
    assert {f"GP{gp}" for gp in (10, 11, 12, 13, 14, 21, 26, 27, 28)} <= listed
    assert not {f"GP{gp}" for gp in config["RFID_SELECT"]} & listed
    with pytest.raises(ValueError, match="no RFID board 'coils'"):
        pico.firmware_pins("rfid", "coils")
