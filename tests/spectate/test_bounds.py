"""Bounded everywhere: what the hub keeps of refused board names, and what an error says
of a broker URL's password."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from firmware_bridge.spectate.club import MAX_REFUSERS, Club
from firmware_bridge.spectate.mqtt import BrokerSettings
from firmware_bridge.spectate.page import diagnostics_html
from tests.spectate.tools import board_state


def test_refused_names_of_any_length_are_kept_short() -> None:
    club = Club()
    state = json.dumps(board_state()).encode()
    for n in range(MAX_REFUSERS):
        # 60,000 characters, with a space: refused as a board name.
        assert club.take(f"tabletop/{n:04d} {'x' * 59_995}/state", state) is None
    facts = club.diagnostics()
    assert len(facts["by_board"]) == MAX_REFUSERS
    assert max(len(name) for name in facts["by_board"]) == 65
    page = diagnostics_html({"messages": MAX_REFUSERS, **facts})
    assert len(page) < 250_000, len(page)


def test_the_hubs_own_name_is_no_boards() -> None:
    club = Club()
    club.reserved.add("hub")
    assert club.take("tabletop/hub/state", json.dumps(board_state()).encode()) is None
    assert "the hub's own name" in club.refused["hub"].last
    assert "hub" not in club.boards


@pytest.mark.parametrize(
    "url", ["mqtt://table-1:s3cret@club.local:99999", "ftp://table-1:s3cret@club.local"]
)
def test_a_broker_url_refused_never_shows_its_password(url: str) -> None:
    with pytest.raises(ValueError) as refused:
        BrokerSettings.from_url(url)
    assert "s3cret" not in str(refused.value) and "table-1:***@" in str(refused.value)
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.apps.cli", "hub", "--broker", url],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "s3cret" not in done.stderr + done.stdout, done.stderr
