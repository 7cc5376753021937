"""The byte link to the Pi: the Pico's USB serial or one of its UARTs.

Writes never hold the main loop up for long. A frame written goes into an
``Outbox`` and each pass sends what the link takes (``flush``). MicroPython's USB
serial write waits up to 500 ms for room in the TinyUSB FIFO while the Pi holds the
port open without reading (``MICROPY_HW_USB_CDC_TX_TIMEOUT``, 500 ms, in
ports/rp2/mphalport.h; the wait in ``mp_usbd_cdc_tx_strn``,
shared/tinyusb/mp_usbd_cdc.c), so the port writes only while ``select.poll``
reports room (``tud_cdc_write_available() > 0``, the same file), and once a write
came back late or short it writes a byte at a time, which always fits, until the
outbox is empty again. At most one write of a pass can wait, once a stall begins:
500 ms, an eighth of the watchdog's 4 s. What the Pi does not read piles up in the
outbox up to ``limit`` bytes; past it the oldest frames that a later one repeats
(hello, snapshot parts, info, pong) are dropped first, then the oldest of any kind;
the Pi learns of a lost cell event from the event numbers and asks for a snapshot.
"""

try:
    from . import ticks
except ImportError:
    import ticks

# Frames whose news a later frame of the board repeats: hello, snapshot, pong, info
# (wire.HELLO, SNAPSHOT, PONG, INFO).
REPEATED = (0x01, 0x03, 0x06, 0x0A)
CHUNK = 64  # bytes per write while the link flows (the CDC endpoint's packet size)
SLOW_US = 2000  # a write that took longer waited for room: write a byte at a time


def frame_type(data):
    """The message type of an encoded frame: 00h, the COBS code byte, the protocol
    version, the type. Neither the version nor a type is ever 00h, so no COBS code
    byte comes between them."""
    return data[3] if len(data) > 3 else 0


class Outbox:
    """Frames waiting for the link, at most ``limit`` bytes of them, oldest first."""

    def __init__(self, limit=4096):
        self.limit = limit
        self.frames = []
        self.size = 0
        self.offset = 0  # bytes of the first frame already sent
        self.dropped = 0  # frames dropped to stay within the limit

    def put(self, data):
        self.frames.append(data)
        self.size += len(data)
        while self.size > self.limit and self._drop():
            pass

    def _drop(self):
        # The first frame is kept while partly sent: cut, it would corrupt the next.
        first = 1 if self.offset else 0
        frames = self.frames
        victim = -1
        for i in range(first, len(frames) - 1):
            if frame_type(frames[i]) in REPEATED:
                victim = i
                break
        if victim < 0:
            if len(frames) - 1 <= first:
                return False  # only the newest frame (and one in flight) left
            victim = first
        self.size -= len(frames.pop(victim))
        self.dropped += 1
        return True

    def head(self, most):
        """Up to ``most`` bytes from the start of what waits (a memoryview)."""
        data = self.frames[0]
        return memoryview(data)[self.offset : self.offset + most]

    def sent(self, count):
        """``count`` bytes of the first frame have gone."""
        self.offset += count
        self.size -= count
        if self.offset >= len(self.frames[0]):
            self.frames.pop(0)
            self.offset = 0


class StdioLink:
    """The USB CDC serial through ``sys.stdin``/``sys.stdout``, polled, never waited on."""

    def __init__(self):
        import select
        import sys

        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll_in = select.poll()
        self._poll_in.register(sys.stdin, select.POLLIN)
        self._poll_out = select.poll()
        self._poll_out.register(sys.stdout, select.POLLOUT)

    def readable(self):
        return bool(self._poll_in.poll(0))

    def read(self, n):
        return self._in.read(n)

    def writable(self):
        return bool(self._poll_out.poll(0))

    def write(self, data):
        """Bytes written (a short count, or None, when the link took less)."""
        return self._out.write(data)


class UsbPort:
    """USB CDC serial, read without blocking, written through an ``Outbox``.

    Call ``micropython.kbd_intr(-1)`` first, or a 0x03 byte in a frame would stop
    the program. ``link`` is the serial device (``StdioLink`` by default).
    """

    def __init__(self, max_read=512, limit=4096, link=None):
        self.link = link if link is not None else StdioLink()
        self.max_read = max_read
        self.outbox = Outbox(limit)
        self.careful = False  # writing a byte at a time since a write waited

    def read(self):
        data = bytearray()
        link = self.link
        while len(data) < self.max_read and link.readable():
            data.extend(link.read(1))
        return data

    def write(self, data):
        self.outbox.put(data)

    def flush(self):
        """Send what the link takes now; return the bytes sent."""
        outbox = self.outbox
        link = self.link
        sent = 0
        while outbox.frames and link.writable():
            chunk = outbox.head(1 if self.careful else CHUNK)
            began = ticks.ticks_us()
            count = link.write(chunk) or 0
            late = ticks.ticks_diff(ticks.ticks_us(), began) > SLOW_US
            outbox.sent(count)
            sent += count
            if count < len(chunk) or late:
                self.careful = True
                break
        if not outbox.frames:
            self.careful = False
        return sent


class UartPort:
    """A hardware UART (``machine.UART``): its driver buffers what it sends and a
    UART has no one to wait for, so its writes go straight out."""

    def __init__(self, uart, max_read=512):
        self.uart = uart
        self.max_read = max_read

    def read(self):
        if not self.uart.any():
            return b""
        return self.uart.read(self.max_read) or b""

    def write(self, data):
        self.uart.write(data)
