"""A stand-in for MicroPython's ``machine`` module, wired to a simulated board.

The fake works at the electrical level: the firmware drives pins and clocks bytes
over SPI exactly as on the Pico, and the :class:`ShiftRegisterMatrix` on the bench
answers as chained 74HC595s (rows) and 74HC165s (columns) with a switch and a
diode at every crossing would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

PinListener = Callable[[int, int], None]


class SpiDevice(Protocol):
    def transfer(self, out: int) -> int:
        """Clock one byte out on MOSI and return the byte read on MISO."""
        ...


class Bench:
    """The electronics around one fake Pico: pin levels, listeners, SPI devices."""

    def __init__(self) -> None:
        self.levels: dict[int, int] = {}
        self.listeners: dict[int, list[PinListener]] = {}
        self.spi_devices: dict[int, list[SpiDevice]] = {}
        self.watchdog_feeds = 0

    def set_level(self, pin: int, level: int) -> None:
        old = self.levels.get(pin)
        self.levels[pin] = level
        if old != level:
            for listener in self.listeners.get(pin, []):
                listener(pin, level)

    def listen(self, pin: int, listener: PinListener) -> None:
        self.listeners.setdefault(pin, []).append(listener)

    def attach_spi(self, bus: int, device: SpiDevice) -> None:
        self.spi_devices.setdefault(bus, []).append(device)

    def transfer(self, bus: int, out: int) -> int:
        # Every device on the bus sees the clock; MISO is the AND of open outputs.
        result = 0xFF
        for device in self.spi_devices.get(bus, []):
            result &= device.transfer(out)
        return result


class FakeMachine:
    """A ``machine`` module bound to one :class:`Bench`: ``Pin``, ``SPI``, ``WDT``."""

    def __init__(self, bench: Bench | None = None) -> None:
        self.bench = bench if bench is not None else Bench()
        owner = self

        class Pin:
            IN = 0
            OUT = 1
            OPEN_DRAIN = 2
            PULL_UP = 1
            PULL_DOWN = 2

            def __init__(
                self, id: int, mode: int = -1, pull: int = -1, *, value: int | None = None
            ) -> None:
                self.id = id
                self.mode = mode
                if value is not None:
                    owner.bench.set_level(id, 1 if value else 0)
                elif pull == Pin.PULL_UP and id not in owner.bench.levels:
                    owner.bench.set_level(id, 1)

            def value(self, level: int | None = None) -> int:
                if level is None:
                    return owner.bench.levels.get(self.id, 0)
                owner.bench.set_level(self.id, 1 if level else 0)
                return 0

            def __call__(self, level: int | None = None) -> int:
                return self.value(level)

            def on(self) -> None:
                self.value(1)

            def off(self) -> None:
                self.value(0)

        class SPI:
            MSB = 0
            LSB = 1

            def __init__(self, id: int, baudrate: int = 1_000_000, **_settings: object) -> None:
                self.id = id
                self.baudrate = baudrate

            def write(self, buf: Iterable[int]) -> None:
                for byte in buf:
                    owner.bench.transfer(self.id, byte)

            def read(self, nbytes: int, write: int = 0x00) -> bytes:
                return bytes(owner.bench.transfer(self.id, write) for _ in range(nbytes))

            def readinto(self, buf: bytearray, write: int = 0x00) -> None:
                for i in range(len(buf)):
                    buf[i] = owner.bench.transfer(self.id, write)

            def write_readinto(self, out: bytes, into: bytearray) -> None:
                for i, byte in enumerate(out):
                    into[i] = owner.bench.transfer(self.id, byte)

        class WDT:
            def __init__(self, id: int = 0, timeout: int = 5000) -> None:
                self.timeout = timeout

            def feed(self) -> None:
                owner.bench.watchdog_feeds += 1

        self.Pin = Pin
        self.SPI = SPI
        self.WDT = WDT


class ShiftRegisterMatrix:
    """A switch matrix behind 74HC595 row drivers and 74HC165 column readers.

    Wiring as ``firmware/scanners.py`` expects: row ``r`` on output ``r % 8`` of
    the ``r // 8``-th 595, column ``c`` on input ``c % 8`` of the ``c // 8``-th 165,
    a diode per switch, columns pulled up (or down when not ``active_low``).
    ``closed`` holds the cell indices (``row * columns + column``) pressed now.
    """

    def __init__(
        self,
        bench: Bench,
        *,
        spi_bus: int,
        latch_pin: int,
        load_pin: int,
        rows: int,
        columns: int,
        active_low: bool = True,
    ) -> None:
        self.rows = rows
        self.columns = columns
        self.active_low = active_low
        self.closed: set[int] = set()
        self._row_bits = 8 * ((rows + 7) // 8)
        self._column_bits = 8 * ((columns + 7) // 8)
        self._shift_595 = 0
        self._outputs_595 = (1 << self._row_bits) - 1 if active_low else 0
        self._shift_165 = 0
        self._loading = False
        self._bench = bench
        bench.attach_spi(spi_bus, self)
        bench.listen(latch_pin, self._on_latch)
        bench.listen(load_pin, self._on_load)

    def _driven_rows(self) -> list[int]:
        driven = []
        for r in range(self.rows):
            level = (self._outputs_595 >> r) & 1
            if level == (0 if self.active_low else 1):
                driven.append(r)
        return driven

    def _column_inputs(self) -> int:
        idle = 1 if self.active_low else 0
        word = ((1 << self._column_bits) - 1) if idle else 0
        for r in self._driven_rows():
            for c in range(self.columns):
                if r * self.columns + c in self.closed:
                    word = word & ~(1 << c) if idle else word | (1 << c)
        return word

    def _on_latch(self, _pin: int, level: int) -> None:
        if level:  # RCLK rising edge copies the shift register to the outputs
            self._outputs_595 = self._shift_595

    def _on_load(self, _pin: int, level: int) -> None:
        self._loading = level == 0
        if self._loading:
            self._load_165()

    def _load_165(self) -> None:
        # The chain shifts out the nearest 165 first, input H (bit 7) first.
        inputs = self._column_inputs()
        word = 0
        for chip in range(self._column_bits // 8):
            word = (word << 8) | ((inputs >> (8 * chip)) & 0xFF)
        self._shift_165 = word

    def transfer(self, out: int) -> int:
        mask = (1 << self._row_bits) - 1
        self._shift_595 = ((self._shift_595 << 8) | out) & mask
        if self._loading:
            self._load_165()
        top = self._column_bits - 8
        result = (self._shift_165 >> top) & 0xFF
        self._shift_165 = (self._shift_165 << 8) & ((1 << self._column_bits) - 1)
        return result


class FakeReaders:
    """Tag reads answered per cell from ``tags``, as the firmware's ``AntennaMux``
    would with every tag in reach: for tests of the scanners' logic alone."""

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.tags: dict[int, bytes] = {}
        self.reads = 0
        self.problem: str | None = None

    def check(self, _now: int) -> bool:
        return self.problem is None

    def census(self) -> list[tuple[int, int, str]]:
        return [(0, 0x92, "MFRC522 v2.0")]

    def read_uid(self, index: int) -> bytes | None:
        self.reads += 1
        return self.tags.get(index)


