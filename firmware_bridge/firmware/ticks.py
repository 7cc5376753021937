"""Ticks: MicroPython's ``time.ticks_*`` on the Pico, a stand-in on CPython.

``ticks_ms`` stamps the main loop; ``ticks_us`` times the waits inside one pass
(a reader's reply, a row's settling), which are deadlines, never counts of reads.
"""

try:
    from time import sleep_us, ticks_add, ticks_diff, ticks_ms, ticks_us  # MicroPython
except ImportError:
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_us():
        return int(_time.monotonic() * 1000000)

    def ticks_diff(a, b):
        # CPython ticks never wrap, so a plain difference is exact.
        return a - b

    def ticks_add(a, delta):
        return a + delta

    def sleep_us(us):
        # Busy, as on the Pico: a wait of a few microseconds is shorter than a sleep.
        end = ticks_us() + us
        while ticks_us() < end:
            pass
