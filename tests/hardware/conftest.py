"""Fixtures for device tests: a fresh mock pin factory per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh gpiozero ``MockFactory``, reset and closed after the test."""
    factory = MockFactory()
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
