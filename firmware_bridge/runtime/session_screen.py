"""What the table shows: the screen composed from the game's and the table's state,
its pages turned on the OLED, and the status LED's state."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from ..referees.fixes import Fix
from ..referees.ruling import Ruling
from ..screen.layout import PAGE_S, LaidOut, draw_layout, lay_out
from ..screen.screens import HEIGHT, WIDTH, Screen

if TYPE_CHECKING:
    from wiring.profile import Profile

READING = "Reading the board…"

DISK_FULL_SCREEN = Screen(
    "Disk full", "", ("Move not saved yet:", "free space on the", "SD card to go on.")
)


def oled_size(profile: Profile | None) -> tuple[int, int]:
    """The display's pixels, from the profile."""
    oled = profile.oled if profile is not None else None
    return (oled.width, oled.height) if oled is not None else (WIDTH, HEIGHT)


def table_screen(
    disk_full: str | None,
    connected: bool,
    link_message: str,
    board_failure: str,
    reading: bool,
    game_screen: Callable[[], Screen],
) -> Screen:
    """The screen: what stops the game (a full disk, the board offline or unread) or
    else the game's screen."""
    if disk_full is not None:
        return DISK_FULL_SCREEN
    if not connected:
        return Screen("Board offline", "", (link_message or "Check the cable.",))
    if board_failure:
        return Screen("Not judged", "", (board_failure, "Then press the button again."))
    screen = game_screen()
    if reading:
        # First, above what the screen said (a fix it lists stays on it).
        screen = replace(screen, lines=(READING, *screen.lines))
    return screen


def game_screen(
    ruled: Ruling,
    restoring: bool,
    note: str,
    menu_open: bool,
    pending_fixes: list[Fix],
    why: str = "",
) -> Screen:
    """The game's screen as the referee ruled it: the fixes that set the board up while
    it is restored, or the view's screen with ``note`` above it (and, under a hint, the
    game's words on why: ``why``)."""
    if restoring and ruled.restore_screen is not None:
        return ruled.restore_screen
    screen = ruled.screen()
    if note and not menu_open and not pending_fixes:
        above = (note, why[:1].upper() + why[1:]) if why else (note,)
        screen = replace(screen, lines=(*above, *screen.lines))
    return screen


class OledState:
    """The OLED as last drawn: the screen laid out on its pixels, when that screen
    first appeared (its pages count from then), and the status LED's state."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.last: LaidOut | None = None
        self.shown_at = 0.0
        self.led = ""

    def page_due(self, now: float) -> bool:
        """Whether the screen shown has pages and the next one is due ``now``."""
        last = self.last
        if last is None or last.pages < 2:
            return False
        return now >= self.shown_at + (last.page + 1) * PAGE_S

    def lay_out(self, screen: Screen, now: float) -> LaidOut:
        """``screen`` laid out on the page due ``now`` (a new screen starts its pages)."""
        last = self.last
        if last is None or last.screen != screen:
            self.shown_at = now
        return lay_out(screen, self.size, now - self.shown_at)

    def first_frame(self, screen: Screen) -> Any:
        """``screen``'s first page, drawn."""
        return draw_layout(lay_out(screen, self.size, 0.0))

    def frame(self, screen: Screen, now: float, drawn: bool) -> tuple[LaidOut, bool, Any]:
        """``screen`` laid out at ``now``; whether it changed; its frame if so and ``drawn``."""
        layout = self.lay_out(screen, now)
        changed = layout != self.last
        image = draw_layout(layout) if changed and drawn else None
        return layout, changed, image

    def led_change(self, connected: bool, pending_fixes: Callable[[], list[Fix]]) -> str | None:
        """The status LED's new state, if it changes (see :func:`led_state`)."""
        led = led_state(connected, pending_fixes)
        if led == self.led:
            return None
        self.led = led
        return led


def led_state(connected: bool, pending_fixes: Callable[[], list[Fix]]) -> str:
    """The status LED: steady when all is well, blinking while the board needs a fix."""
    if not connected:
        return "fault"
    if pending_fixes():
        return "busy"
    return "ok"
