"""The workbench check of a board: what every sensor and button says, and the link's health.

``tabletop diag`` builds a :class:`Bench` over the devices a profile wires (real
ones from a run config, or the simulated ones ``tabletop sim`` uses) and shows it
live (``diag_view.py`` draws it, ``diag_terminal.py`` runs it). No game is played:
the board's settled observation is shown as it is, tags by the names ``tabletop
enrol`` gave them, and the station's buttons are counted. A long press of ok shows
a test pattern on the OLED; a long press of roll plays the buzzer's sounds in turn;
a long press of right starts or stops a chase along the LED chain (``diag_leds.py``).
"""

from __future__ import annotations

import queue
from collections import deque
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from msgspec import Struct, field
from PIL import Image, ImageDraw, ImageFont

from hardware.board import OCCUPIED, BoardSettled, BoardStatus, SensorBoard
from hardware.buttons import ButtonEvent
from hardware.signals import SOUNDS, Sound
from wiring.profile import Profile

from ..runtime.lightsink import LightSink, NoLights
from .diag_leds import LedChase

LOG_LINES = 8
PATTERN_BUTTON = "ok"
"""A long press of this button shows the OLED test pattern."""
BUZZER_BUTTON = "roll"
"""A long press of this button plays the next buzzer sound."""
LED_BUTTON = "right"
"""A long press of this button starts or stops the LED chase."""


class Presses(Struct):
    """How often one button was pressed, short and long."""

    short: int = 0
    long: int = 0


class LinkCounters(Struct, frozen=True):
    """The serial link's counters, as the host counts them."""

    connected: bool
    frames: int
    bad_frames: int
    bad_reasons: Mapping[str, int]
    lost_events: int
    duplicates: int
    refused: int
    restarts: int
    reconnects: int
    whole: bool
    """The host's copy of the board is complete and trusted."""
    readers: tuple[str, ...] = ()
    """The board's reader census: each reader's chip and VersionReg."""
    sweep_ms: int | None = None
    """How long the board's last full sweep took (None before its first census)."""
    loop_ms: int | None = None
    """The board's longest loop pass since its previous census."""


# Imported by name: the firmware is untyped MicroPython and stays outside mypy.
READER_CHIPS: dict[int, str] = dict(import_module("firmware_bridge.firmware.mfrc522").VERSIONS)
"""VersionReg values of the chips on MFRC522 modules: the firmware's own table, with
the data sheets it comes from (``firmware/mfrc522.py``)."""


TRF7962A_PRESENT: int = import_module("firmware_bridge.firmware.rowcol").PRESENT
"""The census entry of a row and column board's TRF7962A that answers: it has no
version register, so the firmware reports the ISO Control read-back (02h) its
driver's ``start()`` checks (``firmware/rowcol.py``)."""


def reader_text(number: int, version: int) -> str:
    """One line of the census: ``reader 1: MFRC522 v2.0 (92h)``."""
    if version in (0x00, 0xFF):
        return f"reader {number + 1}: not answering ({version:02X}h)"
    if version == TRF7962A_PRESENT:
        # No version register: what is known is that it passed the driver's start().
        return f"reader {number + 1}: TRF7962A answers start() (ISO Control {version:02X}h)"
    return f"reader {number + 1}: {READER_CHIPS.get(version, 'unknown chip')} ({version:02X}h)"


def cross_reads(observation: Mapping[str, str]) -> dict[str, list[str]]:
    """Tags that show on more than one cell at once (a reader reaching a
    neighbour's tag), with the cells."""
    cells: dict[str, list[str]] = {}
    for cell, value in observation.items():
        if value != OCCUPIED:
            cells.setdefault(value, []).append(cell)
    return {tag: found for tag, found in cells.items() if len(found) > 1}


