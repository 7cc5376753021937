"""The receiving end of the link: bytes in, checked envelopes out, bad frames counted."""

from __future__ import annotations

import logging
import re
from collections import Counter

from msgspec import Struct

from firmware_bridge.link.codec import decode
from firmware_bridge.link.errors import ForeignVersionError, FrameError
from firmware_bridge.link.framing import Deframer
from firmware_bridge.link.messages import Envelope

log = logging.getLogger(__name__)

_WARN_EVERY = 100
MAX_REASONS = 32
"""Most kinds of bad frame counted apart; any further kind is counted as :data:`OTHER`."""
OTHER = "other"
_NUMBER = re.compile(r"\d+")


def reason_kind(reason: str) -> str:
    """The kind of check a bad frame failed: its reason up to any colon, every number
    in it written N, so the figures a frame carries never make a kind of their own."""
    return _NUMBER.sub("N", reason.split(":", maxsplit=1)[0])


class ForeignFrame(Struct, frozen=True):
    """A frame that passed its CRC but speaks protocol ``version`` (skipped, counted bad)."""

    version: int


class LinkDecoder:
    """Turns a byte stream into envelopes; never raises on what the wire sends.

    A frame that fails any check is counted in ``bad_frames`` (by kind of reason in
    ``reasons``, at most :data:`MAX_REASONS` kinds), logged and skipped; the next zero
    delimiter starts afresh. Whatever the wire sends, the decoder's memory is bounded.
    """

    def __init__(self) -> None:
        self._deframer = Deframer()
        self.good_frames = 0
        self.bad_frames = 0
        self.reasons: Counter[str] = Counter()

    def reset(self) -> None:
        """Drop a half-received frame (after a reconnect)."""
        self._deframer.reset()

    def feed(self, data: bytes) -> list[Envelope]:
        """The envelopes of every good frame ``data`` completes, in order."""
        return [item for item in self.feed_all(data) if isinstance(item, Envelope)]

    def feed_all(self, data: bytes) -> list[Envelope | ForeignFrame]:
        """Like :meth:`feed`, with frames of another protocol version in their place,
        so the owner can tell a board of another version from line noise."""
        overlong = self._deframer.overlong
        items: list[Envelope | ForeignFrame] = []
        for chunk in self._deframer.feed(data):
            try:
                items.append(decode(chunk))
                self.good_frames += 1
            except ForeignVersionError as exc:
                self._count_bad(str(exc))
                items.append(ForeignFrame(exc.version))
            except FrameError as exc:
                self._count_bad(str(exc))
        for _ in range(self._deframer.overlong - overlong):
            self._count_bad("longer than any packet")
        return items

    def _count_bad(self, reason: str) -> None:
        self.bad_frames += 1
        kind = reason_kind(reason)
        if kind not in self.reasons and len(self.reasons) >= MAX_REASONS - 1:
            kind = OTHER
        self.reasons[kind] += 1
        log.debug("bad frame skipped: %s", reason)
        if self.bad_frames % _WARN_EVERY == 1:
            log.warning("bad frame from the board skipped (%d so far): %s", self.bad_frames, reason)
