"""The errors of the wiring layer: every one lists all the problems found at once."""

from __future__ import annotations

from collections.abc import Sequence


class WiringError(ValueError):
    """Base of every wiring error; ``problems`` holds one sentence per problem.

    Each sentence names the file and the key, says what is wrong and what to do.
    """

    def __init__(self, summary: str, problems: Sequence[str]) -> None:
        self.summary = summary
        self.problems: list[str] = list(problems)
        lines = [summary, *(f"  - {p}" for p in self.problems)]
        super().__init__("\n".join(lines))


class ProfileError(WiringError):
    """A board profile that cannot be read or does not describe a usable board."""


class ConfigError(WiringError):
    """A run config that cannot be read, or whose profile cannot be loaded."""


class HeaderError(ValueError):
    """A pin number that is not on the 40-pin header."""


class NetlistError(ValueError):
    """The profile has no netlist (not a Pico board), or the netlist failed its ERC."""
