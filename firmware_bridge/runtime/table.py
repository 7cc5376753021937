"""One way to build a table from a profile: its devices, each game's session on them
(a game resumed from the journal or a new one, fitted to the board, its computer seats
taken), and what comes on the table after a step.

``tabletop run``, ``tabletop sim`` and the tests all build the sensor board (with
its settle filter, whichever kind of board it is), the OLED, the buzzer and LED,
and a game's session here, so the three cannot drift apart. The OLED opens apart
from the rest (``open_display``, then ``open_inputs``), so that a table can show its
game before its board and buttons are opened. Only what differs is passed in: the
pin factory (the Pi's or gpiozero's mock pins), the OLED device (luma's real driver
or its dummy) and, in simulation, the serial port of the simulated Pico.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field
from msgspec.structs import replace

from games.core import Game
from hardware.board import SensorBoard
from hardware.clock import Clock
from hardware.dice import DiceSource
from hardware.oled import Oled, open_oled
from hardware.settle import SettleFilter
from wiring.loader import check_fits
from wiring.profile import Profile

from ..journal import GameRecord, Journal
from ..kits import Kit
from ..referees.referee import Referee
from .lightsink import LightSink, NoLights
from .session import Session
from .takeback import LastPlayed, Unseen, rebuild

if TYPE_CHECKING:  # the start menu is imported only once a table opens it
    from .lobby import Lobby, Start

log = logging.getLogger(__name__)


class Devices(Struct):
    """The hardware a table runs: pins, OLED, buzzer and LED, the sensor board and the
    LEDs under the squares (``lights``: the session shows what is lit there)."""

    pin_factory: Any
    oled: Any
    signals: Any
    board: SensorBoard
    lights: LightSink = field(default_factory=NoLights)

    def close(self) -> None:
        self.board.close()
        self.signals.close()
        self.oled.close()


def settle_filter(profile: Profile) -> SettleFilter:
    """The settle filter over the profile's cells, with its settle window."""
    return SettleFilter(profile.cells, profile.settle_ms / 1000)


def sensor_board(
    profile: Profile, pin_factory: Any, clock: Clock, *, port: str | None = None
) -> SensorBoard:
    """The sensor board the profile describes, given its settle filter.

    ``port`` replaces the profile's serial port (the simulated Pico's pseudo-terminal).
    """
    if profile.matrix is not None:
        from hardware.matrix import GpioMatrixBoard, MatrixScanner

        if profile.matrix.scan_hz <= 0:
            raise ValueError(f"matrix scan_hz must be positive, not {profile.matrix.scan_hz}")
        scanner = MatrixScanner(profile.matrix, profile.cells, pin_factory=pin_factory)
        return GpioMatrixBoard(scanner, settle_filter(profile), 1.0 / profile.matrix.scan_hz)
    if profile.serial is None:
        raise ValueError(
            f"profile {profile.name!r} has neither [matrix] nor [serial] wiring: "
            "say how the board's sensors are read"
        )
    from ..link.board import SerialSensorBoard

    wiring = profile.serial if port is None else replace(profile.serial, port=port)
    sweep_s = profile.timing.sweep_s(len(profile.cells), wiring.sensor == "rfid")
    return SerialSensorBoard(
        wiring, profile.cells, clock=clock, settle=settle_filter(profile), sweep_s=sweep_s
    )


def light_sink(profile: Profile, board: SensorBoard, clock: Clock) -> LightSink:
    """The LEDs under the squares: the profile's chain on its serial board, driven over
    the link; :class:`NoLights` for a board without one."""
    if profile.leds is None:
        return NoLights()
    from ..link.board import SerialSensorBoard

    if not isinstance(board, SerialSensorBoard):
        log.warning(
            "profile %r has an LED chain but no Pico to drive it: the lights stay dark",
            profile.name,
        )
        return NoLights()
    from ..link.leds import SerialLights

    return SerialLights(board, profile.leds, clock)


def open_devices(
    profile: Profile,
    clock: Clock,
    *,
    pin_factory: Any = None,
    oled_device: Any = None,
    port: str | None = None,
    frames_dir: Path | None = None,
) -> Devices:
    """Open the devices the profile wires: the Pi's own unless a factory or device is given."""
    if pin_factory is None:
        # First: on a machine that is not a Pi, that is what to hear about.
        from hardware.pins import real_pin_factory

        pin_factory = real_pin_factory()
    oled = open_display(profile, oled_device=oled_device, frames_dir=frames_dir)
    try:
        return open_inputs(profile, clock, oled, pin_factory=pin_factory, port=port)
    except BaseException:
        oled.close()
        raise


def open_display(
    profile: Profile, *, oled_device: Any = None, frames_dir: Path | None = None
) -> Any:
    """The profile's OLED (the real one unless a luma device is given): all the first
    frame needs of the hardware, so that it can be shown before the rest is opened."""
    device = oled_device if oled_device is not None else open_oled(profile.oled)
    return Oled(device, wiring=profile.oled, frames_dir=frames_dir)


