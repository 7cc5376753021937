"""The LED chain of a serial board, driven from the host: a :class:`LightSink`.

Each cell lit is mapped to its LED by the profile's ``LedChain.chain`` and its
colour name to RGB by the palette, times the chain's brightness. Only the LEDs
that differ from what the board last acknowledged go out (LED messages,
docs/protocol.md), cut into runs and messages; a message not acknowledged within
:data:`RESEND_S` is given up and its LEDs, if still not as wanted, sent again. After
a (re)connect, a restart of the board or a chain whose check (the CRC its acks
carry) is not what the host believes, every LED is sent, dark ones included: a
full frame. With nothing to send, the chain's check is asked for every
:data:`CHECK_S`, so a lost frame or a rebooted Pico never leaves it wrong for long.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping

from firmware_bridge.link.board import SerialSensorBoard
from firmware_bridge.link.codec import led_parts
from firmware_bridge.link.framing import crc16
from firmware_bridge.link.messages import RGB, LedAck, LedRun, LedSet
from firmware_bridge.screen import palette
from hardware.clock import Clock
from wiring.profile import LedChain

log = logging.getLogger(__name__)

# Imported by name: the firmware is untyped MicroPython and stays outside mypy.
_firmware_leds = importlib.import_module("firmware_bridge.firmware.leds")

RESEND_S = 0.25
"""An LED message not acknowledged this long after it went out is sent again."""
CHECK_S = 2.0
"""How often the chain's check is asked for when nothing else is sent."""
DARK: RGB = (0, 0, 0)
PICO_PINS = 30
"""The Pico's GPIOs: GP0 to GP29."""


def idle_ma(count: int) -> int:
    """What ``count`` LEDs draw dark, by the firmware's current model."""
    return int(count * _firmware_leds.IDLE_MA)


def check_chain(chain: LedChain) -> None:
    """Raise ValueError, saying what to fix in the profile, when the firmware could not
    drive ``chain`` as given."""
    count = len(chain.chain)
    where = "the profile's [leds]"
    if not 0 < count <= _firmware_leds.MAX_LEDS:
        raise ValueError(f"{where} chain has {count} LEDs: list 1 to {_firmware_leds.MAX_LEDS}")
    if len(set(chain.chain)) != count:
        raise ValueError(f"{where} chain lists a cell twice: one LED per cell")
    if not 0 <= chain.pin < PICO_PINS:
        raise ValueError(f"{where} pin is GP{chain.pin}: the Pico has GP0 to GP{PICO_PINS - 1}")
    if not 0 <= chain.brightness <= 1:
        raise ValueError(f"{where} brightness is {chain.brightness}: give a share from 0 to 1")
    if not idle_ma(count) < chain.budget_ma <= 0xFFFF:
        raise ValueError(
            f"{where} budget_ma is {chain.budget_ma} mA but {count} LEDs draw "
            f"{idle_ma(count)} mA dark: give the power supply's spare current, above that"
        )


class SerialLights:
    """The LEDs under the squares of ``board``, wired as ``chain`` says."""

    def __init__(self, board: SerialSensorBoard, chain: LedChain, clock: Clock) -> None:
        check_chain(chain)
        self.board = board
        self.chain = chain
        self._clock = clock
        self._index = {cell: i for i, cell in enumerate(chain.chain)}
        count = len(chain.chain)
        self.wanted: list[RGB] = [DARK] * count
        self.shown: list[RGB | None] = [None] * count
        """What the board acknowledged showing, per LED; None: not known (full frame)."""
        self._flight: dict[int, tuple[float, dict[int, RGB]]] = {}
        self._token = 0
        self._last_check = float("-inf")
        self.share = 100
        """The % of the colours' brightness the firmware's current budget let through."""
        self.sent = 0
        """LED messages sent."""
        self._unlit: set[str] = set()
        self._dirty = True
        """Something may differ from what the chain will show: compare again."""
        board.lights = self

    def rgb(self, name: str) -> RGB:
        """The colour ``name`` as the chain gets it: the palette's RGB times brightness."""
        r, g, b = palette.rgb(name)
        k = self.chain.brightness
        return (round(r * k), round(g * k), round(b * k))

    def show_lights(self, lit: Mapping[str, str]) -> None:
        wanted = [DARK] * len(self.wanted)
        for cell, name in lit.items():
            index = self._index.get(cell)
            if index is None:
                if cell not in self._unlit:
                    self._unlit.add(cell)
                    log.warning("cell %s has no LED in the profile's [leds] chain", cell)
                continue
            wanted[index] = self.rgb(name)
        if wanted != self.wanted:
            self.wanted = wanted
            self._dirty = True
        self.pump(self._clock.now())

    def lit(self) -> dict[str, RGB]:
        """The cells the host wants lit, with their RGB."""
        return {
            cell: rgb
            for cell, rgb in zip(self.chain.chain, self.wanted, strict=True)
            if rgb != DARK
        }

    def forget(self) -> None:
        """The board's chain is not known any more: the next frame is a full one."""
        self.shown = [None] * len(self.shown)
        self._flight.clear()
        self._last_check = float("-inf")
        self._dirty = True

    def _expected(self) -> list[RGB | None]:
        """What the chain will show once every message on its way has arrived."""
        expected = list(self.shown)
        for _sent, entries in self._flight.values():
            for index, rgb in entries.items():
                expected[index] = rgb
        return expected

    def pump(self, now: float) -> None:
        """Send what differs from what the chain shows or will show; give up the
        messages not acknowledged in time; ask for a check when it is due."""
        if not self.board.transport.is_open:
            return
        for token, (sent, _entries) in list(self._flight.items()):
            if now - sent >= RESEND_S:
                del self._flight[token]
                self._dirty = True
        if self._dirty:
            # Called every poll of the board: the chain is compared only when
            # something changed, not every time.
            self._dirty = False
            expected = self._expected()
            changes = {i: rgb for i, rgb in enumerate(self.wanted) if expected[i] != rgb}
            for runs in led_parts(changes):
                self._send(now, runs)
        if not self._flight and now - self._last_check >= CHECK_S:
            self._send(now, ())

    def _send(self, now: float, runs: tuple[LedRun, ...]) -> None:
        self._token = (self._token + 1) & 0xFFFF
        entries = {
            index: run.rgb for run in runs for index in range(run.first, run.first + run.count)
        }
        chain = self.chain
        message = LedSet(self._token, chain.pin, len(chain.chain), chain.budget_ma, runs)
        if self.board.send(now, message):
            self._flight[self._token] = (now, entries)
            self._last_check = now
            self.sent += 1

    def on_ack(self, ack: LedAck) -> None:
        """The board showed LED message ``ack.token``: believe its LEDs are set."""
        flight = self._flight.pop(ack.token, None)
        if flight is None:
            return  # given up already, or from before a reconnect
        for index, rgb in flight[1].items():
            self.shown[index] = rgb
        self.share = ack.share
        if self._flight or None in self.shown:
            return
        believed = bytes(level for rgb in self.shown if rgb is not None for level in rgb)
        if crc16(believed) != ack.check:
            log.info("the LED chain is not as the host believes: sending every LED again")
            self.forget()
