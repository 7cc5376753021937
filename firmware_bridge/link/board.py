"""The serial sensor board: the Pico's link turned into settled observations.

It lives here rather than in ``hardware/`` because it is built on the link
protocol, which belongs to ``firmware_bridge`` (``hardware`` may import only
``wiring``). It implements ``hardware.board.SensorBoard``.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import Sequence
from typing import Protocol

from firmware_bridge.link.codec import encode
from firmware_bridge.link.decoder import ForeignFrame, LinkDecoder
from firmware_bridge.link.hello import ForeignFrames, check_hello, connected_message
from firmware_bridge.link.messages import (
    AntennaSeen,
    BoardError,
    BoardInfo,
    Envelope,
    ErrorCode,
    ForeignHello,
    Hello,
    LedAck,
    Message,
    Reading,
    SnapshotRequest,
    SyncDone,
    SyncRequest,
)
from firmware_bridge.link.mirror import BoardMirror
from firmware_bridge.link.transport import Opener, SerialTransport, open_serial
from hardware.board import (
    OCCUPIED,
    BoardEvent,
    BoardSettled,
    BoardStatus,
    BoardSynced,
    BoardSyncFailed,
)
from hardware.clock import Clock
from hardware.settle import SettleFilter
from wiring.profile import SerialWiring

log = logging.getLogger(__name__)

ANSWERS_KEPT = 64
"""Antenna read answers kept for their asker at most (one is asked for at a time)."""
REQUEST_INTERVAL_S = 0.25
"""Least time between two snapshot requests."""
SILENCE_S = 5.0
"""With no good frame for this long (snapshots come every 2 s) the board counts as gone."""
OUT_OF_STEP_S = 1.0
"""A copy of the board stale for this long is shown: quicker recoveries are not."""
OUT_OF_STEP = "Board out of step: reading it again"
READER_FAULT_S = 5.0
"""How long a reader fault (ERR_READER) is shown after the board last reported it;
the firmware repeats the report every snapshot period (2 s) while it lasts."""

SYNC_SWEEPS = 3
"""A sync request not answered within this many sweeps of the board has failed."""
SYNC_MARGIN_S = 0.5
"""Time a sync request is allowed besides the sweeps: the link's bytes both ways, a
pass of the firmware's loop, and a debounce still under way."""
SYNC_RESEND_S = 0.25
"""How often an unanswered sync request is sent again: the request or its answer may
be lost on a noisy line, and the board ignores a token it is still working on."""
CATCH_UP_S = 30.0
"""How long an answered sync request waits for the host's copy of the board to be
whole and settled again (frames lost before the answer): the OLED says the board is
out of step meanwhile."""
NOT_SETTLING = (
    "The board does not hold still: check for a piece rocking on its square, and the "
    "USB cable to the Pico"
)
NOT_ANSWERING = (
    "The board is not answering: check the USB cable to the Pico and that its "
    "firmware is running (tabletop diag)"
)


class LinkLights(Protocol):
    """The board's LED chain as the link drives it (``link/leds.py``)."""

    def on_ack(self, ack: LedAck) -> None: ...

    def forget(self) -> None: ...

    def pump(self, now: float) -> None: ...


def reading_text(reading: bytes) -> str:
    """The observation value of a present cell: its tag in upper-case hex, or OCCUPIED."""
    return reading.hex().upper() if reading else OCCUPIED


