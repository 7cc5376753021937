"""The browser seat and the broker: the host's game found on it, and every message
the link receives handed to the seat."""

from __future__ import annotations

import logging
import queue
import threading
import time

from ..spectate.errors import MessageRefused
from . import protocol
from .browser_seat import Seat
from .link import Link

log = logging.getLogger("tabletop.remote")

POLL_S = 0.2
TABLE_WAIT_S = 60.0
"""How long the seat waits for the host's game to be on the broker."""


# -- the broker ---------------------------------------------------------------------------
def seat_topics(host: str, board: str) -> list[str]:
    return [
        protocol.table_topic(host),
        protocol.moves_topic(host),
        protocol.to_topic(host, board),
        protocol.presence_topic(host, host),
    ]


def wait_for_table(
    link: Link, host: str, board: str, timeout_s: float = TABLE_WAIT_S
) -> tuple[protocol.Table, list[tuple[str, bytes]]]:
    """The host's game now (of the retained tables, the latest game's), and what else
    arrived meanwhile (for the seat, once it has its game)."""
    end = time.monotonic() + timeout_s
    table: protocol.Table | None = None
    early: list[tuple[str, bytes]] = []
    while time.monotonic() < end:
        try:
            topic, payload = link.inbox.get(timeout=POLL_S)
        except queue.Empty:
            if table is not None:
                break
            continue
        if topic != protocol.table_topic(host):
            early.append((topic, payload))
            continue
        try:
            message = protocol.decode(payload, protocol.MAX_TABLE_BYTES)
        except MessageRefused as exc:
            log.warning("refused a message on %s: %s", topic, exc)
            continue
        newer = table is None or (
            isinstance(message, protocol.Table) and (message.started >= table.started)
        )
        if isinstance(message, protocol.Table) and message.host == host and newer:
            table = message
    if table is None:
        raise ValueError(
            f"{host}'s board hosts no game on the broker after {timeout_s:g} s: start it "
            f"there with tabletop sim --host-remote SEAT={board} --board-name {host}"
        )
    if board not in table.seats:
        raise ValueError(
            f"{host}'s {table.game} game has no seat for {board}: the host gives one with "
            f"--host-remote SEAT={board}"
        )
    return table, early


class Pump(threading.Thread):
    """Hands every message the link receives to the seat, under its lock; after the
    broker was lost and is back, has the seat ask for the table again."""

    def __init__(self, seat: Seat, link: Link) -> None:
        super().__init__(name="tabletop-seat-pump", daemon=True)
        self.seat = seat
        self.link = link
        self.stopping = threading.Event()

    def run(self) -> None:
        connects = self.link.connects
        while not self.stopping.is_set():
            try:
                topic, payload = self.link.inbox.get(timeout=POLL_S)
            except queue.Empty:
                topic = ""
            with self.seat.lock:
                if self.link.connects != connects:
                    connects = self.link.connects
                    self.seat.reconnected()
                if topic:
                    self.seat.take(topic, payload)

    def stop(self) -> None:
        self.stopping.set()
        if self.is_alive():
            self.join(5)
