"""Two boards, one game, in simulation: ``tabletop sim --host-remote`` and ``--join``.

Each side is a whole simulated table (board, station, OLED, session, journal). The
computer plays the board's own seats, its moves made by the simulated hand as the
OLED shows them; the other board's moves arrive through the broker and are made
by the same hand as the OLED and the lights show them, checked as a computer's
move is. While the game waits for a board that is off line, the OLED says so, and the
back menu offers to abandon the game (:mod:`..remote.abandon`).
"""

from __future__ import annotations

import argparse
import json
import logging
import queue
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import msgspec

from ..journal.writing import Journal
from ..referees.decisions import Played
from ..referees.events import Tick
from ..remote import protocol
from ..remote.abandon import WaitingMenu
from ..remote.guest import Guest
from ..remote.host import Host
from ..remote.invites import check_invited
from ..remote.joining import ended_unsealed, join_sealed, seal_ended, seal_journal
from ..remote.link import Link
from ..remote.privacy import public_words
from ..remote.side import Side, check_game
from ..runtime.transcript import print_move, print_refusal, result_line
from ..sim.runner import SimOptions, Simulation
from ..spectate.errors import MessageRefused
from ..spectate.mqtt import check_board_name

log = logging.getLogger("tabletop.remote")

POLL_S = 0.25
"""How long the board waits for the broker before it looks again at who is away."""
TABLE_WAIT_S = 60.0
"""How long a guest waits for the host's game to be on the broker."""
CONFIRM_WAIT_S = 600.0
"""How long a guest whose move ended the game waits for the host to journal it."""


def parse_remote_seats(
    texts: list[str], players: int, host: str, option: str = "--host-remote"
) -> list[str]:
    """``--host-remote SEAT=BOARD`` (seats from 1) as who holds each seat."""
    owners = [host] * players
    for text in texts:
        seat, sep, board = text.partition("=")
        if not sep or not seat.strip().isdigit() or not 1 <= int(seat) <= players:
            raise ValueError(
                f"{option} {text!r}: give SEAT=BOARD with a seat from 1 to {players}, "
                f"e.g. {option} 2=anns-board"
            )
        check_board_name(board)
        if board == host:
            raise ValueError(f"{option} {text!r}: {board} is this board's own name")
        if owners[int(seat) - 1] != host:
            raise ValueError(f"{option} {text!r}: seat {seat} is given twice")
        owners[int(seat) - 1] = board
    return owners


def host_cli(args: argparse.Namespace, out: TextIO, board: str, broker: Any) -> int:
    from .setup_file import game_options

    if not args.game:
        raise ValueError("--host-remote: give the game with --game GAME")
    check_game(args.game)
    owners = parse_remote_seats(args.host_remote, args.players, board)
    options = game_options(args.game, list(args.option), args.setup, args.players, args.words)
    opts = SimOptions(
        game=args.game,
        players=args.players,
        seed=args.seed if args.seed is not None else 1,
        profile=args.profile,
        journal=args.journal,
        options=options,
    )
    return host_game(args, out, board, broker, opts, owners)


def host_game(
    args: argparse.Namespace,
    out: TextIO,
    board: str,
    broker: Any,
    opts: SimOptions,
    owners: list[str],
) -> int:
    """Host the game ``opts`` deals, each seat held by its board in ``owners``
    (``--host-remote``'s, or the start menu's invited boards)."""
    root = protocol.root(board)
    topics = [f"{root}/from/+", f"{root}/presence/+"]
    link = Link(broker, board, board, "host", topics)
    sim = Simulation(opts)
    try:
        link.start()
        dice_file = (
            args.journal.with_name(f"{args.journal.name}.guest-dice") if args.journal else None
        )
        side = Host(sim.session, link, board, owners, refresher(sim), dice_file)
        return _play(sim, side, link, args, out)
    finally:
        link.stop()
        sim.close()


def join_cli(args: argparse.Namespace, out: TextIO, board: str, broker: Any) -> int:
    host = check_board_name(args.join)
    if host == board:
        raise ValueError(f"--join {host}: that is this board's own name (--board-name)")
    return join_game(args, out, board, broker, host)


