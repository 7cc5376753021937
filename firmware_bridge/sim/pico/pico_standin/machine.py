"""A stand-in for the Pico's ``machine`` module, for the MicroPython unix port.

It runs inside MicroPython, beside the unchanged firmware files, and models the
board's electronics the firmware drives: the pins and buses, the USB serial and the
watchdog, and the 74HC595/74HC165 switch matrix (``standin_reader.py`` holds the
MFRC522 and its cards; firmware_bridge/sim/pico/fake_machine.py and fake_mfrc522.py
are the CPython models of the same parts, with the data sheet references). ``board``
holds what lies on the squares; ``simpico.py`` sets it from the host.
"""

import os


class Bench:
    def __init__(self):
        self.levels = {}
        self.listeners = {}
        self.spi = {}
        self.feeds = 0
        self.stalled_ms = 0
        """Time the Pico's loop has spent waiting on the USB serial, in ms."""
        self.watchdog = None

    def set_level(self, pin, level):
        old = self.levels.get(pin)
        self.levels[pin] = level
        if old != level:
            for listener in self.listeners.get(pin, ()):
                listener(pin, level)

    def listen(self, pin, listener):
        self.listeners.setdefault(pin, []).append(listener)


bench = Bench()
_low = os.getenv("TABLETOP_PINS_LOW") or ""
for _p in _low.split(","):
    if _p:
        bench.levels[int(_p)] = 0


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if value is not None:
            bench.set_level(id, 1 if value else 0)
        elif pull == Pin.PULL_UP and id not in bench.levels:
            bench.set_level(id, 1)

    def value(self, level=None):
        if level is None:
            return bench.levels.get(self.id, 0)
        bench.set_level(self.id, 1 if level else 0)
        return 0

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SPI:
    MSB = 0

    def __init__(self, id, baudrate=1000000, **settings):
        self.id = id

    def _transfer(self, out):
        device = bench.spi.get(self.id)
        return device.transfer(out) if device is not None else 0xFF

    def write(self, buf):
        for byte in buf:
            self._transfer(byte)

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = self._transfer(write)

    def read(self, n, write=0):
        return bytes(self._transfer(write) for _ in range(n))


class WatchdogReset(Exception):
    """The watchdog went this long unfed: the Pico resets."""


class WDT:
    """The RP2040's watchdog: it resets the Pico when ``timeout`` ms pass unfed.

    The simulated passes cost nothing of their own here (the host steps the loop,
    and the time between two steps is a Pico's loop running on); what is counted
    is the time the loop spends waiting on the USB serial (``UsbCdc``)."""

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self._fed = bench.stalled_ms
        bench.watchdog = self

    def feed(self):
        bench.feeds += 1
        self.check()
        self._fed = bench.stalled_ms

    def check(self):
        late = bench.stalled_ms - self._fed
        if late > self.timeout:
            raise WatchdogReset("the watchdog went %d ms unfed (timeout %d ms)" % (late, self.timeout))


class UsbCdc:
    """The Pico's USB serial as MicroPython's rp2 port drives it, its host end the
    process's stdout (the pty, whose buffer stands in for the Pi's).

    A write fills TinyUSB's transmit FIFO (``CFG_TUD_CDC_TX_BUFSIZE``, 256 bytes,
    shared/tinyusb/tusb_config.h) and the host takes from it what it reads; with no
    room, the write waits up to ``MICROPY_HW_USB_CDC_TX_TIMEOUT`` (500 ms,
    ports/rp2/mphalport.h) and gives up with what it wrote (``mp_usbd_cdc_tx_strn``).
    The host is stepped in lock step and reads nothing meanwhile, so a wait here
    always runs out: its 500 ms go to ``bench.stalled_ms``, which the watchdog counts.
    ``select.poll`` reports room as the rp2 port does: a byte or more free."""

    FIFO = 256
    TIMEOUT_MS = 500
    HOST_HOLDS = 4095
    """The most bytes the Pi's end holds unread: its tty's line discipline buffer
    (N_TTY_BUF_SIZE, 4096, less one); past it the Pi's USB driver stops taking."""

    def __init__(self, stdin, stdout):
        import select

        self._in = stdin.buffer
        self._out = stdout.buffer
        self._poll = select.poll()
        self._poll.register(stdin, select.POLLIN)
        self.fifo = bytearray(self.FIFO)
        self.level = 0
        self.written = 0
        """Bytes that reached the host's end."""
        self.waits = 0
        self._room = self.HOST_HOLDS

    def host_unread(self, count):
        """The host's end holds ``count`` bytes unread before this pass."""
        self._room = max(0, self.HOST_HOLDS - count)

    def _drain(self):
        level = min(self.level, self._room)
        if not level:
            return
        view = memoryview(self.fifo)
        taken = self._out.write(view[:level]) or 0
        if taken:
            self._room -= taken
            level = self.level
            view[: level - taken] = view[taken:level]
            self.level = level - taken
            self.written += taken

    def readable(self):
        return bool(self._poll.poll(0))

    def read(self, n):
        return self._in.read(n)

    def writable(self):
        self._drain()
        return self.level < self.FIFO

    def write(self, data):
        done = 0
        total = len(data)
        while done < total:
            self._drain()
            room = self.FIFO - self.level
            if not room:
                self.waits += 1
                bench.stalled_ms += self.TIMEOUT_MS
                if bench.watchdog is not None:
                    bench.watchdog.check()
                break
            take = min(room, total - done)
            self.fifo[self.level : self.level + take] = data[done : done + take]
            self.level += take
            done += take
        self._drain()
        return done


class UART:
    def __init__(self, *args, **kwargs):
        raise OSError("the stand-in board has no UART: use LINK = 'usb'")


class Matrix:
    """Chained 74HC595s drive the rows, chained 74HC165s read the columns."""

    def __init__(self, bus, latch, load, rows, columns, active_low=True):
        self.rows = rows
        self.columns = columns
        self.active_low = active_low
        self.closed = bytearray(rows * columns)
        """1 for each cell whose switch is closed."""
        self._row_bits = 8 * ((rows + 7) // 8)
        self._col_bits = 8 * ((columns + 7) // 8)
        self._shift = 0
        self._outputs = (1 << self._row_bits) - 1 if active_low else 0
        self._in = 0
        self._loading = False
        bench.spi[bus] = self
        bench.listen(latch, self._on_latch)
        bench.listen(load, self._on_load)

    def close_only(self, cells):
        """Close the switches of ``cells`` and open every other."""
        closed = self.closed
        for i in range(len(closed)):
            closed[i] = 0
        for i in cells:
            closed[i] = 1

    def _on_latch(self, pin, level):
        if level:
            self._outputs = self._shift

    def _on_load(self, pin, level):
        self._loading = level == 0
        if self._loading:
            self._load()

    def _load(self):
        driven = 0 if self.active_low else 1
        word = (1 << self._col_bits) - 1 if self.active_low else 0
        for r in range(self.rows):
            if (self._outputs >> r) & 1 != driven:
                continue
            base = r * self.columns
            for c in range(self.columns):
                if self.closed[base + c]:
                    word = word & ~(1 << c) if self.active_low else word | (1 << c)
        out = 0
        for chip in range(self._col_bits // 8):
            out = (out << 8) | ((word >> (8 * chip)) & 0xFF)
        self._in = out

    def transfer(self, out):
        self._shift = ((self._shift << 8) | out) & ((1 << self._row_bits) - 1)
        if self._loading:
            self._load()
        top = self._col_bits - 8
        result = (self._in >> top) & 0xFF
        self._in = (self._in << 8) & ((1 << self._col_bits) - 1)
        return result
