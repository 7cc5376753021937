"""A fake ``micropython`` module: records what the firmware asks of it."""

from __future__ import annotations

kbd_intr_calls: list[int] = []


def kbd_intr(chr: int) -> None:
    kbd_intr_calls.append(chr)
