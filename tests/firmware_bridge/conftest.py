"""Fixtures of the table's tests: the shipped lexicon, the crosslet kit pointed at it,
a simulated game played in process (typed, or as ``tabletop sim --json`` prints it) and
the one table rig.

``kit_lexicon`` is opt-in: a module that plays Crosslet or DoubleCross through the kit
asks for it with ``pytestmark = pytest.mark.usefixtures("kit_lexicon")``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.lexicon import Lexicon
from tests.firmware_bridge.kits.crosslet.referee_helpers import kit_uses, shared_lexicon
from tests.firmware_bridge.sim_runs import Play, RunSim
from tests.firmware_bridge.sim_runs import play as sim_play
from tests.firmware_bridge.sim_runs import run_sim as sim_run
from tests.tables import TableRig, on_table


@pytest.fixture(scope="session")
def lexicon(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """The shipped lexicon, built at most once per run and then read from pytest's cache."""
    return shared_lexicon(request, tmp_path_factory)


@pytest.fixture(scope="module")
def kit_lexicon(lexicon: Lexicon) -> Iterator[None]:
    """The crosslet kit (and the kits that share its words) using ``lexicon`` and its
    generator, for the rest of the module."""
    yield from kit_uses(lexicon)


@pytest.fixture
def play() -> Play:
    """``play(game, script=..., seed=..., ...)``: a simulated game played in the test's
    process, what the table did as the project's types (``sim_runs.SimRun``)."""
    return sim_play


@pytest.fixture
def run_sim() -> RunSim:
    """``run_sim(game, *args, code=0)``: the states ``tabletop sim --json`` printed, for
    the tests of the command line and its JSON stream."""
    return sim_run


@pytest.fixture
def table_rig() -> TableRig:
    """``on_table``: a session of a game on a table of its own (see ``tests/tables.py``)."""
    return on_table
