"""The way back to the REPL: checked at boot, before the main loop turns Ctrl-C off
and starts the watchdog (after which mpremote can no longer get in).

The main loop is skipped when the recovery strap (``RECOVERY_PIN``, pulled up) is
held to GND at power-on, or when a Ctrl-C (03h) arrives on the USB serial within
``RECOVERY_WINDOW_MS`` of boot before any 00h: mpremote sends ``\\r\\x03`` when it
connects, while every frame of the Pi starts with 00h, so the daemon never
triggers it. A 00h (the Pi talking) ends the window at once.
"""

try:
    from . import ticks
except ImportError:
    import ticks

CTRL_C = 3


def strapped(machine, pin):
    """Whether the recovery strap ``pin`` is held low."""
    if pin is None:
        return False
    strap = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
    return strap.value() == 0


def interrupted(port, window_ms, clock=None):
    """Watch ``port`` (``read()`` returns the bytes waiting) for ``window_ms``:
    True at a Ctrl-C before any 00h, False at a 00h or when the window ends."""
    if clock is None:
        clock = ticks.ticks_ms
    start = clock()
    while ticks.ticks_diff(clock(), start) < window_ms:
        for byte in port.read():
            if byte == CTRL_C:
                return True
            if byte == 0:
                return False
    return False


def wanted(machine, config, port=None, clock=None):
    """Whether to stay out of the main loop this boot (see the module's doc)."""
    if strapped(machine, getattr(config, "RECOVERY_PIN", None)):
        return True
    window = getattr(config, "RECOVERY_WINDOW_MS", 2000)
    if window <= 0 or getattr(config, "LINK", "usb") != "usb":
        return False
    import micropython

    # Read Ctrl-C as a byte here rather than have it raise somewhere at random.
    micropython.kbd_intr(-1)
    if port is None:
        try:
            from .ports import UsbPort
        except ImportError:
            from ports import UsbPort
        port = UsbPort()
    found = interrupted(port, window, clock)
    micropython.kbd_intr(CTRL_C)
    return found
