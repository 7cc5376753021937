"""A board at its start menu on the club's broker (:mod:`.invites`): on line, it
tells the menu which boards are on line, invites the boards a game's seats were
given to and waits for their answers, and offers an invitation that comes to it on
the menu, answering it as the menu's ok or back says.

Its link keeps no session (``clean``): an invitation sent while the board was away is
not for it now. It is stopped before the game's own link connects (on the club's
broker both are the board's remote login, one client id)."""

from __future__ import annotations

import logging
import queue
import secrets
import time
from collections.abc import Callable, Sequence

from ..runtime.lobby import Lobby
from ..runtime.lobby_levels import Offer
from ..spectate.errors import MessageRefused
from ..spectate.mqtt import BrokerSettings
from . import protocol
from .invites import (
    Answer,
    Decided,
    Invite,
    decode,
    invited,
    offer_text,
    on_line,
    presence_of,
)
from .link import Link

log = logging.getLogger("tabletop.remote")

POLL_S = 0.1
ANSWER_WAIT_S = 120.0
"""How long a host waits for an invited board's answer."""


class MenuLink:
    """The board ``board``'s start menu on the broker."""

    def __init__(self, broker: BrokerSettings, board: str, make: Callable[..., Link] = Link):
        self.board = board
        topics = [
            f"{protocol.root('+')}/presence/+",  # who is on line
            f"{protocol.root(board)}/from/+",  # the answers to this board's invitations
            f"{protocol.root('+')}/to/{board}",  # invitations to this board
        ]
        self.link = make(broker, board, board, "menu", topics, clean=True)
        self.on = False
        self.seen: dict[str, bool] = {}
        """Each board's own presence: on line or not."""
        self.answers: dict[str, Answer] = {}
        """The answers to this board's invitations, by the invitation's id."""
        self.invites: list[Invite] = []
        """Invitations to this board not yet on the menu."""
        self.refused: list[str] = []
        """Every message refused at intake, with why (also logged)."""
        self.decisions: dict[str, Decided] = {}
        """The hosts' decisions on their invitations to this board, by id."""
        self.answered: set[str] = set()
        """The invitations this board has answered."""
        self.joined: Invite | None = None
        """The invitation this board accepted and whose game its host starts."""

    def start(self) -> None:
        self.link.start()
        self.on = True

    def stop(self) -> None:
        """Leave the broker (once; a board that hosts or joins leaves before)."""
        if self.on:
            self.on = False
            self.link.stop()

    def online(self) -> list[str]:
        """The other boards on line, by name."""
        return on_line(self.seen, self.board)

    # -- what arrives ---------------------------------------------------------------
    def take(self, topic: str, payload: bytes) -> None:
        """One message from the broker, checked; a refused one is noted with why."""
        try:
            if topic.endswith(f"/to/{self.board}") or "/from/" in topic:
                said = decode(topic, payload, self.board)
                if isinstance(said, Answer):
                    self.answers[said.invite] = said
                elif isinstance(said, Decided):
                    self.decisions[said.invite] = said
                else:
                    self.invites.append(said)
                return
            presence = presence_of(topic, payload)
        except MessageRefused as exc:
            why = f"{topic}: {exc}"
            log.warning("refused a message on %s", why)
            self.refused.append(why)
            return
        if presence is not None:
            self.seen[presence[0]] = presence[1]

    def pump(self, lobby: Lobby | None = None, timeout_s: float = 0.0) -> int:
        """Take what has arrived (waiting up to ``timeout_s`` for the first); the menu
        is told who is on line, its answer to an invitation is sent to the host, the
        host's decision taken (:attr:`joined`, or the offer called off), and the next
        invitation shown; how many messages came."""
        wait, came = timeout_s, 0
        while True:
            try:
                topic, payload = (
                    self.link.inbox.get(timeout=wait) if wait else self.link.inbox.get_nowait()
                )
            except queue.Empty:
                break
            wait, came = 0.0, came + 1
            self.take(topic, payload)
        if lobby is None:
            return came
        lobby.online = self.online()
        offer = lobby.offer
        if offer is not None and isinstance(offer.token, Invite):
            self._answer(lobby, offer)
        while lobby.offer is None and self.invites and lobby.chosen is None:
            invite = self.invites.pop(0)
            decided = self.decisions.get(invite.invite)
            if decided is None or decided.starts:  # not one its host has called off
                lobby.offer = Offer(offer_text(invite), invite)
        lobby.refresh()
        return came

    # -- the guest: answering ---------------------------------------------------------
    def _answer(self, lobby: Lobby, offer: Offer) -> None:
        """Send the menu's answer to ``offer`` (once), and take the host's decision."""
        invite = offer.token
        assert isinstance(invite, Invite)
        if offer.accepted is not None and invite.invite not in self.answered:
            self.answered.add(invite.invite)
            reason = "" if offer.accepted else f"{self.board}'s board refused"
            answer = Answer(
                invite=invite.invite, board=self.board, accepted=offer.accepted, reason=reason
            )
            self.link.publish(protocol.from_topic(invite.host, self.board), answer)
            if not offer.accepted:
                lobby.offer = None  # the menu goes on
                return
        decided = self.decisions.get(invite.invite)
        if decided is None:
            if self.seen.get(invite.host) is False:  # its menu left (or its will says so)
                offer.called_off(f"{invite.host}'s board left before the game started")
            return
        if not decided.starts:
            offer.called_off(f"{invite.host}'s board called it off: {decided.reason}")
        elif offer.accepted:
            self.joined = invite

    # -- the host: inviting -----------------------------------------------------------
    def invite(
        self,
        game: str,
        owners: Sequence[str],
        lobby: Lobby | None = None,
        wait_s: float = ANSWER_WAIT_S,
    ) -> str | None:
        """Invite each other board of ``owners`` (who holds each seat) to this board's
        game of ``game``; None once every one has accepted, else why the game cannot
        start (a board refused, did not answer, or is not on line)."""
        sent: dict[str, str] = {}
        guests = invited(owners, self.board)
        away = [guest for guest in guests if not self.seen.get(guest)]
        if away:
            return f"{away[0]}'s board is not on line"
        if lobby is not None:
            lobby.waiting = "waiting for " + " and ".join(f"{g}'s board" for g in guests)
        for guest, seats in guests.items():
            token = secrets.token_hex(8)
            message = Invite(
                invite=token, host=self.board, game=game, players=len(owners), seats=seats
            )
            self.link.publish(protocol.to_topic(self.board, guest), message)
            sent[guest] = token
        try:
            why = self._answers(sent, lobby, wait_s)
        finally:
            if lobby is not None:
                lobby.waiting = ""
        for guest, token in sent.items():  # each board invited: it starts, or not
            told = Decided(invite=token, host=self.board, starts=why is None, reason=why or "")
            self.link.publish(protocol.to_topic(self.board, guest), told)
        self.link.flush()
        return why

    def _answers(self, sent: dict[str, str], lobby: Lobby | None, wait_s: float) -> str | None:
        end = time.monotonic() + wait_s
        while True:
            for guest, token in sent.items():
                answer = self.answers.get(token)
                if answer is not None and answer.board != guest:
                    return f"{answer.board} answered {guest}'s invitation"
                if answer is not None and not answer.accepted:
                    why = (
                        f": {answer.reason}" if answer.reason and guest not in answer.reason else ""
                    )
                    return f"{guest}'s board refused the invitation{why}"
            if all(token in self.answers for token in sent.values()):
                return None
            if time.monotonic() > end:
                late = next(g for g, t in sent.items() if t not in self.answers)
                return f"{late}'s board did not answer in {wait_s:g} s"
            self.pump(lobby, POLL_S)
