"""The byte link to the Pi: the Pico's USB serial or one of its UARTs."""


class UsbPort:
    """USB CDC serial through ``sys.stdin``/``sys.stdout``, read without blocking.

    Call ``micropython.kbd_intr(-1)`` first, or a 0x03 byte in a frame would stop
    the program.
    """

    def __init__(self, max_read=512):
        import select
        import sys

        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self.max_read = max_read

    def read(self):
        data = bytearray()
        while len(data) < self.max_read and self._poll.poll(0):
            data.extend(self._in.read(1))
        return data

    def write(self, data):
        self._out.write(data)


class UartPort:
    """A hardware UART (``machine.UART``)."""

    def __init__(self, uart, max_read=512):
        self.uart = uart
        self.max_read = max_read

    def read(self):
        if not self.uart.any():
            return b""
        return self.uart.read(self.max_read) or b""

    def write(self, data):
        self.uart.write(data)
