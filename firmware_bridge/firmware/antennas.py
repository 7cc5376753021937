"""One reader, many antennas: the reader's antenna output switched to one square's
coil at a time through analog multiplexers (docs/hardware.md).

Reading square ``i``: put ``i`` on the select lines with the field off, switch the
field on, give the tag ``power_us`` to power up, read its UID, switch the field
off. So only one square's coil ever radiates, and only while it is read.
"""

try:
    from . import ticks
    from .mfrc522 import ReaderError, version_name
except ImportError:
    import ticks
    from mfrc522 import ReaderError, version_name

HEALTH_MS = 1000  # a reader found dead is tried again this often


class AntennaMux:
    """``reader`` (an ``mfrc522.Mfrc522``) behind the multiplexer tree that the
    ``select`` pins address (least significant first): antenna ``i`` is square ``i``.

    ``problem`` is None while the reader answers, else what is wrong with it; a
    square read while the reader is down reads as no tag.
    """

    def __init__(self, reader, select, cells, power_us=3000):
        if (1 << len(select)) < cells:
            raise ValueError("config: RFID_SELECT has too few pins to address every square")
        self.reader = reader
        self.select = select
        self.cells = cells
        self.power_us = power_us
        self.problem = None
        self.version = None
        self.reads = 0
        self.resets = 0  # hard resets (NRSTPD pulsed) of a reader that stopped answering
        self._checked = None
        self._chosen = -1

    def start(self):
        """Check and set up the reader (VersionReg first); False when it does not answer."""
        try:
            self.version = self.reader.version()
            self.reader.init()
        except ReaderError as exc:
            self.problem = str(exc)
            return False
        self.problem = None
        return True

    def census(self):
        """(reader number, VersionReg, what it says) for each reader: one here."""
        version = self.reader.version()
        return [(0, version, version_name(version))]

    def _choose(self, index):
        if index == self._chosen:
            return
        for bit, pin in enumerate(self.select):
            pin.value((index >> bit) & 1)
        self._chosen = index

    def check(self, now):
        """Try a reader that is down again, at most every HEALTH_MS, with a hard reset
        first when its reset pin is wired; True when it answers."""
        if self.problem is None:
            return True
        if self._checked is not None and ticks.ticks_diff(now, self._checked) < HEALTH_MS:
            return False
        self._checked = now
        hard_reset = getattr(self.reader, "hard_reset", None)
        if hard_reset is not None and getattr(self.reader, "reset", None) is not None:
            self.resets += 1
            hard_reset()
        return self.start()

    def read_uid(self, index):
        """The UID of the tag on square ``index``, or None."""
        if self.problem is not None:
            return None
        self.reads += 1
        self._choose(index)
        version = self.reader.version()
        if version in (0x00, 0xFF):
            # A reader that lost power or its SPI wires reads FFh or 00h, which would
            # otherwise pass for "no tag" on every square.
            self.problem = version_name(version)
            return None
        try:
            self.reader.field(True)
            if self.power_us:
                ticks.sleep_us(self.power_us)
            return self.reader.read_uid()
        except ReaderError as exc:
            self.problem = str(exc)
            return None
        finally:
            try:
                self.reader.field(False)
            except ReaderError:
                pass
