"""A seat and its points stay on one line of the OLED, wherever the line breaks."""

from __future__ import annotations

from firmware_bridge.kits.doublecross.turn import points_text
from firmware_bridge.screen.layout import wrap_text


def test_a_seat_and_its_points_are_never_split() -> None:
    text = f"P1: E on M9 partial: RITE; P2's bomb +8, {points_text([-8, 8, 0])}"
    for width in range(60, 128):
        lines = wrap_text(text, width)
        assert not any(line.endswith(("P1", "P2")) for line in lines), (width, lines)
        joined = " ".join(lines)
        assert "P1 -8" in joined and "P2 +8" in joined and "\u00a0" not in joined
