"""The LED chain under the squares (WS2812B or SK6812 minis) and its current budget.

The host sends the colours (already scaled by the profile's brightness); the chain
holds them as set, and every frame written to the LEDs is first scaled down, all
LEDs by one factor, so that the chain's estimated current stays within the budget
the host gave. Kept free of anything MicroPython lacks: ``current_ma`` and ``scale``
are pure, and the host's tests check them on any frame.

The current model, per LED:

- ``CHANNEL_MA`` = 20 mA for one colour channel at full (level 255), in proportion
  below: the WS2812B's constant-current outputs as its datasheet gives them (about
  60 mA for an LED at full white). The SK6812 MINI's datasheet gives 12 mA a
  channel, so 20 mA is the cautious figure for either part.
- ``IDLE_MA`` = 1 mA per LED, dark or not: the controller's own quiescent draw
  (the datasheets give 0.5-1 mA).

A frame is a flat buffer of red, green, blue levels (0-255), three per LED, in
chain order.
"""

try:
    from . import wire
except ImportError:
    import wire

CHANNEL_MA = 20
IDLE_MA = 1
MAX_LEDS = 1024


def current_ma(pixels):
    """The estimated current, in mA, of the chain showing the frame ``pixels``."""
    return len(pixels) // 3 * IDLE_MA + sum(pixels) * CHANNEL_MA / 255


def level_limit(count, budget_ma):
    """The largest sum of channel levels ``count`` LEDs may show within ``budget_ma``
    (0 when the budget does not even cover their idle draw)."""
    return max(0, (budget_ma - count * IDLE_MA) * 255 // CHANNEL_MA)


def scale(pixels, budget_ma):
    """The frame ``pixels`` scaled down, every level by one factor, so its estimated
    current is at most ``budget_ma``; a copy of it unchanged when it already is.
    A budget below the LEDs' idle draw leaves them all dark."""
    return scale_into(pixels, budget_ma, bytearray(len(pixels)))


def scale_into(pixels, budget_ma, out):
    """``scale`` written into ``out`` (a bytearray as long as ``pixels``), which it
    returns: the chain scales every frame into one buffer made once."""
    total = sum(pixels)
    limit = level_limit(len(pixels) // 3, budget_ma)
    if total <= limit:
        out[:] = pixels
        return out
    for i in range(len(pixels)):
        out[i] = pixels[i] * limit // total
    return out


def share(pixels, budget_ma):
    """How much of the frame's brightness the budget lets through, in % (0-100)."""
    total = sum(pixels)
    limit = level_limit(len(pixels) // 3, budget_ma)
    if total <= limit:
        return 100
    return 100 * limit // total


class Chain:
    """The chain as the host set it: ``make(pin, count)`` builds the driver, a
    ``neopixel.NeoPixel`` (or a stand-in) with ``chain[i] = (r, g, b)`` and ``write()``.

    ``colours`` holds the frame as set; ``check`` is its CRC-16, which every LED ack
    carries so the host can tell a chain that is not what it believes.
    """

    def __init__(self, make):
        self._make = make
        self.driver = None
        self.pin = None
        self.count = 0
        self.budget_ma = 0
        self.colours = bytearray()
        self._shown = bytearray()
        self.check = wire.crc16(self.colours)
        self.share = 100
        self.dirty = False

    def set_up(self, pin, count, budget_ma):
        """Drive ``count`` LEDs on GPIO ``pin`` within ``budget_ma``; a new pin or count
        starts a dark chain. Raises ValueError for a chain too long or a bad pin."""
        if not 0 < count <= MAX_LEDS:
            raise ValueError("%d LEDs: a chain has 1 to %d" % (count, MAX_LEDS))
        if (pin, count) != (self.pin, self.count):
            self.driver = self._make(pin, count)
            self.pin = pin
            self.count = count
            self.colours = bytearray(3 * count)
            self._shown = bytearray(3 * count)
            self.dirty = True
        if budget_ma != self.budget_ma:
            self.budget_ma = budget_ma
            self.dirty = True

    def apply(self, runs):
        """Set each run ``(first, count, r, g, b)`` of LEDs to its colour."""
        colours = self.colours
        for first, size, r, g, b in runs:
            for i in range(3 * first, 3 * (first + size), 3):
                if colours[i] != r or colours[i + 1] != g or colours[i + 2] != b:
                    colours[i] = r
                    colours[i + 1] = g
                    colours[i + 2] = b
                    self.dirty = True

    def show(self):
        """Write the frame, scaled to the budget, to the LEDs (when it changed)."""
        if not self.dirty or self.driver is None:
            return
        shown = scale_into(self.colours, self.budget_ma, self._shown)
        driver = self.driver
        for i in range(self.count):
            driver[i] = (shown[3 * i], shown[3 * i + 1], shown[3 * i + 2])
        driver.write()
        self.check = wire.crc16(self.colours)
        self.share = share(self.colours, self.budget_ma)
        self.dirty = False


def neopixel_maker(machine):
    """``make`` for :class:`Chain` on the Pico: MicroPython's ``neopixel`` module, its
    timing done by the rp2 port, on ``machine.Pin(pin)``. Imported on first use, so
    a board without LEDs never loads it."""

    def make(pin, count):
        import neopixel

        return neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count)

    return make
