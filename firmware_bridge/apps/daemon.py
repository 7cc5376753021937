"""``tabletop run``: the referee on a real board, as a long-running service.

It resumes the newest unfinished game in the journal (checking the board against
the replayed layout first), or starts the configured game. It tells systemd when
it is ready and pets the watchdog from the loop, so a hung loop is restarted.
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

from games.errors import GameError
from hardware.buttons import ButtonStation
from hardware.clock import Clock, SystemClock
from hardware.pi import pi_model, require_pi
from wiring.config import RunConfig
from wiring.errors import WiringError
from wiring.profile import Profile

from ..journal import Journal, JournalError, open_or_set_aside, start_anew
from ..runtime.host import TableHost
from ..runtime.live import LiveFile
from ..runtime.lobby import Choice, Lobby, lobby_choices
from ..runtime.loop import Loop
from ..runtime.session import Session
from ..runtime.table import Devices, open_display, open_inputs
from ..runtime.tags import TagTable
from ..screen.layout import render, wrap_text
from ..screen.screens import WIDTH, Screen
from .checks import checked_config
from .pi_interfaces import check_interfaces

log = logging.getLogger("tabletop")

WATCHDOG_EVERY_S = 5.0
NOTICE_S = 10.0
"""How long a start-up notice (a damaged journal set aside) stays on the OLED."""


def choices(profile: Profile) -> list[Choice]:
    """The games the board's profile is made for, as the lobby offers them."""
    return lobby_choices(profile)


class DaemonTable(TableHost):
    """``tabletop run``'s table (:class:`..runtime.host.TableHost`): the start menu
    choosing a game, or a game's session.

    Starts by resuming the newest unfinished game, else the configured game, else
    the start menu; after a game, ok opens the menu again on the same game. Built
    without its loop, it shows what it starts with on the display and waits for
    :meth:`attach` to be given the loop and the buzzer and LED.
    """

    def __init__(
        self,
        config: RunConfig,
        journal: Journal,
        loop: Loop | None,
        display: Any,
        signals: Any,
    ) -> None:
        devices = {
            "display": display,
            "signals": signals,
            "labels": TagTable.load(config.tags).lookup,
            "lights": None,
        }
        super().__init__(
            journal,
            config.profile,
            devices,
            misfit=ValueError,
            refusals=(ValueError,),  # GameError is one
            menu_at=config.journal,
            table_options=True,
            seed=config.seed,
            words=config.words,
            game=config.game,
            players=config.players or 2,
        )
        self.loop = loop

    def seated(self, session: Session[Any], begin: Any) -> None:
        # Whatever stands on the board must first match the game's layout.
        session.restoring = True
        # Spectators (tabletop web, publish) read what only the session knows from here.
        session.listeners.append(LiveFile(self.journal.path, session.game_id))
        if self.loop is None:
            # Before the board is open: the game's screen, and nothing else yet.
            session.show_first()
            return
        self.loop.switch(session)
        session.refresh()

    def menu_opened(self, lobby: Lobby) -> None:
        self.on_table = None
        lobby.refresh()

    def refused(self, lobby: Lobby, exc: Exception) -> None:
        log.warning("the start menu's game cannot start: %s", exc)
        super().refused(lobby, exc)


EXIT_CONFIG = 78
"""``tabletop run``'s exit status when the config or profile is wrong (sysexits' EX_CONFIG):
restarting cannot help, so the unit lists it in ``RestartPreventExitStatus=``."""
EXIT_JOURNAL = 73
"""The exit status when the journal cannot be opened (EX_CANTCREAT); not restarted either."""


def watchdog_interval(environ: Mapping[str, str] = os.environ) -> float:
    """How often the loop pets the watchdog: half systemd's ``WatchdogSec=``, at most
    ``WATCHDOG_EVERY_S``."""
    try:
        half = int(environ.get("WATCHDOG_USEC", "")) / 2e6
    except ValueError:
        return WATCHDOG_EVERY_S
    return min(WATCHDOG_EVERY_S, half) if half > 0 else WATCHDOG_EVERY_S


def open_pi_display(profile: Profile) -> Any:
    """The profile's OLED, on a Raspberry Pi (anywhere else, that is what is said)."""
    require_pi()
    return open_display(profile)


