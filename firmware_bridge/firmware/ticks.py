"""Millisecond ticks: MicroPython's ``time.ticks_*`` on the Pico, a stand-in on CPython."""

try:
    from time import ticks_add, ticks_diff, ticks_ms  # MicroPython
except ImportError:
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        # CPython ticks never wrap, so a plain difference is exact.
        return a - b

    def ticks_add(a, delta):
        return a + delta
