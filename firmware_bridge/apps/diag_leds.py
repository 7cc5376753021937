"""``tabletop diag``'s LED test: a chase along the chain under the squares.

One LED at a time is lit, in chain order, each for :data:`CHASE_S`, round and round:
where the data line is broken the chase stops, so the maker sees the last LED that
still gets its data and the first that does not. What is lit goes to the board's
:class:`~firmware_bridge.runtime.lightsink.LightSink` (the chain on the Pico) and is shown
in the diag view as cell → colour.
"""

from __future__ import annotations

from ..runtime.lightsink import LightSink
from ..screen import palette

CHASE_S = 0.3
"""How long each LED of the chase stays lit."""
CHASE_COLOUR = palette.SPOT
"""The chase's colour: white, every channel on, so a dead channel shows too."""


class LedChase:
    """A chase along ``chain`` (the cells in chain order) on ``lights``."""

    def __init__(self, lights: LightSink, chain: tuple[str, ...]) -> None:
        self.lights = lights
        self.chain = chain
        self.started: float | None = None
        self.at: int | None = None
        """The chain index lit now (None while stopped)."""
        self.lit: dict[str, str] = {}
        """What is lit now: cell → colour name."""

    @property
    def running(self) -> bool:
        return self.started is not None

    def start(self, now: float) -> None:
        self.started = now
        self.at = None
        self.step(now)

    def stop(self) -> None:
        self.started = None
        self.at = None
        self.lit = {}
        self.lights.show_lights({})

    def step(self, now: float) -> bool:
        """Move the chase on to the LED due at ``now``; True when it moved."""
        if self.started is None or not self.chain:
            return False
        at = int((now - self.started) / CHASE_S) % len(self.chain)
        if at == self.at:
            return False
        self.at = at
        self.lit = {self.chain[at]: CHASE_COLOUR}
        self.lights.show_lights(self.lit)
        return True

    def text(self) -> str:
        """One line for the view: where the chase is and what is lit."""
        if not self.chain:
            return "LEDs: this profile has no LED chain"
        if self.at is None:
            return f"LEDs: {len(self.chain)} in the chain, dark (chase stopped)"
        lit = ", ".join(f"{cell} {colour}" for cell, colour in self.lit.items())
        return f"LEDs: chase at LED {self.at + 1} of {len(self.chain)}; lit: {lit}"
