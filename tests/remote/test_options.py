"""``tabletop sim --host-remote`` and ``--join`` refuse what they cannot do in one line."""

from __future__ import annotations

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.remote_play import parse_remote_seats


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--game", "dominoes", "--lobby"], "leave --script and --lobby out"),
        (["--game", "doublecross", "--frames", "f"], "do not take --serve or --frames yet"),
        (["--game", "double-take", "--script", "x.txt"], "leave --script and --lobby out"),
    ],
)
def test_what_cannot_be_hosted_is_refused_in_one_line(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The broker is never reached: every refusal comes before the board connects.
    argv = [
        "sim",
        *args,
        "--host-remote",
        "2=ann",
        "--broker",
        "mqtt://127.0.0.1:9",
        "--board-name",
        "bob",
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_board_needs_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--join", "bob", "--broker", "mqtt://127.0.0.1:9"]) == 2
    assert "--board-name NAME" in capsys.readouterr().err


def test_remote_seats_are_named_seat_by_seat() -> None:
    assert parse_remote_seats(["2=ann"], 2, "bob") == ["bob", "ann"]
    assert parse_remote_seats(["1=ann", "3=cy"], 3, "bob") == ["ann", "bob", "cy"]
    for bad, said in [
        ("3=ann", "a seat from 1 to 2"),
        ("ann", "give SEAT=BOARD"),
        ("2=bob", "this board's own name"),
        ("2=a/b", "cannot be used in MQTT topics"),
    ]:
        with pytest.raises(ValueError, match=said):
            parse_remote_seats([bad], 2, "bob")
    with pytest.raises(ValueError, match="given twice"):
        parse_remote_seats(["2=ann", "2=cy"], 2, "bob")
