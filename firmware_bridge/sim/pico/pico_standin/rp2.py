"""A stand-in for the Pico's ``rp2`` module: the firmware touches none of it yet,
but MicroPython code for the Pico may import it."""


def bootsel_button():
    return 0
