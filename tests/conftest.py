"""Test options shared by every folder."""

from __future__ import annotations

import pytest

from tests.boards import FakeBoard


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--hardware",
        action="store_true",
        default=False,
        help="run tests that need a Raspberry Pi with the board attached",
    )
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite the reference files (OLED frames, protocol bytes) instead of comparing",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--hardware"):
        return
    skip = pytest.mark.skip(reason="needs a Raspberry Pi with the board attached (--hardware)")
    for item in items:
        if item.get_closest_marker("hardware") is not None:
            item.add_marker(skip)


@pytest.fixture
def fake_board() -> FakeBoard:
    """A sensor board with no cells; the events put in its ``pending`` are the next poll's."""
    return FakeBoard()
