"""``tabletop club init``: a Mosquitto set-up in which every board may say only its own part.

Written into one folder:

- ``mosquitto.conf``: no anonymous clients; the password file and the ACL below; a TLS
  listener with the certificates the club provides, and/or a plain listener (for a hub
  on the broker's own machine, on 127.0.0.1); the largest message the hub takes.
- ``passwd``: one user per board and one for the hub, each with a new random password,
  hashed as Mosquitto 2 hashes them (PBKDF2-SHA512, ``$7$``).
- ``acl``: a board writes only ``tabletop/<its name>/state|moves|board`` and reads its
  own ``resend``; the hub reads every board's topics and writes only ``resend`` (to ask
  a board for moves it missed). For two boards' games (``tabletop/remote/…``,
  docs/remote.md) a board writes, as host, only its own game's ``table``, ``moves``
  and ``to/<guest>``, and reads only the ``from/<guest>`` of its own game; as a guest
  it writes only its own ``from/<its name>`` and ``presence/<its name>``, and reads
  the games' ``table``, ``moves`` and presence and only the ``to/<its name>`` meant
  for it. The hub only reads the games' ``table``, ``moves`` and presence. Nobody
  else may do anything.

  Each board has a second login, ``<board>.remote`` (:func:`remote_login`), for its
  games with other boards: it may do in those games exactly what the board's own login
  may, under the board's name, and nothing else (no board topics, and nothing under
  its own name). The club's broker makes each login its client id
  (``use_username_as_clientid``): a board whose spectator publisher and game link
  logged in with the same login would have each disconnect the other, so the link
  logs in with this one.
- ``credentials/<user>``: each user's password (mode 0600), for its club config's
  ``password_file``.
"""

from __future__ import annotations

import base64
import grp
import hashlib
import os
import pwd
import re
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path

from msgspec import Struct

from ..storage.files import write_whole
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


REMOTE = f"{TOPIC_ROOT}/remote"
"""The root of two boards' games: ``REMOTE/<host board>/…`` (firmware_bridge/remote)."""
REMOTE_ACL = (
    # As the host of a game: the game, its moves, its answers to each guest; and what
    # the guests send it.
    ("write", "%u/table"),
    ("write", "%u/moves"),
    ("write", "%u/to/+"),
    ("read", "%u/from/+"),
    # As a guest of any board's game: its own requests and moves, and its presence
    # (the host's presence is the host's own name's, under its game).
    ("write", "+/from/%u"),
    ("write", "+/presence/%u"),
    ("read", "+/to/%u"),
)
"""Each board's access to two boards' games, ``%u`` its login, which is its name."""
REMOTE_READ = ("+/table", "+/moves", "+/presence/+")
"""What every board and the hub read of two boards' games: the games, who is on line."""
REMOTE_LOGIN = ".remote"
"""The end of a board's login for its games with other boards: ``bob.remote``."""


def remote_login(board: str) -> str:
    """The login with which ``board`` plays with other boards (its own login is its
    spectator publisher's)."""
    return f"{board}{REMOTE_LOGIN}"


def _denied_as(name: str) -> list[str]:
    """What the ACL's patterns give a login for its own name, denied to ``name``: the
    hub's login and a board's remote login speak neither as a board nor in a game
    under their own names."""
    return [
        f"{TOPIC_ROOT}/{name}/#",
        f"{REMOTE}/{name}/#",
        f"{REMOTE}/+/from/{name}",
        f"{REMOTE}/+/presence/{name}",
        f"{REMOTE}/+/to/{name}",
    ]


def _remote_block(board: str, games: str) -> str:
    """The ACL of ``board``'s remote login: the patterns' part of two boards' games
    for ``board``'s name, and nothing under its own."""
    login = remote_login(board)
    lines = [f"user {login}"]
    lines += [f"topic deny {topic}" for topic in _denied_as(login)]
    lines += [
        f"topic {access} {REMOTE}/{topic.replace('%u', board)}" for access, topic in REMOTE_ACL
    ]
    return "\n".join(lines) + f"\n{games}\n"