class FakeNeoPixel:
    """MicroPython's ``neopixel.NeoPixel`` on the bench: ``chain[i] = (r, g, b)`` sets
    one LED in the buffer, ``write()`` sends it; ``shown`` is what the LEDs show."""

    def __init__(self, pin: object, n: int) -> None:
        self.pin = pin
        self.n = n
        self.buf: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.shown: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.writes = 0

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, value: tuple[int, int, int]) -> None:
        self.buf[index] = (value[0], value[1], value[2])

    def __getitem__(self, index: int) -> tuple[int, int, int]:
        return self.buf[index]

    def write(self) -> None:
        self.shown = list(self.buf)
        self.writes += 1


class FakeNeoPixels:
    """``make`` for the firmware's ``leds.Chain`` on the bench: builds
    :class:`FakeNeoPixel` chains and keeps the newest to read back."""

    def __init__(self, machine: FakeMachine) -> None:
        self.machine = machine
        self.chain: FakeNeoPixel | None = None

    def __call__(self, pin: int, n: int) -> FakeNeoPixel:
        self.chain = FakeNeoPixel(self.machine.Pin(pin, 1), n)
        return self.chain

    def shown(self) -> list[tuple[int, int, int]]:
        """What the chain shows, one (r, g, b) per LED (none before it is set up)."""
        return list(self.chain.shown) if self.chain is not None else []