def join_game(
    args: argparse.Namespace,
    out: TextIO,
    board: str,
    broker: Any,
    host: str,
    invited: tuple[str, list[int]] | None = None,
) -> int:
    """Play the seats the game ``host`` hosts now gives this board (``--join``'s, or an
    invitation accepted on the start menu: ``invited``, its game and seats, which the
    host's game must be)."""
    topics = [
        protocol.table_topic(host),
        protocol.moves_topic(host),
        protocol.to_topic(host, board),
        protocol.presence_topic(host, host),
    ]
    link = Link(broker, board, host, "guest", topics)
    link.start()
    sim: Simulation | None = None
    try:
        resuming = _resuming(args.journal)
        ended = None if resuming else ended_unsealed(args.journal)
        key = ended[1] if ended is not None else None
        table, early = wait_for_table(link, host, board, ended_ok=resuming, ended_key=key)
        if invited is not None:
            check_invited(table, board, *invited)
        if ended is not None and args.journal is not None and table.game_key == key:
            seal_ended(args.journal, ended[0], table)
            print(
                f"tabletop: the journal's game {ended[0]}, over, takes the seed that "
                f"dealt it from {host}'s board",
                file=sys.stderr,
            )
            return 0
        check_game(table.game)
        sealed = table.seed is None  # hidden pieces: the host keeps the deal to itself
        options = dict(table.options)
        joined = None
        if sealed:
            joined = join_sealed(link, board, table, early, args.journal, resuming, TABLE_WAIT_S)
            options = joined.options or options
        opts = SimOptions(
            game=table.game,
            players=table.players,
            seed=table.seed if table.seed is not None else 0,  # stand-ins, given the deal
            profile=args.profile,
            journal=args.journal,
            options=options,
            unseen=joined.views if joined is not None and joined.resumed else None,
        )
        sim = Simulation(opts)
        record = sim.session.facts.record
        if (
            not sealed
            and record is not None
            and (record.seed, record.options) != (table.seed, table.options)
        ):
            raise ValueError(
                f"the journal {args.journal} holds an unfinished game that is not the one "
                f"{host}'s board hosts: use another --journal"
            )
        views = joined.views if joined is not None else None
        side = Guest(sim.session, link, board, table, refresher(sim), views)
        if joined is not None and not joined.resumed:
            side.asked_at = 0  # the table and views were asked for the deal
        for topic, payload in early:
            side.take(topic, payload)
        return _play(sim, side, link, args, out)
    finally:
        link.stop()
        if sim is not None:
            sim.close()


def _resuming(journal: Path | None) -> bool:
    """Whether this board's journal holds a game not ended (which the host may have
    ended while this board was away)."""
    if journal is None or not journal.exists():
        return False
    with Journal(journal, read_only=True) as kept:
        return kept.unfinished() is not None


def wait_for_table(
    link: Link, host: str, board: str, ended_ok: bool = True, ended_key: str | None = None
) -> tuple[protocol.Table, list[tuple[str, bytes]]]:
    """The host's game now (retained; of the tables the broker kept for this board,
    the latest game's), and what else arrived meanwhile. Unless ``ended_ok``, a game
    that is over is the host's last one, not a game to join: the board waits for the
    next (but for the game ``ended_key``, whose seed this board's journal lacks)."""
    early: list[tuple[str, bytes]] = []
    end = time.monotonic() + TABLE_WAIT_S
    told = False
    table: protocol.Table | None = None
    while time.monotonic() < end:
        try:
            topic, payload = link.inbox.get(timeout=POLL_S)
        except queue.Empty:
            if table is not None:
                break  # what the broker kept for this board has all arrived
            if not told:
                print(f"tabletop: waiting for {host}'s board to host a game", file=sys.stderr)
                told = True
            continue
        if topic != protocol.table_topic(host):
            early.append((topic, payload))
            continue
        try:
            message = protocol.decode(payload, protocol.MAX_TABLE_BYTES)
        except MessageRefused as exc:
            log.warning("refused a message on %s: %s", topic, exc)
            continue
        if not isinstance(message, protocol.Table) or message.host != host:
            log.warning("refused a message on %s: it is not %s's game", topic, host)
            continue
        if message.finished and not ended_ok and message.game_key != ended_key:
            continue  # the host's last game, over; its next one is to come
        if table is None or message.started >= table.started:
            table = message
    if table is None:
        raise ValueError(
            f"{host}'s board hosts no game on the broker after {TABLE_WAIT_S:g} s: start it "
            f"there with tabletop sim --host-remote SEAT={board} --board-name {host}"
        )
    if board not in table.seats:
        holders = ", ".join(sorted(set(table.seats)))
        raise ValueError(
            f"{host}'s {table.game} game has no seat for {board}: its seats are held by "
            f"{holders}; the host gives one with --host-remote SEAT={board}"
        )
    return table, early


