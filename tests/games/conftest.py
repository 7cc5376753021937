"""Fixtures of the rules' tests: the ENABLE word list, its move generator and word set,
each built once per run (skipped where the list is not available)."""

from __future__ import annotations

import pytest

from games.crosslet.movegen import MoveGenerator
from tests.games.crosslet.helpers import WordSet, enable_words


@pytest.fixture(scope="session")
def enable_list() -> list[str]:
    """The ENABLE words, or the test is skipped."""
    words = enable_words()
    if words is None:
        pytest.skip("enable1.txt.gz is not available")
    return words


@pytest.fixture(scope="session")
def enable_generator(enable_list: list[str]) -> MoveGenerator:
    return MoveGenerator(enable_list)


@pytest.fixture(scope="session")
def enable_set(enable_list: list[str]) -> WordSet:
    return WordSet(enable_list)
