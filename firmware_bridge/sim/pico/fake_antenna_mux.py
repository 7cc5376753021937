"""The antenna multiplexer that gives every square its own coil: one MFRC522's field
routed to one square at a time by the select pins, as ``firmware/antennas.py`` drives it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from firmware_bridge.sim.pico.fake_card import BenchWiringError, Card
from firmware_bridge.sim.pico.fake_machine import Bench
from firmware_bridge.sim.pico.fake_mfrc522 import Mfrc522


class AntennaMuxBoard:
    """One MFRC522 whose antenna output reaches one square's coil at a time, as
    ``firmware/antennas.py`` expects (docs/hardware.md).

    The reader's NSS is ``cs_pin``; ``select_pins`` (least significant first) address
    the analog multiplexer tree: while they carry ``i`` and ``i`` is a square, the
    reader's field reaches the card on square ``i`` and no other; a card on any other
    square is unpowered. ``readers`` holds the one reader (a list, so that a count of
    fields on is the same code for any number of readers).

    It counts what a builder would measure: ``max_fields_on``, the most antennas
    radiating at once; ``hot_switches``, antenna switches made with the field on
    (they ring the coil and stress the switches); ``field_on_reads``, frames sent.
    """

    def __init__(
        self,
        bench: Bench,
        *,
        spi_bus: int,
        cs_pin: int,
        select_pins: Sequence[int],
        cells: int,
        latency: int = 0,
        version: int = 0x92,
        reset_pin: int | None = None,
    ) -> None:
        if (1 << len(select_pins)) < cells:
            raise BenchWiringError(
                f"{len(select_pins)} select pins address {1 << len(select_pins)} antennas, "
                f"fewer than {cells} squares: add select pins"
            )
        self.reader = Mfrc522(version=version, latency=latency)
        self.readers = [self.reader]
        self.cells = cells
        self.cards: dict[int, Card] = {}
        self.cs_pin = cs_pin
        self.select_pins = tuple(select_pins)
        self.antenna: int | None = None
        """The square whose coil the multiplexers connect now (None: none)."""
        self.fields_on = 0
        self.max_fields_on = 0
        self.hot_switches = 0
        self.powered_by_antenna = [0] * cells
        """How many times each square's coil was energised."""
        self.dead = False
        """A reader that lost its supply: MISO floats high, nothing answers."""
        self.hung = False
        """A reader whose logic locked up: it answers 00h to every byte until its
        NRSTPD (``reset_pin``) is pulled low and released."""
        self.reset_pin = reset_pin
        self.hard_resets = 0
        """Rising edges of NRSTPD: the chip reset (data sheet, "Hard power-down")."""
        self._held_low = False
        self._bench = bench
        self.reader.on_field = self._on_field
        bench.attach_spi(spi_bus, self)
        bench.listen(cs_pin, self._on_cs)
        for pin in select_pins:
            bench.listen(pin, self._route)
        if reset_pin is not None:
            bench.listen(reset_pin, self._on_reset)
        self._route(0, 0)

    def _powered_down(self) -> bool:
        # NRSTPD low: hard power-down, the SPI interface off (data sheet, "Hard power-down").
        return self.reset_pin is not None and self._bench.levels.get(self.reset_pin, 1) == 0

    def _on_reset(self, _pin: int, level: int) -> None:
        if not level:
            self._held_low = True
        elif self._held_low:
            self._held_low = False
            self.hard_resets += 1
            self.hung = False
            self.reader.hard_reset()

    def _on_field(self, on: bool) -> None:
        self.fields_on += 1 if on else -1
        self.max_fields_on = max(self.max_fields_on, self.fields_on)
        if on and self.antenna is not None:
            self.powered_by_antenna[self.antenna] += 1

    def _on_cs(self, _pin: int, level: int) -> None:
        if level == 0:
            self.reader.select()
        else:
            self.reader.deselect()

    def _route(self, _pin: int, _level: int) -> None:
        levels = self._bench.levels
        address = 0
        for bit, pin in enumerate(self.select_pins):
            address |= levels.get(pin, 0) << bit
        antenna = address if address < self.cells else None
        if antenna == self.antenna:
            return
        if self.reader.field:
            self.hot_switches += 1
        self.antenna = antenna
        self._connect()

    def _connect(self) -> None:
        card = self.cards.get(self.antenna) if self.antenna is not None else None
        if card is None:
            self.reader.remove()
        elif self.reader.card is not card:
            self.reader.lay(card)
        if card is not None and self.reader.field and self.antenna is not None:
            self.powered_by_antenna[self.antenna] += 1

    def transfer(self, out: int) -> int:
        if self.dead or self._bench.levels.get(self.cs_pin, 1):
            return 0xFF
        if self.hung or self._powered_down():
            return 0x00
        return self.reader.exchange(out)

    def lay(self, index: int, card: Card) -> None:
        """Put ``card`` on square ``index``."""
        old = self.cards.get(index)
        if old is not None:
            old.power(False)
        self.cards[index] = card
        if index == self.antenna:
            self._connect()

    def lift(self, index: int) -> None:
        """Take the card off square ``index``."""
        card = self.cards.pop(index, None)
        if card is not None:
            card.power(False)
        if index == self.antenna:
            self._connect()

    def set_tags(self, tags: Mapping[int, bytes]) -> None:
        """Make the cards on the board carry exactly ``tags`` (square -> UID).

        A card already lying with the same UID stays, keeping its state, as a
        piece left on the board does.
        """
        for index in [i for i in self.cards if i not in tags]:
            self.lift(index)
        for index, uid in tags.items():
            card = self.cards.get(index)
            if card is None or card.uid != uid:
                self.lay(index, Card(uid))