def refresher(sim: Simulation) -> Any:
    def refresh() -> None:
        """The session decides again (what arrived is shown) and the screen is drawn."""
        sim.loop.put(Tick(sim.clock.now()))
        sim.advance(sim.step_s)

    return refresh


def _play(sim: Simulation, side: Side, link: Link, args: argparse.Namespace, out: TextIO) -> int:
    session = sim.session
    game = session.game
    if sim.resumed:
        moves = len(game.history)
        print(
            f"tabletop: resuming the journal's game {session.game_id} after "
            f"{moves} move{'s' if moves != 1 else ''}",
            file=sys.stderr,
        )
    if args.json:
        sim.listeners.append(lambda state: print(json.dumps(state), file=out, flush=True))
    else:
        seats = " vs ".join(
            f"{game.seat_name(seat)} ({owner})" for seat, owner in enumerate(side.owners)
        )
        sealed = isinstance(side, Guest) and side.sealed
        dealt = f"dealt by {side.host}'s board" if isinstance(side, Guest) and sealed else ""
        print(f"{game.title}, {dealt or f'seed {sim.opts.seed}'}: {seats}", file=out, flush=True)
        sim.commits.append(lambda played: print_move(_said(side, played), game.seat_name, out))
        session.refused.append(lambda reason: print_refusal(reason, session.pending_fixes(), out))
    sim.loop.switch(WaitingMenu(session, side))  # the back menu's "abandon game"
    sim.start()
    sim.set_up()
    if isinstance(side, Host):
        side.publish_table()
        side.publish_views()  # a game of hidden pieces: each guest's own deal
    elif isinstance(side, Guest):
        side.resync()  # the host's moves so far, and this board's it has not had
        side.ask()  # the table the broker kept may be older than the host's game
    said: str | None = None
    waited_since = time.monotonic()
    connects = link.connects
    while not _done(side):
        if link.connects != connects:
            connects = link.connects
            side.reconnected()
        _drain(side, link)
        sim.play_computer_seats()
        if _done(side):
            break
        side.poll()
        if sim.session.expected() is not None:
            continue  # what the other board asked for (a guest's move, dice) is here
        try:
            topic, payload = link.inbox.get(timeout=POLL_S)
        except queue.Empty:
            away = side.waiting_for()
            side.note_waiting(away)
            if away != said and not args.json:
                line = f"waiting for {away}'s board" if away else "back: the game goes on"
                print(f"      {line}", file=out, flush=True)
            said = away
            if (
                isinstance(side, Guest)
                and session.game.outcome is not None
                and time.monotonic() - waited_since > CONFIRM_WAIT_S
            ):
                raise ValueError(
                    f"{side.host}'s board did not take this board's last move within "
                    f"{CONFIRM_WAIT_S:g} s; the game is kept in the journal"
                ) from None
            continue
        waited_since = time.monotonic()
        side.take(topic, payload)
    if isinstance(side, Guest):
        seal_journal(side)
    link.flush()
    final = {**sim.final(), "abandoned": side.abandoned_by}
    if args.json:
        print(json.dumps(final), file=out, flush=True)
    elif side.abandoned_by is not None:
        print(f"Abandoned: {side.abandoned_by} abandoned the game", file=out, flush=True)
    else:
        print(result_line(final), file=out, flush=True)
    moves = max(len(session.game.history), 1)
    print(
        f"tabletop: sent {link.sent_messages} messages, {link.sent_bytes} bytes "
        f"({link.sent_bytes // moves} bytes a move); dropped {side.dropped} duplicates, "
        f"refused {len(side.refused)} messages",
        file=sys.stderr,
    )
    return 0


def _said(side: Side, played: Played) -> Played:
    """A move as this board may tell it: another board's seat's draws only counted in a
    game of hidden pieces (this board holds stand-ins for them)."""
    if not side.sealed or played.mover in side.mine:
        return played
    name = side.game.name
    text, story = public_words(name, played.text), public_words(name, played.story)
    return msgspec.structs.replace(played, text=text, story=story)


def _done(side: Side) -> bool:
    if isinstance(side, Guest):
        return side.done()
    return side.over()


def _drain(side: Side, link: Link) -> None:
    while True:
        try:
            topic, payload = link.inbox.get_nowait()
        except queue.Empty:
            side.nudge(time.monotonic())  # a word lost between brokers is asked again
            return
        side.take(topic, payload)
        side.heard_at = time.monotonic()
