"""``tabletop sim --json`` run in the test's process: the states it printed, one a line."""

from __future__ import annotations

import io
import json
from typing import Any, Protocol

from firmware_bridge.apps.cli import main


class RunSim(Protocol):
    def __call__(self, game: str, *args: str, code: int | None = 0) -> list[dict[str, Any]]: ...


def run_sim(game: str, *args: str, code: int | None = 0) -> list[dict[str, Any]]:
    """The JSON states of ``tabletop sim --game game --json *args``.

    The command must exit with ``code`` (unless it is None).
    """
    out = io.StringIO()
    returned = main(["sim", "--game", game, "--json", *args], out=out)
    if code is not None:
        assert returned == code
    return [json.loads(line) for line in out.getvalue().splitlines()]
