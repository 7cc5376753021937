"""docs/rules.md has a section for every game and explains every option a game declares."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_bridge.apps.checks import PLANNED_GAMES
from firmware_bridge.kits import KITS
from games.registry import GAMES

DOC = (Path(__file__).parents[2] / "docs/rules.md").read_text(encoding="utf-8")


def sections() -> dict[str, str]:
    parts = re.split(r"(?m)^## ", DOC)[1:]
    return {part.splitlines()[0].strip(): part for part in parts}


TITLES = {g.name: g.title for g in GAMES} | {
    n: t for n, t in PLANNED_GAMES.items() if n not in {g.name for g in GAMES}
}


@pytest.mark.parametrize("name", sorted(TITLES))
def test_every_game_has_a_section(name: str) -> None:
    assert TITLES[name] in sections()


@pytest.mark.parametrize(
    ("game", "option"),
    [(game, spec.name) for game, kit in KITS.items() for spec in kit.options],
)
def test_every_declared_option_is_explained_in_its_games_section(game: str, option: str) -> None:
    assert f"`{option}`" in sections()[TITLES[game]]


@pytest.mark.parametrize("package", sorted({g.package for g in GAMES}))
@pytest.mark.parametrize("module", ["__init__", "game"])
def test_the_engines_point_at_the_rules_people_can_read(package: str, module: str) -> None:
    path = Path(__file__).parents[2] / "games" / package / f"{module}.py"
    text = path.read_text(encoding="utf-8")
    assert "RULES.md" not in text, f"{path} points at a file users cannot see"
    assert "docs/rules.md" in text
