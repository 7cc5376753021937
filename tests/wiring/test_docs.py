"""docs/wiring.md shows the shipped profiles' pin tables and the example config as they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from wiring.loader import list_profiles, load_profile
from wiring.table import pin_table

ROOT = Path(__file__).parents[2]
DOC = (ROOT / "docs/wiring.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", list_profiles())
def test_docs_show_the_current_pin_table_of(name: str) -> None:
    assert f"```\n{pin_table(load_profile(name))}\n```" in DOC


def test_docs_show_the_shipped_example_config() -> None:
    example = (ROOT / "wiring/examples/tabletop.toml").read_text(encoding="utf-8")
    assert f"```toml\n{example}```" in DOC