class Bench(Struct):
    """A board, its station, OLED and buzzer under test; fed by :meth:`step`."""

    profile: Profile
    board: SensorBoard
    oled: Any
    signals: Any
    labels: Callable[[str], str | None]
    """A tag's name (``tabletop enrol``), or None for a tag not enrolled."""
    board_kind: str = ""
    observation: dict[str, str] = field(default_factory=dict)
    """Every non-empty cell's settled reading: OCCUPIED or a tag id."""
    recent: set[str] = field(default_factory=set)
    """The cells that changed in the last settled report."""
    presses: dict[str, Presses] = field(default_factory=dict)
    last_button: str | None = None
    status: str = "waiting for the first scan"
    connected: bool | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    oled_mode: str = "status"
    """What the OLED shows: ``status`` or ``pattern``."""
    sounds_played: list[Sound] = field(default_factory=list)
    events: queue.SimpleQueue[ButtonEvent] = field(default_factory=queue.SimpleQueue)
    """Button events, put here by gpiozero's callback thread; taken by :meth:`step`."""
    changes: int = 0
    """Goes up by one at every change the view shows."""
    lights: LightSink = field(default_factory=NoLights)
    """The LEDs under the squares (the devices' ``lights``)."""
    chase: LedChase = field(default_factory=lambda: LedChase(NoLights(), ()))
    """The LED chase along the profile's chain (made from ``lights`` on creation)."""

    def __post_init__(self) -> None:
        chain = self.profile.leds.chain if self.profile.leds is not None else ()
        self.chase = LedChase(self.lights, chain)
        for name in self.profile.buttons.pins:
            self.presses.setdefault(name, Presses())
        if not self.board_kind:
            self.board_kind = board_kind(self.profile)

    # -- events ---------------------------------------------------------------------
    def step(self, now: float) -> bool:
        """Read the board and take the buttons' events; True if anything changed."""
        before = self.changes
        for event in self.board.poll(now):
            if isinstance(event, BoardSettled):
                self._settled(event.observation, now)
            elif isinstance(event, BoardStatus):
                self.connected = event.connected
                self.status = event.message
                self._note(now, event.message)
        while True:
            try:
                button = self.events.get_nowait()
            except queue.Empty:
                break
            self.on_button(button, now)
        if self.chase.step(now):
            self.changes += 1
        if self.changes != before and self.oled_mode == "status":
            self.show_status()
        self.signals.release()
        return self.changes != before

    def _settled(self, observation: Mapping[str, str], now: float) -> None:
        new = dict(observation)
        changed = {
            c for c in set(new) | set(self.observation) if new.get(c) != self.observation.get(c)
        }
        if not changed and self.connected is not None:
            return
        for cell in sorted(changed, key=self.profile.cells.index):
            if cell in new:
                self._note(now, f"{cell}: {self.reading(new[cell])}")
            else:
                self._note(now, f"{cell}: empty")
        for tag, cells in sorted(cross_reads(new).items()):
            if any(c in changed for c in cells):
                self._note(
                    now,
                    f"warning: tag {tag} on {' and '.join(cells)} at once: a cross-read "
                    "(docs/hardware.md, bring-up step 6)",
                )
        if self.connected is None:
            self.connected = True
            self.status = "reading the board"
        self.observation = new
        self.recent = changed
        self.changes += 1

    def on_button(self, event: ButtonEvent, now: float) -> None:
        counts = self.presses.setdefault(event.name, Presses())
        if event.long:
            counts.long += 1
        else:
            counts.short += 1
        self.last_button = event.name
        self._note(now, f"button {event.name}: {'long' if event.long else 'short'} press")
        if event.long and event.name == PATTERN_BUTTON:
            self.oled_pattern(now)
        elif event.long and event.name == BUZZER_BUTTON:
            self.buzzer_test(now)
        elif event.long and event.name == LED_BUTTON:
            self.led_test(now)
        else:
            self.oled_mode = "status"

    # -- tests of the OLED and the buzzer ------------------------------------------------
    def oled_pattern(self, now: float) -> None:
        """Show the test pattern: a frame round the edge, a checkerboard, the size."""
        self.oled.show(pattern_frame(self.oled.size))
        self.oled_mode = "pattern"
        width, height = self.oled.size
        self._note(now, f"OLED test pattern shown ({width}×{height})")

    def buzzer_test(self, now: float) -> None:
        """Play the next of the buzzer's sounds (accepted, rejected, fix needed, game over)."""
        sound: Sound = SOUNDS[len(self.sounds_played) % len(SOUNDS)]  # type: ignore[assignment]
        self.sounds_played.append(sound)
        if self.profile.buzzer_pin is None:
            self._note(now, "buzzer test: this profile wires no buzzer")
            return
        self.signals.play(sound)
        self._note(now, f"buzzer: {sound}")

    def led_test(self, now: float) -> None:
        """Start the chase along the LED chain, or stop it when it runs."""
        if not self.chase.chain:
            self._note(now, "LED test: this profile has no LED chain ([leds])")
        elif self.chase.running:
            self.chase.stop()
            self._note(now, "LED chase stopped")
        else:
            self.chase.start(now)
            self._note(now, "LED chase: one LED at a time along the chain; it stops at a break")

    def show_status(self) -> None:
        """The OLED's own summary: the board's cells in use and the last button."""
        lines = [
            "tabletop diag",
            f"{len(self.observation)} of {len(self.profile.cells)} cells in use",
            f"last button: {self.last_button or '-'}",
            "hold ok: test pattern",
        ]
        self.oled.show(text_screen(self.oled.size, lines))

    # -- what the view reads ---------------------------------------------------------------
    def reading(self, value: str) -> str:
        """A cell's reading as the maker reads it: occupied, or the tag's name."""
        if value == OCCUPIED:
            return "occupied"
        name = self.labels(value)
        return f"tag {value} ({name})" if name else f"tag {value} (not enrolled)"

    def link(self) -> LinkCounters | None:
        """The serial link's counters, or None for a board on GPIO."""
        decoder = getattr(self.board, "decoder", None)
        mirror = getattr(self.board, "mirror", None)
        transport = getattr(self.board, "transport", None)
        if decoder is None or mirror is None or transport is None:
            return None
        info = getattr(self.board, "info", None)
        return LinkCounters(
            connected=bool(self.connected) and transport.is_open,
            frames=decoder.good_frames,
            bad_frames=decoder.bad_frames,
            bad_reasons=dict(decoder.reasons),
            lost_events=mirror.gaps,
            duplicates=mirror.duplicates,
            refused=mirror.rejected,
            restarts=mirror.restarts,
            reconnects=max(0, transport.generation - 1),
            whole=mirror.current,
            readers=tuple(reader_text(i, v) for i, v in enumerate(info.versions)) if info else (),
            sweep_ms=info.sweep_ms if info else None,
            loop_ms=info.loop_ms if info else None,
        )

    def _note(self, now: float, text: str) -> None:
        self.log.append(f"{now:8.2f}  {text}")
        self.changes += 1


