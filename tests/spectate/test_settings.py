"""Broker URLs, club configs and listen addresses: good ones read, bad ones explained."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from firmware_bridge.apps.cli import main
from firmware_bridge.apps.simlive import SimThread
from firmware_bridge.spectate.mqtt import BrokerSettings, check_board_name, club_settings
from firmware_bridge.spectate.server import parse_listen


def test_broker_urls() -> None:
    plain = BrokerSettings.from_url("mqtt://club.local")
    assert (plain.host, plain.port, plain.tls) == ("club.local", 1883, False)
    tls = BrokerSettings.from_url("mqtts://u%40x:p@club.local")
    assert (tls.port, tls.tls, tls.username, tls.password) == (8883, True, "u@x", "p")
    assert BrokerSettings.from_url("10.0.0.2:1884").port == 1884


@pytest.mark.parametrize("url", ["http://club.local", "mqtt://", "mqtt://h:99999"])
def test_bad_broker_urls_say_what_they_should_look_like(url: str) -> None:
    with pytest.raises(ValueError, match="broker"):
        BrokerSettings.from_url(url)


def test_club_config_with_credentials_tls_and_flags_winning(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("s3cret\n", encoding="utf-8")
    (tmp_path / "ca.pem").write_text("x", encoding="utf-8")
    config = tmp_path / "club.toml"
    config.write_text(
        'broker = "mqtt://club.local"\nboard_name = "t3"\nusername = "t3"\n'
        'password_file = "pw"\ntls = true\nca_file = "ca.pem"\n',
        encoding="utf-8",
    )
    club = club_settings(config, None, None, None)
    assert club.board_name == "t3"
    assert club.broker.password == "s3cret"
    assert club.broker.tls and club.broker.ca_file == tmp_path / "ca.pem"
    assert club_settings(config, "mqtt://other:1999", "t9", None).broker.port == 1999
    assert club_settings(config, None, "t9", None).board_name == "t9"


@pytest.mark.parametrize(
    "text,words",
    [
        ('brokr = "mqtt://x"\n', "unknown keys brokr"),
        ("tls = 1\n", "tls should be true or false"),
        ("broker = \n", "not valid TOML"),
        ('broker = "mqtt://x"\nca_file = "nothere.pem"\n', "is not a file"),
    ],
)
def test_bad_club_configs_are_explained(tmp_path: Path, text: str, words: str) -> None:
    config = tmp_path / "club.toml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=words):
        club_settings(config, None, None, None)


def test_listen_addresses() -> None:
    assert parse_listen("0.0.0.0:80") == ("0.0.0.0", 80)
    assert parse_listen(":8080") == ("127.0.0.1", 8080)
    assert parse_listen("[::1]:8080") == ("::1", 8080)
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_listen("8080x")


def test_board_names_must_fit_in_a_topic() -> None:
    assert check_board_name("table-3") == "table-3"
    for bad in ("a/b", "#", ""):
        with pytest.raises(ValueError, match="MQTT topics"):
            check_board_name(bad)


def test_cli_reports_bad_spectator_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--journal", "j.sqlite", "--listen", "nope"]) == 2
    assert "HOST:PORT" in capsys.readouterr().err
    assert main(["hub", "--broker", "ftp://x"]) == 2
    assert "mqtt://HOST" in capsys.readouterr().err
    assert main(["sim", "--game", "double-take", "--broker", "mqtt://127.0.0.1:1"]) == 2
    assert "--board-name" in capsys.readouterr().err
    assert main(["publish", "--broker", "mqtt://x"]) == 2
    assert "--board-name" in capsys.readouterr().err
    assert main(["sim", "--game", "double-take", "--serve", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert "--serve 'nonsense' should look like HOST:PORT" in err and "--listen" not in err
    assert main(["sim", "--game", "double-take", "--serve", ":8080", "--realtime", "-1"]) == 2
    assert "--realtime -1: give the seconds to wait after each move, 0 or more" in (
        capsys.readouterr().err
    )


def test_a_watched_simulation_prints_its_transcript_and_how_it_ended(tmp_path: Path) -> None:
    args = argparse.Namespace(
        game="double-take", option=[], setup=None, players=2, words=None, seed=2,
        profile=None, serve="127.0.0.1:8080",
    )  # fmt: skip
    out = io.StringIO()
    sim = SimThread(args, tmp_path / "j.sqlite", None, out)
    sim.run()
    assert sim.error is None and sim.final is not None
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("   1. red ")
    assert f"({sim.final['moves']} moves; " in lines[-2]
    assert " wins: " in lines[-2] or lines[-2].startswith("Draw")
    assert lines[-1] == "tabletop: the page stays up; Ctrl-C stops it"
