"""``tabletop club init``: a Mosquitto set-up in which every board may say only its own part.

Written into one folder:

- ``mosquitto.conf``: no anonymous clients; the password file and the ACL below; a TLS
  listener with the certificates the club provides, and/or a plain listener (for a hub
  on the broker's own machine, on 127.0.0.1); the largest message the hub takes.
- ``passwd``: one user per board and one for the hub, each with a new random password,
  hashed as Mosquitto 2 hashes them (PBKDF2-SHA512, ``$7$``).
- ``acl``: a board writes only ``tabletop/<its name>/state|moves|board`` and reads its
  own ``resend``; the hub reads every board's topics and writes only ``resend`` (to ask
  a board for moves it missed). Nobody else may do anything.
- ``credentials/<user>``: each user's password (mode 0600), for its club config's
  ``password_file``.
"""

from __future__ import annotations

import base64
import grp
import hashlib
import os
import re
import secrets
from collections.abc import Sequence
from pathlib import Path

from msgspec import Struct

from .mqtt import TOPIC_ROOT
from .schema import MAX_PAYLOAD

USER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
"""A board or hub user: its name is also its topic (``%u`` in the ACL), so nothing that
MQTT reads as a wildcard or a level."""
ITERATIONS = 101
"""Mosquitto 2's own count for ``mosquitto_passwd``'s PBKDF2-SHA512."""
BOARD_TOPICS = ("state", "moves", "board")
BROKER_GROUP = "mosquitto"
"""The group Debian's mosquitto package runs the broker as."""


class Listener(Struct, frozen=True):
    host: str
    port: int


class Tls(Struct, frozen=True):
    ca: Path
    cert: Path
    key: Path


def hash_password(password: str, salt: bytes | None = None) -> str:
    """A password as Mosquitto 2's password file holds it."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS)
    b64 = base64.b64encode
    return f"$7${ITERATIONS}${b64(salt).decode()}${b64(digest).decode()}"


def acl_text(hub: str) -> str:
    board = "\n".join(f"pattern write {TOPIC_ROOT}/%u/{kind}" for kind in BOARD_TOPICS)
    hub_read = "\n".join(f"topic read {TOPIC_ROOT}/+/{kind}" for kind in BOARD_TOPICS)
    return (
        "# Written by tabletop club init. Every board writes only its own topics and\n"
        "# reads only its own resend requests; the hub reads every board and writes\n"
        "# nothing but resend requests. Anything not allowed here is refused.\n"
        f"{board}\npattern read {TOPIC_ROOT}/%u/resend\n\n"
        f"user {hub}\n{hub_read}\ntopic write {TOPIC_ROOT}/+/resend\n"
    )


def conf_text(folder: Path, tls: Tls | None, tls_port: int, plain: Listener | None) -> str:
    lines = [
        "# Written by tabletop club init: a club's boards and hub (docs/club.md).",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {folder / 'passwd'}",
        f"acl_file {folder / 'acl'}",
        "# The hub refuses any message larger than this; the broker does not pass them on.",
        f"max_packet_size {MAX_PAYLOAD + 1024}",
        "",
    ]
    if tls is not None:
        lines += [
            f"listener {tls_port}",
            f"cafile {tls.ca}",
            f"certfile {tls.cert}",
            f"keyfile {tls.key}",
            "tls_version tlsv1.2",
            "",
        ]
    if plain is not None:
        lines += [f"listener {plain.port} {plain.host}", ""]
    return "\n".join(lines)


def write_club(
    folder: Path,
    boards: Sequence[str],
    hub: str,
    tls: Tls | None,
    tls_port: int,
    plain: Listener | None,
) -> dict[str, str]:
    """Write the broker's files into ``folder``; each user's new password, by user."""
    names = [*boards, hub]
    bad = [n for n in names if not USER.match(n)]
    if bad:
        raise ValueError(
            f"cannot use {', '.join(map(repr, bad))} as a board or hub name: use up to 64 "
            "letters, digits, dots, dashes and underscores, starting with a letter or digit"
        )
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(
            f"{', '.join(twice)} given twice: every board, and the hub, needs a name of its own"
        )
    if tls is None and plain is None:
        raise ValueError(
            "give the club's certificates (--tls-ca, --tls-cert, --tls-key) for the boards' "
            "TLS listener, or --listen HOST:PORT for a plain one (127.0.0.1:1883 for a hub "
            "on this machine)"
        )
    if tls is not None:
        for what, path in (("--tls-ca", tls.ca), ("--tls-cert", tls.cert), ("--tls-key", tls.key)):
            if not path.is_file():
                raise ValueError(f"{what} {path} is not a file: give the club's certificate files")
    folder = folder.resolve()
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file: give a folder for the broker's configuration")
    folder.mkdir(parents=True, exist_ok=True)
    credentials = folder / "credentials"
    credentials.mkdir(mode=0o700, exist_ok=True)
    passwords = {name: secrets.token_urlsafe(18) for name in names}
    gid = broker_gid()
    lines = "".join(f"{n}:{hash_password(p)}\n" for n, p in passwords.items())
    _write(folder / "passwd", lines, gid)
    _write(folder / "acl", acl_text(hub), gid)
    _write(folder / "mosquitto.conf", conf_text(folder, tls, tls_port, plain), gid)
    for name, password in passwords.items():
        _write(credentials / name, password + "\n")
    return passwords


def broker_gid(group: str = BROKER_GROUP) -> int | None:
    """The broker's group when root writes the files: Mosquitto started by root reads its
    password file and ACL after dropping to its own user, so they must be readable to it."""
    if os.geteuid() != 0:
        return None  # the broker runs as whoever runs it, who owns the files
    try:
        return grp.getgrnam(group).gr_gid
    except KeyError:
        return None


def _write(path: Path, text: str, gid: int | None = None) -> None:
    """Write ``text`` readable by its owner only, and by the broker's group when given."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    if gid is not None:
        os.fchown(fd, -1, gid)
    os.fchmod(fd, 0o600 if gid is None else 0o640)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