def board_kind(profile: Profile) -> str:
    """``GPIO matrix 8×9`` or ``serial rfid 15×15 on /dev/ttyACM0``."""
    if profile.matrix is not None:
        rows, cols = len(profile.matrix.row_pins), len(profile.matrix.column_pins)
        return f"GPIO matrix {rows}×{cols} at {profile.matrix.scan_hz:g} Hz"
    if profile.serial is not None:
        wiring = profile.serial
        return f"serial {wiring.sensor} {wiring.rows}×{wiring.columns} on {wiring.port}"
    return "no sensors wired"


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size)


def pattern_frame(size: tuple[int, int]) -> Image.Image:
    """A 1-bit frame: an edge one pixel in, a checkerboard of 8-pixel squares on the
    right half, and the size written on the left; a dead row or column shows."""
    width, height = size
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    half = width // 2
    for y in range(2, height - 2, 8):
        for x in range(half, width - 2, 8):
            if ((x - half) // 8 + (y - 2) // 8) % 2 == 0:
                draw.rectangle((x, y, min(x + 7, width - 3), min(y + 7, height - 3)), fill=1)
    draw.text((4, 4), "TEST", fill=1, font=_font(12))
    draw.text((4, height // 2), f"{width}x{height}", fill=1, font=_font(12))
    return image


def text_screen(size: tuple[int, int], lines: list[str]) -> Image.Image:
    """Lines of text on a 1-bit frame, one every 12 pixels from the top."""
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    font = _font(10)
    for i, line in enumerate(lines):
        draw.text((1, 1 + 12 * i), line, fill=1, font=font)
    return image
