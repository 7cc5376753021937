"""What every sensor board gives the daemon: settled observations and link status,
and the button station its presses. Plain values and protocols, no I/O: the referees
and views read them without importing any device.

An observation maps each non-empty cell to what its sensor says: ``OCCUPIED`` for
an occupancy switch, or the tag id (upper-case hex) an RFID reader read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

from msgspec import Struct

OCCUPIED = "occupied"

Observation = Mapping[str, str]


class BoardSettled(Struct, frozen=True):
    """Every cell has held still for the settle window; this is the board now."""

    observation: Mapping[str, str]


class BoardStatus(Struct, frozen=True):
    """The link to the sensors came or went; ``message`` says what to do about it."""

    connected: bool
    message: str


class BoardSynced(Struct, frozen=True):
    """The board as it stands after sync request ``token``: every cell has been read
    since the request and has settled, and every change was reported before this."""

    token: int


class BoardSyncFailed(Struct, frozen=True):
    """Sync request ``token`` was not answered in time; ``message`` says what to check."""

    token: int
    message: str


BoardEvent = BoardSettled | BoardStatus | BoardSynced | BoardSyncFailed


class ButtonEvent(Struct, frozen=True):
    """A button was pressed and released; ``long`` if held for at least the hold time."""

    name: str
    long: bool


class SensorBoard(Protocol):
    """A sensor board the daemon polls from its one loop."""

    cells: tuple[str, ...]

    def poll(self, now: float) -> list[BoardEvent]:
        """Read the sensors; return what changed since the last poll (often nothing)."""
        ...

    def close(self) -> None:
        """Release pins or ports."""
        ...


@runtime_checkable
class SyncBoard(Protocol):
    """A sensor board that can say when it has been read since a moment (a barrier)."""

    def sync(self, now: float) -> int:
        """Ask to be told once the board has been read since ``now`` and has settled.

        Returns a token; a later :meth:`SensorBoard.poll` reports ``BoardSynced`` with
        it after every event it waited for, or ``BoardSyncFailed`` when the board
        did not answer in time.
        """
        ...
