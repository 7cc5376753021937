"""The simulator's pictures of the lights: with ``--frames``, every change of what is
lit under the squares is drawn as the board with its lit squares (``lights-NNNNN.png``,
numbered from 1), beside the OLED's frames, and handed on to the chain."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from games.core import Game

from ..runtime.lightsink import LightSink
from ..spectate.board_png import board_png
from ..spectate.geometry import geometry


class LightFrames:
    """A light sink that draws each lit map it is given, then gives it to ``inner``."""

    def __init__(self, folder: Path, game: Callable[[], Game], inner: LightSink) -> None:
        self.folder = folder
        self.game = game
        self.inner = inner
        self.drawn = 0

    def show_lights(self, lit: Mapping[str, str]) -> None:
        game = self.game()
        state: dict[str, Any] = game.state_dict()
        picture = board_png(
            geometry(game),
            state["layout"],
            [game.seat_name(p) for p in range(game.players)],
            title=f"{game.title}: the lights after {len(game.history)} moves",
            scores=game.scores(),
            leds=lit,
        )
        self.drawn += 1
        self.folder.mkdir(parents=True, exist_ok=True)
        picture.save(self.folder / f"lights-{self.drawn:05d}.png", format="PNG")
        self.inner.show_lights(lit)
