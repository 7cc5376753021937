"""The simulated serial board's firmware, run by the MicroPython unix port.

``micropython simpico.py CONTROL_IN CONTROL_OUT``, with this folder, the firmware's
folder and the folder of the board's config.py on MICROPYPATH, and stdin/stdout
the firmware's end of the pty: the link, as the Pico's USB serial is. The host
(firmware_bridge/sim/pico/upy_firmware.py) drives it in lock step over the control
pipes, one line per command:

    C 1,5,9          the switches closed now (cell indices)
    T 5=DEADBEEF     the tags lying on the squares now
    S 1234           run one pass of the main loop at 1234 ms
    L                what the LED chain shows
    Q                stop

and is answered ``R`` once booted (or ``X reason`` when recovery kept the loop
out), then after each pass ``D heap_used heap_free pass_us fields_on bytes_written``; ``L``
is answered ``L`` and the chain's colours, six hex digits an LED in chain order.
"""

import binascii
import gc
import sys
import time

import machine
import neopixel

import config
import ports
import recovery
import runner

_in = open(sys.argv[1], "rb")
_out = open(sys.argv[2], "wb")


def _say(text):
    # Files of the unix port are unbuffered (and flush() fsyncs, which a pipe refuses).
    _out.write(text.encode() + b"\n")


matrix = None
reader = None
if config.SENSOR in ("occupancy", "occupancy+rfid"):
    matrix = machine.Matrix(
        config.MATRIX_SPI, config.ROW_LATCH, config.COLUMN_LOAD, config.ROWS, config.COLUMNS,
        config.ACTIVE_LOW,
    )
if config.SENSOR in ("rfid", "occupancy+rfid"):
    reader = machine.MuxedReader(
        config.RFID_SPI, config.RFID_CS, config.RFID_SELECT, config.ROWS * config.COLUMNS
    )


def _apply(line):
    kind = line[0]
    rest = line[2:].strip()
    items = rest.split(",") if rest else []
    if kind == "C" and matrix is not None:
        matrix.closed = set(int(i) for i in items)
    elif kind == "T" and reader is not None:
        tags = {}
        for item in items:
            index, uid = item.split("=")
            tags[int(index)] = bytes.fromhex(uid)
        for index in list(reader.cards):
            if index not in tags:
                reader.lift(index)
        for index, uid in tags.items():
            reader.place(index, uid)


class CountingPort:
    """The firmware's own USB port, counting what it writes (the host waits for
    that many bytes to cross the pty)."""

    def __init__(self, port):
        self.port = port
        self.written = 0

    def read(self):
        return self.port.read()

    def write(self, data):
        self.written += len(data)
        self.port.write(data)


port = CountingPort(ports.UsbPort())


class Clock:
    """The main loop's clock: the host's simulated time, one pass per ``S`` line."""

    def __init__(self):
        self.calls = 0
        self.now = 0
        self.began = None

    def __call__(self):
        self.calls += 1
        if self.calls == 2:
            # runner.run reads the clock once to start and once for the first
            # pass: both at the host's first time.
            return self.now
        if self.began is not None:
            spent = time.ticks_diff(time.ticks_us(), self.began)
            fields = reader.max_fields_on if reader is not None else 0
            # Collected after the pass was timed: what the firmware keeps alive.
            gc.collect()
            _say("D %d %d %d %d %d" % (gc.mem_alloc(), gc.mem_free(), spent, fields, port.written))
        while True:
            line = _in.readline().decode()
            if not line:
                sys.exit(0)
            if line[0] == "S":
                self.now = int(line[2:])
                self.began = time.ticks_us()
                return self.now
            if line[0] == "Q":
                sys.exit(0)
            if line[0] == "L":
                _say("L " + binascii.hexlify(neopixel.shown()).decode())
                continue
            _apply(line)


if recovery.wanted(machine, config):
    _say("X recovery")
else:
    _say("R")
    try:
        runner.run(port=port, clock=Clock())
    except Exception as exc:
        # The unix port prints an uncaught exception on stdout, the link: say it here.
        sys.print_exception(exc, sys.stderr)
        raise SystemExit(1)
