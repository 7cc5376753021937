"""Where the club's broker is and how to reach it: URL, credentials, TLS, from a config.

A club config is a small TOML file (``tabletop publish --config``/``hub --config``)::

    broker = "mqtts://club.example.org:8883"
    board_name = "table-3"
    journal = "/var/lib/tabletop/journal.sqlite"
    username = "table-3"
    password_file = "/etc/tabletop/mqtt-password"
    ca_file = "/etc/tabletop/club-ca.pem"
    cert_file = "/etc/tabletop/table-3.pem"
    key_file = "/etc/tabletop/table-3.key"

Command-line flags override the file. ``mqtts://`` (or ``tls = true``) turns TLS on.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt
from msgspec import Struct
from msgspec.structs import replace
from paho.mqtt.enums import CallbackAPIVersion

KEYS = (
    "broker",
    "board_name",
    "journal",
    "username",
    "password",
    "password_file",
    "tls",
    "ca_file",
    "cert_file",
    "key_file",
)
TOPIC_ROOT = "tabletop"


class BrokerSettings(Struct, frozen=True):
    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    @classmethod
    def from_url(cls, url: str) -> BrokerSettings:
        """``mqtt://[user[:password]@]HOST[:PORT]`` or ``mqtts://...`` (TLS, port 8883)."""
        parts = urlsplit(url if "://" in url else f"mqtt://{url}")
        shown = _without_password(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise ValueError(
                f"broker {shown!r} should look like mqtt://HOST[:PORT] (or mqtts:// for TLS)"
            )
        try:
            port = parts.port
        except ValueError:
            raise ValueError(f"broker {shown!r} has a bad port number") from None
        tls = parts.scheme == "mqtts"
        return cls(
            host=parts.hostname,
            port=port or (8883 if tls else 1883),
            tls=tls,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
        )

    def client(self, client_id: str) -> mqtt.Client:
        """A paho client set up with these credentials and TLS, not yet connected."""
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            protocol=mqtt.MQTTv311,
            clean_session=True,
        )
        if self.username is not None:
            client.username_pw_set(self.username, self.password)
        if self.tls:
            client.tls_set(
                ca_certs=str(self.ca_file) if self.ca_file else None,
                certfile=str(self.cert_file) if self.cert_file else None,
                keyfile=str(self.key_file) if self.key_file else None,
            )
        return client


def _without_password(url: str) -> str:
    """``url`` as it may be shown: a password in it replaced by ``***``."""
    head, sep, rest = url.rpartition("@")
    if not sep:
        return url
    scheme, colon_slashes, login = head.rpartition("://")
    user, colon, _ = login.partition(":")
    return f"{scheme}{colon_slashes}{user}{':***' if colon else ''}@{rest}"


class ClubSettings(Struct, frozen=True):
    broker: BrokerSettings
    board_name: str | None
    journal: Path | None


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ValueError(f"cannot read the club config {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"the club config {path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ValueError(
            f"the club config {path} has unknown keys {', '.join(unknown)}; "
            f"its keys are {', '.join(KEYS)}"
        )
    for key, value in data.items():
        want = bool if key == "tls" else str
        if not isinstance(value, want):
            what = "true or false" if want is bool else "a string"
            raise ValueError(f"the club config {path}: {key} should be {what}")
    return data


def club_settings(
    config: Path | None, broker: str | None, board_name: str | None, journal: Path | None
) -> ClubSettings:
    """The club settings from a config file and flags (the flags win)."""
    data = _read(config) if config is not None else {}
    url = broker or data.get("broker")
    if not url:
        raise ValueError(
            "name the club's broker: --broker mqtt://HOST[:PORT] or broker in --config"
        )
    settings = BrokerSettings.from_url(url)
    base = config.parent if config is not None else Path.cwd()

    def path(key: str) -> Path | None:
        value = data.get(key)
        if value is None:
            return None
        p = Path(value).expanduser()
        p = p if p.is_absolute() else base / p
        if key != "journal" and not p.is_file():
            raise ValueError(f"the club config {config}: {key} {p} is not a file")
        return p

    password = data.get("password")
    password_path = path("password_file")
    if password_path is not None:
        try:
            password = password_path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ValueError(
                f"cannot read the password file {password_path}: {exc.strerror}"
            ) from None
    settings = replace(
        settings,
        tls=settings.tls or bool(data.get("tls", False)),
        username=settings.username or data.get("username"),
        password=settings.password or password,
        ca_file=path("ca_file"),
        cert_file=path("cert_file"),
        key_file=path("key_file"),
    )
    return ClubSettings(settings, board_name or data.get("board_name"), journal or path("journal"))


def topic(board: str, kind: str) -> str:
    """``tabletop/<board>/<kind>``: kind is state, moves or board."""
    return f"{TOPIC_ROOT}/{board}/{kind}"


def check_board_name(name: str) -> str:
    if not name or any(ch in name for ch in "/+#") or len(name) > 64:
        raise ValueError(
            f"board name {name!r} cannot be used in MQTT topics: use up to 64 characters "
            "without / + #"
        )
    return name
