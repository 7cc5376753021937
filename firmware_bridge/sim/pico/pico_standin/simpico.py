"""The simulated serial board's firmware, run by the MicroPython unix port.

``micropython simpico.py CONTROL_IN CONTROL_OUT``, with this folder, the firmware's
folder and the folder of the board's config.py on MICROPYPATH, and stdin/stdout
the firmware's end of the pty: the link, as the Pico's USB serial is. The host
(firmware_bridge/sim/pico/upy_firmware.py) drives it in lock step over the control
pipes, one line per command:

    C 1,5,9          the switches closed now (cell indices)
    T 5=DEADBEEF     the tags lying on the squares now
    S 1234 80        run one pass of the main loop at 1234 ms, the host's end of
                     the link holding 80 bytes unread
    L                what the LED chain shows
    Q                stop

and is answered ``R`` once booted (or ``X reason`` when recovery kept the loop
out), then after each pass ``D heap pass_us fields_on bytes_written stalled_ms
frames_dropped largest_free`` (``W why`` when the watchdog reset the Pico); ``L``
is answered ``L`` and the chain's colours, six hex digits an LED in chain order.

The heap. The process's heap holds the stand-in board besides the firmware, so it
is made larger than the Pico's by ``STANDIN_HEAP`` (the ``-X heapsize`` the host
gives), and what is not the firmware's is accounted apart: what the interpreter
and this file hold before anything of the board exists; what the stand-in board
holds, measured as it is built and at every change of the pieces (only the
stand-in runs then, so any change of the heap in use is its own); and ballast,
blocks taken so that what is left free for the firmware is the Pico's heap,
``PICO_HEAP`` bytes, whatever the stand-in holds. ``heap`` is then the firmware's
own heap in use after a collection, and ``largest_free`` the largest block it could
still allocate (found by trying, every ``PROBE_EVERY`` passes and whenever its
heap grew to a new peak; -1 in other passes).
"""

import gc

gc.collect()
_START = gc.mem_alloc()

import binascii  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import machine  # noqa: E402
import standin_reader  # noqa: E402
import standin_rowcol  # noqa: E402
import neopixel  # noqa: E402

PICO_HEAP = 192 * 1024
"""The heap the firmware gets: the RP2040 port's (docs/firmware.md, "Heap")."""
PROBE_EVERY = 64
BALLAST = 512

_in = open(sys.argv[1], "rb")
_out = open(sys.argv[2], "wb")


def _say(text):
    # Files of the unix port are unbuffered (and flush() fsyncs, which a pipe refuses).
    _out.write(text.encode() + b"\n")


def _board_config():
    # config.py is the firmware's; the few names the stand-in needs are read here
    # and the module let go, so it is counted once the firmware imports it.
    import config

    names = (
        config.SENSOR, config.MATRIX_SPI, config.ROW_LATCH, config.COLUMN_LOAD,
        config.ROWS, config.COLUMNS, config.ACTIVE_LOW, config.RFID_SPI, config.RFID_CS,
        config.RFID_SELECT, getattr(config, "RFID_BOARD", "mux"),
        (config.RFID_RST, config.ANTENNA_SER, config.ANTENNA_SRCK, config.ANTENNA_RCK,
         config.ANTENNA_G),
    )
    del sys.modules["config"]
    return names


class Apart:
    """The heap that is not the firmware's, and the ballast that keeps the firmware's
    free heap the Pico's."""

    def __init__(self):
        self.standin = 0
        self.ballast = []
        self.ballast_bytes = 0
        self.total = gc.mem_alloc() + gc.mem_free()

    def held(self):
        return _START + self.standin + self.ballast_bytes

    def balance(self, take=True):
        """Take or give back ballast so that the firmware is left PICO_HEAP bytes.
        Ballast is taken only at boot (``take``), in one run of blocks below the
        firmware's heap: taken later, its blocks would fall into the holes of the
        firmware's heap and fragment it. Later the stand-in only gives ballast back
        when it holds more; when it holds less, the firmware has those few bytes more."""
        gc.collect()
        spare = self.total - PICO_HEAP - self.held()
        while take and spare > BALLAST + 16:
            before = gc.mem_alloc()
            self.ballast.append(bytearray(BALLAST))
            taken = gc.mem_alloc() - before
            self.ballast_bytes += taken
            spare -= taken
        while spare < 0 and self.ballast:
            self.ballast.pop()
            before = gc.mem_alloc()
            gc.collect()
            given = before - gc.mem_alloc()
            self.ballast_bytes -= given
            spare += given

    def firmware(self):
        """The firmware's heap in use, after a collection."""
        gc.collect()
        return gc.mem_alloc() - self.held()


