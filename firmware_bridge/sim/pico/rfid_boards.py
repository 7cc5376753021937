"""The RFID electronics of a simulated serial board, built from the firmware's config:
the row and column antennas of the boards docs/rf.md designs (``"rowcol"``: one
TRF7962A, a TPIC6B595 chain), or the older board's MFRC522 behind analog
multiplexers (``"mux"``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wiring.profile import Timing

from .fake_antenna_mux import AntennaMuxBoard
from .fake_card import Card, CardError
from .fake_machine import Bench
from .fake_rowcol import UID_BYTES, RowColumnBoard
from .pty_line import SimulatedBoardError
from .sim_config import ANTENNA_SETTLE_US, select_pins

RFID_BOARDS = ("rowcol", "mux")


def default_board(sensor: str) -> str | None:
    """The RFID board a simulated board of ``sensor`` has: the row and column antennas
    under switches (the RFID profiles), the multiplexed readers for a board of readers
    alone, none on a board of switches."""
    if sensor == "occupancy+rfid":
        return "rowcol"
    if sensor == "rfid":
        return "mux"
    return None


def board_kind(sensor: str, asked: str | None) -> str | None:
    """The RFID board of a simulated board of ``sensor``: ``asked``, or the default."""
    kind = default_board(sensor) if asked is None or sensor == "occupancy" else asked
    if kind is not None and (kind not in RFID_BOARDS or (sensor == "rfid" and kind != "mux")):
        raise SimulatedBoardError(f"no {asked!r} RFID board for sensor {sensor!r}")
    return kind


def parse_tag(kind: str | None, tag: str) -> bytes:
    """The UID ``tag`` (hex) names, checked against what the cards of board ``kind``
    can carry."""
    try:
        uid = bytes.fromhex(tag)
    except ValueError:
        raise SimulatedBoardError(f"tag {tag!r} is not hex digits") from None
    if not 4 <= len(uid) <= 10:
        raise SimulatedBoardError(f"tag {tag!r} must be 4 to 10 bytes long")
    if kind == "rowcol" and len(uid) != UID_BYTES:
        raise SimulatedBoardError(
            f"tag {tag!r}: an ISO/IEC 15693 UID has {UID_BYTES} bytes, not {len(uid)}"
        )
    if kind == "mux":
        try:
            Card(uid)
        except CardError as exc:
            raise SimulatedBoardError(f"tag {tag!r}: {exc}") from None
    return uid


def build_rfid(
    bench: Bench,
    config: Any,
    rows: int,
    columns: int,
    kind: str,
    timing: Timing | None,
    charge: Callable[[float], None],
) -> AntennaMuxBoard | RowColumnBoard:
    """The RFID board ``kind`` on ``bench``, wired as ``config`` (the firmware's config
    namespace, completed here) says. On the row and column board every time the real
    parts take is charged to ``charge`` given the profile's ``timing``: the reader's air
    time, its SPI transactions (``transfer_us``), each antenna switch (``switch_us``),
    the tags' power-up (``power_up_ms``) and the released antenna's settling (config.py's
    ANTENNA_SETTLE_US) each time the field comes on."""
    if kind == "mux":
        config.RFID_BOARD = "mux"
        config.RFID_SELECT = select_pins(rows * columns)
        return AntennaMuxBoard(
            bench,
            spi_bus=config.RFID_SPI,
            cs_pin=config.RFID_CS,
            select_pins=config.RFID_SELECT,
            cells=rows * columns,
            reset_pin=config.RFID_RST,
        )
    config.RFID_BOARD = "rowcol"
    config.ANTENNAS = rows + columns
    return RowColumnBoard(
        bench,
        rows=rows,
        columns=columns,
        spi_bus=config.RFID_SPI,
        cs_pin=config.RFID_CS,
        ser_pin=config.ANTENNA_SER,
        srck_pin=config.ANTENNA_SRCK,
        rck_pin=config.ANTENNA_RCK,
        g_pin=config.ANTENNA_G,
        enable_pin=config.RFID_RST,
        antennas=config.ANTENNAS,
        charge=charge if timing is not None else None,
        transfer_s=timing.transfer_us / 1e6 if timing is not None else 0.0,
        switch_s=timing.switch_us / 1e6 if timing is not None else 0.0,
        power_up_s=timing.power_up_ms / 1e3 if timing is not None else 0.0,
        settle_s=ANTENNA_SETTLE_US / 1e6,
    )