def run_daemon(
    config_path: Path,
    out: TextIO,
    display: Callable[[Profile], Any] = open_pi_display,
    inputs: Callable[[Profile, Clock, Any], Devices] = open_inputs,
) -> int:
    """Run the referee until SIGTERM or SIGINT; the exit status.

    The OLED is opened first and shows the game (or the start menu) at once; then
    ``inputs`` opens the pins, the buzzer and LED and the sensor board beside it, and
    the buttons follow. Nothing is read before then, so no input can be missed.

    The sd_notify messages go to systemd from this loop only, never from a thread:
    READY=1 once the devices are open and the game is on the table, WATCHDOG=1 as
    long as the loop keeps stepping, so a stuck loop stops petting and is restarted.
    """
    try:
        config = checked_config(config_path)
    except WiringError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    logging.basicConfig(level=config.log_level, format="%(levelname)s %(name)s: %(message)s")
    profile = config.profile
    if pi_model() is not None:
        # Off a Pi the boot config and the console are another machine's: the display's
        # opening says what matters there, that this is not a Pi.
        interfaces = check_interfaces(profile.used_pins())
        for problem in interfaces.problems:
            print(f"tabletop: warning: {problem}", file=sys.stderr)
        for what in interfaces.unchecked:
            print(f"tabletop: not checked: {what}", file=sys.stderr)
    clock = SystemClock()
    try:
        journal, notice = open_or_set_aside(config.journal)
    except JournalError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return EXIT_JOURNAL
    try:
        oled = display(profile)
    except BaseException:
        journal.close()
        raise
    try:
        if notice is not None:
            log.error("%s", notice)
            show_notice(oled, notice)
            time.sleep(NOTICE_S)
        table, journal = start_table(config, journal, oled)
        hardware = inputs(profile, clock, oled)
    except BaseException:
        oled.close()
        journal.close()
        raise
    loop = Loop(Lobby(choices(profile)), hardware.board)
    loop.on_error = table.event_failed
    table.attach(loop, hardware.signals, hardware.lights)
    station = ButtonStation(
        profile.buttons, pin_factory=hardware.pin_factory, clock=clock, on_event=loop.put
    )
    notifier = _notifier()
    stop = False
    interrupted = False

    def _stop(signum: int, frame: object) -> None:
        nonlocal stop, interrupted
        stop = True
        interrupted = signum == signal.SIGINT

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    hardware.signals.connected()
    # What start-up built lives as long as the process: keep it out of the
    # collector's full passes, which would otherwise walk it on the event path.
    gc.collect()
    gc.freeze()
    notifier("READY=1")
    print(f"tabletop: running on {profile.name}", file=out, flush=True)
    interval = 1.0 / profile.matrix.scan_hz if profile.matrix else 0.02
    pet_every = watchdog_interval()
    last_pet = clock.now() - pet_every
    try:
        while not stop:
            now = clock.now()
            loop.step(now)
            hardware.signals.release()
            table.after_step()
            if now - last_pet >= pet_every:
                notifier("WATCHDOG=1")
                last_pet = now
            time.sleep(max(0.0, interval - (clock.now() - now)))
    finally:
        notifier("STOPPING=1")
        station.close()
        hardware.close()
        journal.close()
    if interrupted:
        # Ctrl-C, by hand: told as every command's interruption (systemd stops with TERM).
        raise KeyboardInterrupt
    return 0


def start_table(config: RunConfig, journal: Journal, oled: Any) -> tuple[DaemonTable, Journal]:
    """The table on the journal's unfinished game, and the journal it plays into.

    A journal whose unfinished game cannot be resumed (a game or a setting this
    tabletop does not know, a move that does not replay, a row that cannot be read)
    is set aside as a damaged one is, the display and the log say so, and a new
    journal is started: the service always starts.
    """
    table = DaemonTable(config, journal, None, oled, None)
    try:
        table.start()
    except (JournalError, GameError) as exc:
        journal, notice = start_anew(journal, str(exc))
        log.error("%s (%s)", notice, exc)
        show_notice(oled, notice)
        time.sleep(NOTICE_S)
        try:
            table = DaemonTable(config, journal, None, oled, None)
            table.start()
        except BaseException:
            journal.close()
            raise
    return table, journal


def show_notice(display: Any, notice: str) -> None:
    """Put a start-up notice on the display, before the table's own screen."""
    display.show(render(Screen("Notice", "", tuple(wrap_text(notice, WIDTH)))))


def _notifier() -> Any:
    """sd_notify, or nothing when not started by systemd."""
    import sdnotify

    n = sdnotify.SystemdNotifier()
    return n.notify