def open_inputs(
    profile: Profile,
    clock: Clock,
    oled: Any,
    *,
    pin_factory: Any = None,
    port: str | None = None,
) -> Devices:
    """The rest of the table beside its open ``oled``: the pins, the buzzer and LED, and
    the sensor board; on failure what was opened here is closed again (not the OLED)."""
    from hardware.signals import Signals

    if pin_factory is None:
        from hardware.pins import real_pin_factory

        pin_factory = real_pin_factory()
    # Deferred: a move's beep starts after the loop step that drew its frame.
    signals = Signals(profile.buzzer_pin, profile.led_pin, pin_factory=pin_factory, deferred=True)
    try:
        board = sensor_board(profile, pin_factory, clock, port=port)
    except BaseException:
        signals.close()
        raise
    try:
        lights = light_sink(profile, board, clock)
    except BaseException:
        board.close()
        signals.close()
        raise
    return Devices(pin_factory, oled, signals, board, lights)


def new_session(
    kit: Kit,
    game: Game,
    journal: Journal,
    game_id: int,
    *,
    display: Any,
    signals: Any,
    profile: Profile | None,
    labels: Any = None,
    dice: DiceSource | None = None,
    last_played: LastPlayed | None = None,
    lights: LightSink | None = None,
    referee: type[Referee[Any]] | None = None,
) -> Session[Any]:
    """A session of ``game`` shown on ``display`` (the devices' OLED, or none), on the
    board ``profile`` describes (none: a board of the game's cells and the default OLED),
    its lights on ``lights`` (the devices' LED chain; none until the devices are open),
    refereed by the kit's referee unless ``referee`` is another class (a test's stand-in)."""
    session: Session[Any] = Session(
        game,
        journal,
        game_id,
        partial(kit.referee_for, referee=referee),
        display=display,
        signals=signals,
        labels=labels,
        dice=dice,
        profile=profile,
        last_played=last_played,
    )
    if lights is not None:
        session.lights = lights
    return session


def resume_session(
    kit: Kit,
    journal: Journal,
    record: GameRecord,
    *,
    misfit: Callable[[str], Exception] | None = None,
    unseen: Unseen | None = None,
    **devices: Any,
) -> Session[Any]:
    """The session of the journal's game ``record``, replayed from its inputs and showing
    its last move as it was shown; with ``misfit``, a game that does not fit the board
    (``devices["profile"]``) is refused with ``misfit(problems)``; ``unseen`` arranges
    what the game's seed did not deal (:class:`.takeback.Unseen`). It waits for the
    board to be set up as the game stands (``restoring``)."""
    game, last_played = rebuild(journal, record.id, kit.new_game, unseen)
    if misfit is not None:
        _fit(kit, game, devices["profile"], misfit)
    session = new_session(kit, game, journal, record.id, last_played=last_played, **devices)
    session.unseen = unseen
    session.restoring = True
    return session


def start_session(
    kit: Kit,
    journal: Journal,
    players: int,
    seed: int | None,
    options: dict[str, Any],
    *,
    misfit: Callable[[str], Exception],
    profile: Profile,
    game: Game | None = None,
    computer: frozenset[int] = frozenset(),
    levels: Mapping[int, int] | None = None,
    **devices: Any,
) -> Session[Any]:
    """A new game of ``kit`` journaled and on the table: dealt from ``seed`` (a fresh
    random one when None) with ``options`` unless ``game`` is given already made,
    refused with ``misfit(problems)`` before the journal holds it if it does not fit the
    board, the computer seated at ``computer`` (each seat at its level in ``levels``)."""
    seed = seed if seed is not None else secrets.randbits(32)
    game = game or kit.new_game(players, random.Random(seed), options)
    _fit(kit, game, profile, misfit)
    game_id = journal.new_game(kit.name, players, seed, options, profile.name)
    logging.getLogger("tabletop").info(
        "new game %d of %s for %d players", game_id, kit.name, players
    )
    session = new_session(kit, game, journal, game_id, profile=profile, **devices)
    if computer:
        session.seat_computer(computer, levels)
    return session


def _fit(kit: Kit, game: Game, profile: Profile, misfit: Callable[[str], Exception]) -> None:
    problems = check_fits(profile, kit.name, game.cells())
    if problems:
        raise misfit("; ".join(problems))


def next_on_table(lobby: Lobby | None, session: Session[Any] | None) -> Start | str | None:
    """What comes on the table after a step: the game the open start menu chose, or the
    start menu again (on the finished game's name) once ok asked for a new game after a
    game; None while nothing changes."""
    if lobby is not None:
        chosen: Start | None = lobby.chosen
        return chosen
    if (
        session is not None
        and session.game.outcome is not None
        and session.facts.prompt.new_game_requested
    ):
        name: str = session.game.name
        return name
    return None