def largest_free():
    """The largest block that can be allocated now, in bytes (to 16)."""
    low, high = 0, gc.mem_free()
    while high - low > 16:
        middle = (low + high) // 2
        try:
            block = bytearray(middle)
        except MemoryError:
            high = middle
            continue
        del block
        low = middle
    return low


(SENSOR, MATRIX_SPI, ROW_LATCH, COLUMN_LOAD, ROWS, COLUMNS, ACTIVE_LOW, RFID_SPI, RFID_CS,
 RFID_SELECT, RFID_BOARD, ROWCOL_PINS) = _board_config()

matrix = None
reader = None
if SENSOR in ("occupancy", "occupancy+rfid"):
    matrix = machine.Matrix(MATRIX_SPI, ROW_LATCH, COLUMN_LOAD, ROWS, COLUMNS, ACTIVE_LOW)
if SENSOR == "occupancy+rfid" and RFID_BOARD == "rowcol":
    reader = standin_rowcol.RowColumnReader(RFID_SPI, RFID_CS, *ROWCOL_PINS, ROWS, COLUMNS)
elif SENSOR in ("rfid", "occupancy+rfid"):
    reader = standin_reader.MuxedReader(RFID_SPI, RFID_CS, RFID_SELECT, ROWS * COLUMNS)
cdc = machine.UsbCdc(sys.stdin, sys.stdout)
apart = Apart()


def _apply(line):
    kind = line[0]
    rest = line[2:].strip()
    items = rest.split(",") if rest else []
    if kind == "C" and matrix is not None:
        matrix.close_only(int(i) for i in items)
    elif kind == "T" and reader is not None:
        tags = {}
        for item in items:
            index, uid = item.split("=")
            tags[int(index)] = bytes.fromhex(uid)
        for index in reader.placed():
            if index not in tags:
                reader.lift(index)
        for index, uid in tags.items():
            reader.place(index, uid)


def _changed(line):
    """Change the pieces, the heap the stand-in holds counted apart as it changes."""
    gc.collect()
    before = gc.mem_alloc()
    _apply(line)
    gc.collect()
    apart.standin += gc.mem_alloc() - before
    apart.balance(take=False)


class Clock:
    """The main loop's clock: the host's simulated time, one pass per ``S`` line."""

    def __init__(self):
        self.calls = 0
        self.now = 0
        self.began = None
        self.peak = 0
        self.passes = 0

    def _report(self):
        spent = time.ticks_diff(time.ticks_us(), self.began)
        fields = reader.max_fields_on if reader is not None else 0
        # Measured after the pass was timed: what the firmware keeps alive.
        used = apart.firmware()
        largest = -1
        self.passes += 1
        if used > self.peak or self.passes % PROBE_EVERY == 0:
            self.peak = max(self.peak, used)
            largest = largest_free()
        dropped = getattr(getattr(port, "outbox", None), "dropped", 0)
        _say(
            "D %d %d %d %d %d %d %d"
            % (used, spent, fields, cdc.written, machine.bench.stalled_ms, dropped, largest)
        )

    def __call__(self):
        self.calls += 1
        if self.calls == 2:
            # runner.run reads the clock once to start and once for the first
            # pass: both at the host's first time.
            return self.now
        if self.began is not None:
            self._report()
        while True:
            line = _in.readline().decode()
            if not line:
                sys.exit(0)
            if line[0] == "S":
                fields = line.split()
                self.now = int(fields[1])
                if len(fields) > 2:
                    cdc.host_unread(int(fields[2]))
                self.began = time.ticks_us()
                return self.now
            if line[0] == "Q":
                sys.exit(0)
            if line[0] == "L":
                _say("L " + binascii.hexlify(neopixel.shown()).decode())
                continue
            _changed(line)


clock = Clock()
gc.collect()
apart.standin = gc.mem_alloc() - _START
apart.balance()

# From here on, what is allocated is the firmware's.
import config  # noqa: E402
import ports  # noqa: E402
import recovery  # noqa: E402
import runner  # noqa: E402


class WaitingPort(ports.UsbPort):
    """The port as the firmware had it before its outbox: each frame written at once,
    waiting as MicroPython's USB write waits (``TABLETOP_USB=waiting``), to show
    what a stalled host did to it."""

    def write(self, data):
        self.link.write(data)

    def flush(self):
        return 0


if os.getenv("TABLETOP_USB") == "waiting":
    port = WaitingPort(link=cdc)
else:
    port = ports.UsbPort(link=cdc)


if recovery.wanted(machine, config):
    _say("X recovery")
else:
    _say("R")
    try:
        runner.run(port=port, clock=clock)
    except machine.WatchdogReset as exc:
        _say("W %s" % exc)
        raise SystemExit(3)
    except Exception as exc:
        # The unix port prints an uncaught exception on stdout, the link: say it here.
        sys.print_exception(exc, sys.stderr)
        raise SystemExit(1)
