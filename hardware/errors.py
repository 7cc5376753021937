"""Hardware errors: each says what is wrong with the machine and what to check."""

from __future__ import annotations


class HardwareError(RuntimeError):
    """A device could not be reached; the message says what to check."""


class NotAPi(HardwareError):
    """Real pins were asked for on a machine that is not a Raspberry Pi."""


class PinLibraryMissing(HardwareError):
    """This is a Pi, but no GPIO library gpiozero can use is installed."""


class OledError(HardwareError):
    """The OLED could not be opened or written."""


class I2CNotEnabled(OledError):
    """The I2C bus device (``/dev/i2c-N``) does not exist."""


class I2CPermissionDenied(OledError):
    """The I2C bus exists but this user may not open it."""


class OledNotFound(OledError):
    """Nothing answered at the OLED's I2C address."""


class BadDice(ValueError):
    """Dice values or counts that no die can show."""
