"""A short list on the OLED, answered with the station's buttons."""

from __future__ import annotations

from typing import Any


class Menu:
    """A short list answered with left/right and ok (back cancels)."""

    def __init__(self, title: str, options: list[tuple[str, Any]], subject: str = "") -> None:
        self.title = title
        self.options = options
        self.subject = subject
        """What the menu asks about (a blank's cell), for those who answer it."""
        self.index = 0

    def move(self, step: int) -> None:
        self.index = (self.index + step) % len(self.options)

    @property
    def choice(self) -> Any:
        return self.options[self.index][1]

    def lines(self) -> tuple[str, ...]:
        label = self.options[self.index][0]
        return (f"< {label} >", "ok: choose  back: cancel")