def acl_text(hub: str, boards: Sequence[str] = ()) -> str:
    board = "\n".join(f"pattern write {TOPIC_ROOT}/%u/{kind}" for kind in BOARD_TOPICS)
    remote = "\n".join(f"pattern {access} {REMOTE}/{topic}" for access, topic in REMOTE_ACL)
    games = "".join(f"topic read {REMOTE}/{topic}\n" for topic in REMOTE_READ)
    hub_read = "\n".join(f"topic read {TOPIC_ROOT}/+/{kind}" for kind in BOARD_TOPICS)
    # The patterns give the hub's login what they give a board's, for its own name:
    # that is denied, so the hub can speak neither as a board nor in a game.
    hub_deny = "\n".join(f"topic deny {topic}" for topic in _denied_as(hub))
    readers = "".join(f"user {name}\n{games}\n" for name in boards)
    remotes = "".join(_remote_block(name, games) for name in boards)
    return (
        "# Written by tabletop club init. Every board writes only its own topics and\n"
        "# reads only its own resend requests; the hub reads every board and writes\n"
        "# nothing but resend requests: its own name's board topics are denied, so it\n"
        "# cannot speak as a board. Anything not allowed here is refused.\n"
        f"{board}\npattern read {TOPIC_ROOT}/%u/resend\n\n"
        "# Two boards' games (docs/remote.md): a board writes only as the host of its\n"
        "# own game, or as a guest for itself; it reads only what is sent to it, and\n"
        "# every game's table, moves and presence.\n"
        f"{remote}\n\n{readers}"
        "# Each board's login for its games with other boards: the same part of them,\n"
        "# for the board's name, and nothing else.\n"
        f"{remotes}"
        f"user {hub}\n{hub_deny}\n{hub_read}\n{games}"
        f"topic write {TOPIC_ROOT}/+/resend\n"
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
    # Each login is its own client id, whatever id it gives: a login reusing another's
    # id would otherwise disconnect it (a listener's setting, so given under each).
    same_id = "use_username_as_clientid true"
    if tls is not None:
        lines += [
            f"listener {tls_port}",
            same_id,
            f"cafile {tls.ca}",
            f"certfile {tls.cert}",
            f"keyfile {tls.key}",
            "tls_version tlsv1.2",
            "",
        ]
    if plain is not None:
        lines += [f"listener {plain.port} {plain.host}", same_id, ""]
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
    remotes = {remote_login(b): b for b in boards}
    long = [b for login, b in remotes.items() if not USER.match(login)]
    if long:
        raise ValueError(
            f"{', '.join(long)}: a board's name is at most {64 - len(REMOTE_LOGIN)} "
            f"characters, for its login for games with other boards ({REMOTE_LOGIN!r} after it)"
        )
    taken = sorted(login for login in remotes if login in names)
    if taken:
        raise ValueError(
            f"{', '.join(taken)} is the login of {remotes[taken[0]]}'s games with other "
            "boards: give that board or hub another name"
        )
    if tls is None and plain is None:
        raise ValueError(
            "give the club's certificates (--tls-ca, --tls-cert, --tls-key) for the boards' "
            "TLS listener, or --listen HOST:PORT for a plain one (127.0.0.1:1883 for a hub "
            "on this machine)"
        )
    if tls is not None:
        # Written absolute: the broker started by systemd has another working folder.
        tls = Tls(tls.ca.resolve(), tls.cert.resolve(), tls.key.resolve())
        for what, path in (("--tls-ca", tls.ca), ("--tls-cert", tls.cert), ("--tls-key", tls.key)):
            if not path.is_file():
                raise ValueError(f"{what} {path} is not a file: give the club's certificate files")
            problem = unreadable_by_broker(path)
            if problem:
                raise ValueError(f"{what} {path} {problem}")
    folder = folder.resolve()
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file: give a folder for the broker's configuration")
    credentials = folder / "credentials"
    if credentials.is_symlink() or (credentials.exists() and not credentials.is_dir()):
        raise ValueError(
            f"{credentials} is a link or a file: remove it; club init makes that folder itself"
        )
    _folder(folder, 0o755)  # the broker, dropped to its own user, reads passwd and acl in it
    _folder(credentials, 0o700)
    passwords = {name: secrets.token_urlsafe(18) for name in [*names, *remotes]}
    gid = broker_gid()
    lines = "".join(f"{n}:{hash_password(p)}\n" for n, p in passwords.items())
    _write(folder / "passwd", lines, gid)
    _write(folder / "acl", acl_text(hub, boards), gid)
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


def _folder(path: Path, mode: int) -> None:
    """Make ``path`` (and its parents) with ``mode`` whatever the umask."""
    made = not path.exists()
    path.mkdir(parents=True, exist_ok=True)
    if made or mode == 0o700:
        os.chmod(path, mode)


def _write(path: Path, text: str, gid: int | None = None) -> None:
    """Write ``text`` readable by its owner only, and by the broker's group when given.

    Written whole under a new name and renamed into place: a link standing at ``path``
    is replaced, never followed (root writing through a link would overwrite, and
    re-mode, whatever it points at), and the mode is set whatever the umask.
    """
    write_whole(path, text, mode=0o600 if gid is None else 0o640, group=gid)


def unreadable_by_broker(path: Path, user: str = BROKER_GROUP) -> str | None:
    """Why the broker could not read ``path`` once it runs as its own user; None if it can.

    Started by root, Mosquitto drops to the user ``mosquitto`` before it reads its
    certificates and key: each must be readable by that user, and every folder above
    it searchable. Run by anyone else, the broker runs as that user.
    """
    if os.geteuid() != 0:
        if not os.access(path, os.R_OK):
            return "cannot be read by this user, who the broker would run as: chmod u+r it"
        return None
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return None  # no such user here: the broker stays root
    groups = {entry.pw_gid, *(g.gr_gid for g in grp.getgrall() if user in g.gr_mem)}

    def allowed(st: os.stat_result, bits: tuple[int, int, int]) -> bool:
        if st.st_uid == entry.pw_uid:
            return bool(st.st_mode & bits[0])
        if st.st_gid in groups:
            return bool(st.st_mode & bits[1])
        return bool(st.st_mode & bits[2])

    for folder in path.parents:
        if not allowed(folder.stat(), (stat.S_IXUSR, stat.S_IXGRP, stat.S_IXOTH)):
            return (
                f"cannot be reached by the broker's user {user}: its folder {folder} is not "
                f"searchable by it (chmod o+x {folder}, or chgrp {user} it and chmod g+x)"
            )
    st = path.stat()
    if not allowed(st, (stat.S_IRUSR, stat.S_IRGRP, stat.S_IROTH)):
        return (
            f"cannot be read by the broker's user {user} (mode {stat.S_IMODE(st.st_mode):04o}): "
            f"chgrp {user} {path} and chmod 640 {path}"
        )
    return None
