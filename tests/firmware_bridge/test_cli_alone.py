"""``tabletop sim`` is parsed by its own parser alone, with the same outcome as the whole."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from firmware_bridge.apps.cli import ALONE, _Retry, build_parser, parse_args

LINES = [
    ["sim", "--help"],
    ["sim", "-h"],
    ["sim"],
    ["sim", "--game", "double-take"],
    ["sim", "--game", "crosslet", "--json", "--seed", "3", "--option", "a=b", "--option", "c"],
    ["sim", "--players", "three"],
    ["sim", "--seed"],
    ["sim", "--bogus"],
    ["sim", "--game", "crosslet", "extra"],
    ["sim", "--lobby", "--script", "-", "--humans", "1,2"],
    ["sim", "--ga", "dominoes"],
]


def _outcome(
    parse: Callable[[list[str]], argparse.Namespace],
    words: list[str],
    capsys: pytest.CaptureFixture[str],
) -> tuple[object, str, str]:
    try:
        result: object = vars(parse(words))
    except SystemExit as exc:
        result = ("exit", exc.code)
    out, err = capsys.readouterr()
    return result, out, err


@pytest.mark.parametrize("words", LINES, ids=" ".join)
def test_a_sim_command_line_parses_as_with_the_whole_parser(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert words[0] in ALONE
    alone = _outcome(parse_args, words, capsys)
    whole = _outcome(lambda w: build_parser().parse_args(w), words, capsys)
    assert alone == whole
    assert alone[1] or alone[2] or isinstance(alone[0], dict)


def test_the_parser_alone_knows_only_its_command() -> None:
    parser = build_parser("sim")
    with pytest.raises(_Retry):  # its own error, not a printed one
        parser.parse_args(["run", "--config", "x.toml"])
    assert build_parser().parse_args(["run", "--config", "x.toml"]).command == "run"
