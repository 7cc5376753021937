"""The row and column antennas of the RFID boards (docs/rf.md), faked at the pins: the
TPIC6B595 chain decoded from the Pico's SER IN, SRCK, RCK, G and SRCLR lines, the
tags lying on the squares, and the TRF7962A (``fake_trf7962a``) asked which UIDs the
selected antenna sees: those of the tags in its row or its column.

The times the real parts take are charged to ``charge`` (seconds): the reader's air
time (``fake_trf7962a`` from ``wiring.rf.timing``), each SPI transaction with the
reader (``transfer_s``), each antenna switch (``switch_s``, the chain shifted and
latched), and, each time the field comes on, the tags' power-up (``power_up_s``) and,
after a switch, the released antenna's settling (``settle_s``): the waits the
firmware makes on the real board.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from firmware_bridge.sim.pico.fake_card import BenchWiringError
from firmware_bridge.sim.pico.fake_machine import Bench
from firmware_bridge.sim.pico.fake_trf7962a import Trf7962a, Trf7962aBoard

UID_BYTES = 8
"""An ISO/IEC 15693 UID (ISO/IEC 15693-3)."""


class SelectChain:
    """Chained TPIC6B595s on the bench (TI SLIS032D, 7.3): SER IN shifts into stage 0
    on each rising SRCK, the stages move on and the last one's bit goes to the next
    register; a rising RCK copies the shift register to the storage register; SRCLR
    low clears the shift register; G high turns every output off. Output ``k`` (the
    ``k // 8``-th register's DRAIN ``k % 8``) is antenna ``k``."""

    def __init__(
        self,
        bench: Bench,
        *,
        ser_pin: int,
        srck_pin: int,
        rck_pin: int,
        count: int,
        g_pin: int | None = None,
        srclr_pin: int | None = None,
    ) -> None:
        self.count = count
        self.bits = 8 * ((count + 7) // 8)
        self._bench = bench
        self._ser = ser_pin
        self._g = g_pin
        self.shift = 0
        self.storage = 0
        self.latches = 0
        self.on_change: Callable[[], None] | None = None
        bench.listen(srck_pin, self._on_srck)
        bench.listen(rck_pin, self._on_rck)
        if g_pin is not None:
            bench.listen(g_pin, lambda _pin, _level: self._changed())
        if srclr_pin is not None:
            bench.listen(srclr_pin, self._on_srclr)

    def _on_srck(self, _pin: int, level: int) -> None:
        if level:
            bit = self._bench.levels.get(self._ser, 0) & 1
            self.shift = ((self.shift << 1) | bit) & ((1 << self.bits) - 1)

    def _on_rck(self, _pin: int, level: int) -> None:
        if level:
            self.storage = self.shift
            self.latches += 1
            self._changed()

    def _on_srclr(self, _pin: int, level: int) -> None:
        if not level:
            self.shift = 0

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    @property
    def enabled(self) -> bool:
        """G low (or not wired: the board's pull-up would hold it high)."""
        return self._g is not None and self._bench.levels.get(self._g, 1) == 0

    def selected(self) -> list[int]:
        """The antennas whose output is on now."""
        if not self.enabled:
            return []
        return [k for k in range(self.bits) if (self.storage >> k) & 1]


class RowColumnBoard:
    """A board of ``rows`` × ``columns`` squares with a row antenna per row and a column
    antenna per column (antenna ``r`` is row ``r``, ``rows + c`` column ``c``), one
    :class:`Trf7962a` reading the selected one.

    It counts what a builder would measure: ``max_selected``, the most antennas
    selected at once; ``hot_switches``, switches made with the field on;
    ``inventories``, inventory requests, by antenna in ``per_antenna``.

    Two faults a bring-up finds (docs/rf.md, "Bring-up", step 5) can be laid on it:
    :meth:`cross_read` makes another antenna see a square's tag (the field reaching
    past its row), :meth:`miss` makes one of the square's own antennas miss it.
    """

    def __init__(
        self,
        bench: Bench,
        *,
        rows: int,
        columns: int,
        spi_bus: int,
        cs_pin: int,
        ser_pin: int,
        srck_pin: int,
        rck_pin: int,
        g_pin: int | None,
        srclr_pin: int | None = None,
        enable_pin: int | None = None,
        irq_pin: int | None = None,
        antennas: int | None = None,
        charge: Callable[[float], None] | None = None,
        transfer_s: float = 0.0,
        switch_s: float = 0.0,
        power_up_s: float = 0.0,
        settle_s: float = 0.0,
    ) -> None:
        count = rows + columns if antennas is None else antennas
        if count < rows + columns:
            raise BenchWiringError(
                f"{count} antenna outputs for {rows} rows and {columns} columns: add TPIC6B595s"
            )
        self.rows = rows
        self.columns = columns
        self.tags: dict[int, bytes] = {}
        """What lies on the board: cell index (row × columns + column) -> UID."""
        self._charge = charge
        self.transfer_s = transfer_s
        self.switch_s = switch_s
        self.power_up_s = power_up_s
        self.settle_s = settle_s
        self.chain = SelectChain(
            bench,
            ser_pin=ser_pin,
            srck_pin=srck_pin,
            rck_pin=rck_pin,
            count=count,
            g_pin=g_pin,
            srclr_pin=srclr_pin,
        )
        self.reader = Trf7962a(self._seen, self.charge)
        self.wiring = Trf7962aBoard(
            bench,
            self.reader,
            spi_bus=spi_bus,
            cs_pin=cs_pin,
            enable_pin=enable_pin,
            irq_pin=irq_pin,
        )
        self.max_selected = 0
        self.hot_switches = 0
        self.inventories = 0
        self.per_antenna = [0] * count
        self.leaks: dict[int, set[int]] = {}
        """Faults: cell -> antennas besides its row's and column's that see its tag."""
        self.deaf: dict[int, set[int]] = {}
        """Faults: cell -> antennas of its own that miss its tag."""
        self._selected: tuple[int, ...] = ()
        self._switched = False
        self._field = False
        self.chain.on_change = self._on_switch
        # After the reader's own listener: the transaction has reached the chip.
        bench.listen(cs_pin, self._after_transaction)

    def charge(self, seconds: float) -> None:
        if self._charge is not None:
            self._charge(seconds)

    def _on_switch(self) -> None:
        selected = tuple(self.chain.selected())
        if selected == self._selected:
            return
        if self.reader.field:
            self.hot_switches += 1
        self._selected = selected
        self._switched = True
        self.max_selected = max(self.max_selected, len(selected))
        self.charge(self.switch_s)

    def _after_transaction(self, _pin: int, level: int) -> None:
        if not level:
            return
        self.charge(self.transfer_s)
        field = self.reader.field
        if field and not self._field:
            self.charge(self.power_up_s + (self.settle_s if self._switched else 0.0))
            self._switched = False
        self._field = field

    def squares(self, antenna: int) -> list[int]:
        """The cells antenna ``antenna`` runs over."""
        if antenna < self.rows:
            return [antenna * self.columns + c for c in range(self.columns)]
        c = antenna - self.rows
        if c >= self.columns:
            return []
        return [r * self.columns + c for r in range(self.rows)]

    def _seen(self) -> list[bytes]:
        """The UIDs the selected antennas see: the tags in their rows or columns."""
        self.inventories += 1
        uids: list[bytes] = []
        for antenna in self._selected:
            self.per_antenna[antenna] += 1
            cells = self.squares(antenna)
            cells += [cell for cell, extra in self.leaks.items() if antenna in extra]
            for cell in cells:
                if antenna in self.deaf.get(cell, ()):
                    continue
                uid = self.tags.get(cell)
                if uid is not None and uid not in uids:
                    uids.append(uid)
        return uids

    def set_tags(self, tags: Mapping[int, bytes]) -> None:
        """Make the tags on the board exactly ``tags`` (cell -> 8-byte UID)."""
        for cell, uid in tags.items():
            if len(uid) != UID_BYTES:
                raise BenchWiringError(
                    f"the tag on cell {cell} has {len(uid)} bytes: an ISO/IEC 15693 UID "
                    f"has {UID_BYTES}"
                )
        self.tags = dict(tags)

    def _check_antenna(self, antenna: int) -> None:
        if not 0 <= antenna < self.rows + self.columns:
            raise BenchWiringError(
                f"no antenna {antenna} on a board of {self.rows} rows and {self.columns} columns"
            )

    def cross_read(self, cell: int, antenna: int) -> None:
        """Fault: antenna ``antenna`` sees the tag on ``cell`` too, as a neighbouring
        row's antenna does when the field reaches past its row."""
        self._check_antenna(antenna)
        if cell in self.squares(antenna):
            raise BenchWiringError(f"antenna {antenna} runs over cell {cell}: not a cross-read")
        self.leaks.setdefault(cell, set()).add(antenna)

    def miss(self, cell: int, antenna: int) -> None:
        """Fault: antenna ``antenna``, one of ``cell``'s own, does not see its tag."""
        self._check_antenna(antenna)
        self.deaf.setdefault(cell, set()).add(antenna)
