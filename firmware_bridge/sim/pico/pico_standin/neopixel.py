"""A stand-in for MicroPython's ``neopixel`` module in the unix port: a chain that
holds what the firmware wrote to it, for the simulated board to read back.

``NeoPixel(pin, n)`` as on the Pico: ``chain[i] = (r, g, b)`` sets one LED in the
buffer, ``write()`` sends the buffer to the LEDs; ``shown`` is what the LEDs show
since the last write (the buffer at that moment, red, green, blue per LED), and
``writes`` counts them. Both buffers are made once, as the real module makes its
one: a write allocates nothing, so the stand-in does not eat into the Pico-sized
heap the firmware is tested in.
"""

chains = []
"""Every chain built since boot, newest last."""


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.shown = bytearray(n * 3)
        self.writes = 0
        chains.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        at = index * self.bpp
        for i in range(self.bpp):
            self.buf[at + self.ORDER[i]] = value[i]

    def __getitem__(self, index):
        at = index * self.bpp
        return tuple(self.buf[at + self.ORDER[i]] for i in range(self.bpp))

    def fill(self, value):
        for i in range(self.n):
            self[i] = value

    def write(self):
        buf, shown, order, bpp = self.buf, self.shown, self.ORDER, self.bpp
        for i in range(self.n):
            at = i * bpp
            shown[3 * i] = buf[at + order[0]]
            shown[3 * i + 1] = buf[at + order[1]]
            shown[3 * i + 2] = buf[at + order[2]]
        self.writes += 1


def shown():
    """What the newest chain shows: red, green, blue per LED in chain order (empty
    before a chain is built)."""
    return chains[-1].shown if chains else b""
