"""Where the table's lights go: the LED chain under the squares, or nowhere.

The session hands every change of what is lit to its sink, as cell → colour name
(``palette.py``), lit cells only; the device turns names into the chain's values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class LightSink(Protocol):
    def show_lights(self, lit: Mapping[str, str]) -> None:
        """Light exactly these cells in these colours; every other LED goes dark."""


class NoLights:
    """A board without an LED chain: the lights are seen only in the state."""

    def show_lights(self, lit: Mapping[str, str]) -> None:
        return None
