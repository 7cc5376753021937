"""``tabletop run``: the referee on a real board, as a long-running service.

It resumes the newest unfinished game in the journal (checking the board against
the replayed layout first), or starts the configured game. It tells systemd when
it is ready and pets the watchdog from the loop, so a hung loop is restarted.
"""

from __future__ import annotations

import logging
import random
import secrets
import signal
import time
from pathlib import Path
from typing import Any, TextIO

from hardware.board import SensorBoard
from hardware.clock import Clock, SystemClock
from wiring.config import RunConfig, load_config
from wiring.loader import check_fits
from wiring.profile import Profile

from .journal import Journal
from .kits import find_kit
from .loop import Loop
from .session import Session
from .tags import TagTable

log = logging.getLogger("tabletop")

WATCHDOG_EVERY_S = 5.0


def build_board(profile: Profile, factory: Any, clock: Clock) -> SensorBoard:
    """The real sensor board the profile describes."""
    from hardware.settle import SettleFilter

    settle_s = profile.settle_ms / 1000
    if profile.matrix is not None:
        from hardware.matrix import GpioMatrixBoard, MatrixScanner

        scanner = MatrixScanner(profile.matrix, profile.cells, pin_factory=factory)
        settle = SettleFilter(profile.cells, settle_s)
        return GpioMatrixBoard(scanner, settle, 1.0 / profile.matrix.scan_hz)
    from .link.board import SerialSensorBoard

    assert profile.serial is not None
    return SerialSensorBoard(profile.serial, profile.cells, clock=clock, settle_window_s=settle_s)


def start_session(config: RunConfig, journal: Journal, display: Any, signals: Any) -> Session:
    """Resume the newest unfinished game, or start the configured one."""
    record = journal.unfinished()
    labels = TagTable.load(config.tags).lookup
    if record is not None:
        kit = find_kit(record.game)
        game = Session.replay(journal, record.id, kit.new_game)
        session = Session(
            game, journal, record.id, kit.make_referee, display, signals, labels=labels
        )
        session.restoring = True
        log.info("resumed game %d of %s after %d inputs", record.id, record.game, len(game.history))
        return session
    name = config.game or config.profile.games[0]
    kit = find_kit(name)
    players = config.players or 2
    seed = config.seed if config.seed is not None else secrets.randbits(32)
    game = kit.new_game(players, random.Random(seed), {})
    game_id = journal.new_game(name, players, seed, {}, config.profile.name)
    log.info("new game %d of %s for %d players", game_id, name, players)
    return Session(game, journal, game_id, kit.make_referee, display, signals, labels=labels)


def run_daemon(config_path: Path, out: TextIO) -> int:
    from hardware.buttons import ButtonStation
    from hardware.oled import Oled, open_oled
    from hardware.pins import real_pin_factory
    from hardware.signals import Signals

    config = load_config(config_path)
    logging.basicConfig(level=config.log_level, format="%(levelname)s %(name)s: %(message)s")
    profile = config.profile
    factory = real_pin_factory()
    clock = SystemClock()
    oled = Oled(open_oled(profile.oled))
    signals = Signals(profile.buzzer_pin, profile.led_pin, pin_factory=factory)
    board = build_board(profile, factory, clock)
    journal = Journal(config.journal)
    session = start_session(config, journal, oled, signals)
    problems = check_fits(profile, session.game.name, session.game.cells())
    if problems:
        raise ValueError("; ".join(problems))
    loop = Loop(session, board)
    station = ButtonStation(profile.buttons, pin_factory=factory, clock=clock, on_event=loop.put)
    notifier = _notifier()
    stop = False

    def _stop(signum: int, frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    notifier("READY=1")
    print(f"tabletop: refereeing {session.game.title} on {profile.name}", file=out, flush=True)
    interval = 1.0 / profile.matrix.scan_hz if profile.matrix else 0.02
    last_pet = 0.0
    try:
        while not stop:
            now = clock.now()
            loop.step(now)
            if session.game.outcome is not None and session.referee.new_game_requested:
                session = start_session(config, journal, oled, signals)
                loop.session = session
                session.refresh()
            if now - last_pet >= WATCHDOG_EVERY_S:
                notifier("WATCHDOG=1")
                last_pet = now
            time.sleep(max(0.0, interval - (clock.now() - now)))
    finally:
        notifier("STOPPING=1")
        station.close()
        board.close()
        signals.close()
        oled.close()
        journal.close()
    return 0


def _notifier() -> Any:
    """sd_notify, or nothing when not started by systemd."""
    import sdnotify

    n = sdnotify.SystemdNotifier()
    return n.notify