class SerialSensorBoard:
    """A board scanned by the Pico firmware, read over a serial link.

    Emits ``BoardStatus(connected=False, ...)`` when the link goes, or when the
    host's copy of the board has been stale (cell events lost) for
    :data:`OUT_OF_STEP_S`, and keeps the last observation meanwhile; it asks for
    snapshots until its copy is whole again, and the settle filter then reports
    the board as it is now, every change found at once. Raises
    :class:`ProtocolVersionError` when the firmware speaks another protocol and
    :class:`BoardMismatchError` when its size or sensor kind is not the profile's.
    """

    def __init__(
        self,
        wiring: SerialWiring,
        cells: Sequence[str],
        *,
        clock: Clock,
        settle_window_s: float | None = None,
        settle: SettleFilter | None = None,
        opener: Opener = open_serial,
        sweep_s: float = 1.0,
        tokens: random.Random | None = None,
    ) -> None:
        """``settle`` is the settle filter to use; without it one of ``settle_window_s``
        is made. ``sweep_s`` is about how long the board takes to read every cell once
        (the profile's timing): a sync request not answered within
        :data:`SYNC_SWEEPS` sweeps has failed. ``tokens`` draws the sync requests'
        tokens (the system's random source when None)."""
        size = wiring.rows * wiring.columns
        if len(cells) != size:
            raise ValueError(
                f"a serial board of {wiring.rows} rows × {wiring.columns} columns has {size} "
                f"cells but the profile lists {len(cells)}: list one name per cell index"
            )
        self.cells: tuple[str, ...] = tuple(cells)
        self.wiring = wiring
        self.transport = SerialTransport(wiring.port, wiring.baudrate, opener=opener)
        self.decoder = LinkDecoder()
        self.mirror = BoardMirror(size)
        self.hello: Hello | None = None
        self._clock = clock
        if settle is None:
            if settle_window_s is None:
                raise ValueError("a serial board needs a settle filter or a settle window")
            settle = SettleFilter(self.cells, settle_window_s)
        elif tuple(settle.cells) != self.cells:
            raise ValueError(
                "the settle filter's cells are not the board's: build it from the profile's cells"
            )
        self._settle = settle
        self._fed = False
        self._distrusts = 0
        self._stale_since: float | None = None
        self._seq = 0
        self._status: BoardStatus | None = None
        self._last_request = float("-inf")
        self._last_frame = clock.now()
        self._foreign = ForeignFrames()
        self.reader_fault: tuple[float, str] | None = None
        self.info: BoardInfo | None = None
        """The board's last census: its readers, sweep time and longest loop pass."""
        """When the board last reported its reader not answering (ERR_READER), and why."""
        self.sweep_s = sweep_s
        self._tokens = tokens if tokens is not None else random.SystemRandom()
        self._sync_token = 0
        # Waiting sync requests: token -> [asked at, last sent at, answered].
        self._syncs: dict[int, list[float | bool]] = {}
        self.lights: LinkLights | None = None
        """The LED chain driven over this link, if the profile has one."""
        self.led_error: str | None = None
        """The last problem the board reported with its LED chain."""
        self._restarts = 0
        self.antenna_seen: deque[AntennaSeen] = deque(maxlen=ANSWERS_KEPT)
        """Answers to antenna reads (``tabletop diag --cross-read``), for their asker to take."""

    def send(self, now: float, message: Message) -> bool:
        """Send ``message`` to the board; False when the link is not open."""
        if not self.transport.is_open:
            return False
        sent = self.transport.write(now, encode(message, self._seq))
        self._seq = (self._seq + 1) & 0xFFFF
        return sent

    def sync(self, now: float) -> int:
        """Ask the board for a sweep that begins after ``now`` (a sync request); a later
        poll reports ``BoardSynced`` once its answer has come, after every cell event
        sent before it, and every cell has settled; ``BoardSyncFailed`` when no answer
        came within :data:`SYNC_SWEEPS` sweeps.

        Only an answer carrying this token counts, and only until the next request:
        a request asked again supersedes every one before it. The token is drawn at
        random, never the last one nor the one after it, so an answer sent before the
        request was read (a board answering ahead, a frame from before a restart of
        either end, line noise that passed its CRC) cannot release what waits."""
        last = self._sync_token
        token = last
        while token in (0, last, (last + 1) & 0xFFFF):
            token = self._tokens.getrandbits(16)
        self._sync_token = token
        self._syncs = {token: [now, now, False]}
        self._send_sync(token)
        return token

    def _send_sync(self, token: int) -> None:
        if self.transport.is_open:
            self.transport.write(self._clock.now(), encode(SyncRequest(token), self._seq))
            self._seq = (self._seq + 1) & 0xFFFF

    def _barriers(self, now: float, events: list[BoardEvent]) -> None:
        """Report each sync request answered with every cell settled, or failed."""
        limit = SYNC_SWEEPS * self.sweep_s + SYNC_MARGIN_S
        steady = self.transport.is_open and self.mirror.current and self._settle.steady(now)
        for token, (asked, sent, answered) in list(self._syncs.items()):
            if answered and steady:
                events.append(BoardSynced(token))
            elif not answered and now - float(asked) >= limit:
                events.append(BoardSyncFailed(token, NOT_ANSWERING))
            elif answered and now - float(asked) >= CATCH_UP_S:
                events.append(BoardSyncFailed(token, NOT_SETTLING))
            else:
                if not answered and now - float(sent) >= SYNC_RESEND_S:
                    self._syncs[token][1] = now
                    self._send_sync(token)
                continue
            del self._syncs[token]

    def poll(self, now: float) -> list[BoardEvent]:
        """Read the link; return status changes and newly settled observations."""
        events: list[BoardEvent] = []
        envelopes: list[Envelope] = []
        if not self.transport.is_open and self.transport.open_due(now):
            self._resync(now)
        if self.transport.is_open:
            for item in self.decoder.feed_all(self.transport.read(now)):
                if isinstance(item, ForeignFrame):
                    self._foreign.count(item.version, None)
                    continue
                if isinstance(item.message, ForeignHello):
                    self._foreign.count(item.message.protocol, item.message)
                    self.mirror.wants_snapshot = True  # a fresh handshake settles it
                    continue
                self._foreign.ours()
                envelope = item
                envelopes.append(envelope)
                if isinstance(envelope.message, Hello):
                    check_hello(envelope.message, self.wiring)
                    self.hello = envelope.message
                if isinstance(envelope.message, BoardInfo):
                    self.info = envelope.message
                    continue
                if isinstance(envelope.message, AntennaSeen):
                    self.antenna_seen.append(envelope.message)
                    continue
                if isinstance(envelope.message, LedAck):
                    if self.lights is not None:
                        self.lights.on_ack(envelope.message)
                    continue
                if isinstance(envelope.message, BoardError):
                    log.warning(
                        "the board reports error %d: %s",
                        envelope.message.code,
                        envelope.message.text,
                    )
                    if envelope.message.code == ErrorCode.READER:
                        self.reader_fault = (now, envelope.message.text)
                    elif envelope.message.code == ErrorCode.LEDS:
                        self.led_error = envelope.message.text
                self.mirror.apply(envelope)
                message = envelope.message
                if isinstance(message, SyncDone) and message.token == self._sync_token:
                    waiting = self._syncs.get(message.token)
                    if waiting is not None:
                        waiting[2] = True
            if envelopes:
                self._last_frame = now
            if self.mirror.current:
                self._stale_since = None
            elif self._stale_since is None:
                self._stale_since = now
            fault = self.reader_fault
            if fault is not None and now - fault[0] >= READER_FAULT_S:
                fault = self.reader_fault = None
            if envelopes and self.hello is not None:
                if fault is not None:
                    # Tags cannot be read: the game waits, as for a board offline.
                    self._set_status(events, False, f"RFID reader fault: {fault[1]}")
                elif self._stale_since is not None and now - self._stale_since >= OUT_OF_STEP_S:
                    self._set_status(events, False, OUT_OF_STEP)
                else:
                    self._set_status(events, True, connected_message(self.hello))
            elif self.transport.is_open and now - self._last_frame >= SILENCE_S:
                self._set_status(
                    events, False, "Board not answering: check the firmware is running"
                )
            if self.transport.is_open and (
                self.mirror.wants_snapshot or now - self._last_frame >= SILENCE_S
            ):
                self._request_snapshot(now)
        if not self.transport.is_open:
            self._set_status(events, False, f"Board disconnected: {self.transport.hint}")
        if self.transport.is_open and self.mirror.current:
            distrusts = self.mirror.distrusts
            if not self._fed:
                self._fed = True
            elif distrusts != self._distrusts:
                # When the changes a snapshot found happened is unknown: they
                # settle together, and with any change that follows them.
                self._settle.restart(now)
            self._distrusts = distrusts
            # With no new frame and nothing settling the filter has nothing to do: the
            # board (225 cells) is not rebuilt every poll (half a simulated RFID game's
            # time, by cProfile, before this).
            if envelopes or not self._settle.steady(now):
                raw = self._raw(self.mirror.readings)
                settled = self._settle.update(raw, now, self._delays())
                if settled is not None:
                    events.append(BoardSettled(settled))
        if self._syncs:
            self._barriers(now, events)
        if self.lights is not None:
            if self.mirror.restarts != self._restarts:
                # A restarted Pico's chain is not what it showed before.
                self._restarts = self.mirror.restarts
                self.lights.forget()
            self.lights.pump(now)
        return events

    def _delays(self) -> dict[str, float]:
        # A swept reader sees a change up to a sweep late, and by a varying amount:
        # the reading must hold that much longer to have surely held for the window.
        return {self.cells[i]: gap / 1000 for i, gap in self.mirror.gap_ms.items()}

    def close(self) -> None:
        self.transport.close()

    def _resync(self, now: float) -> None:
        self.decoder.reset()
        self.mirror.reset()
        self.hello = None
        if self.lights is not None:
            self.lights.forget()
        self._last_frame = now
        self._last_request = float("-inf")
        self._request_snapshot(now)

    def _request_snapshot(self, now: float) -> None:
        if now - self._last_request < REQUEST_INTERVAL_S:
            return
        self._last_request = now
        self.transport.write(now, encode(SnapshotRequest(), self._seq))
        self._seq = (self._seq + 1) & 0xFFFF

    def _raw(self, readings: list[Reading]) -> dict[str, str]:
        return {
            self.cells[i]: reading_text(reading)
            for i, reading in enumerate(readings)
            if reading is not None
        }

    def _set_status(self, events: list[BoardEvent], connected: bool, message: str) -> None:
        # A new reason while still offline is news too: a board that stopped
        # answering and was then unplugged must say so.
        status = BoardStatus(connected=connected, message=message)
        if status != self._status:
            self._status = status
            events.append(status)
