"""What to install (from the run config or ``--profile``), and what the unit could not run."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from msgspec import Struct

from wiring.config import load_config
from wiring.loader import is_path, load_profile
from wiring.profile import Profile

from ..errors import InstallError
from .places import CONFIG, HIDDEN_FROM_SERVICE, STATE_DIR, on_root


class Request(Struct, frozen=True):
    """What to install: the board's profile, the venv to run from, and the I2C speed."""

    bin_dir: PurePosixPath
    """The venv's bin folder, with ``tabletop`` and ``python`` in it."""
    profile: Profile
    profile_ref: str
    """How the run config names the profile: a shipped name, or the path of a file."""
    words: PurePosixPath | None = None
    """The run config's own word list, if it names one."""
    word_list_md5: str | None = None
    """The md5 of the word list the word games judge with; None when no game judges words."""
    journal: PurePosixPath = STATE_DIR / "journal.sqlite"
    tags: PurePosixPath = STATE_DIR / "tags.json"
    i2c_fast: bool = False


def _inside(path: PurePosixPath, folder: PurePosixPath) -> bool:
    return path == folder or folder in path.parents


def check_request(request: Request) -> None:
    """Refuse what the hardened unit could not run: raise InstallError naming every problem."""
    problems = request_problems(request)
    if problems:
        raise InstallError("cannot install the service:\n  - " + "\n  - ".join(problems))


def request_problems(request: Request) -> list[str]:
    """What the hardened unit could not run, in words (empty: nothing)."""
    problems = []
    for hidden in HIDDEN_FROM_SERVICE:
        if request.profile_ref.startswith("/") and _inside(
            PurePosixPath(request.profile_ref), PurePosixPath(hidden)
        ):
            problems.append(
                f"the profile {request.profile_ref} is under {hidden}, which the service "
                "cannot see: copy it to /etc/tabletop and install with that copy"
            )
        if _inside(request.bin_dir, PurePosixPath(hidden)):
            problems.append(
                f"the venv {request.bin_dir.parent} is under {hidden}, which the service cannot "
                "see: make it under /opt (python3 -m venv /opt/tabletop/venv) and install "
                "from there"
            )
        if request.words is not None and _inside(request.words, PurePosixPath(hidden)):
            problems.append(
                f"the word list {request.words} is under {hidden}, which the service cannot "
                f"see: copy it to {STATE_DIR} and name that copy in {CONFIG}"
            )
    for what, path in (("journal", request.journal), ("tags", request.tags)):
        if not _inside(path, STATE_DIR):
            problems.append(
                f"the {what} {path} is outside {STATE_DIR}, the only folder the service may "
                f"write: set {what} in {CONFIG} to a file in {STATE_DIR}"
            )
    return problems


def build_request(
    root: Path, config_text: str | None, profile_name: str | None, bin_dir: PurePosixPath
) -> Request:
    """The request from the existing run config, or from ``--profile`` when there is none."""
    from games.errors import GameError

    from ...kits import find_kit
    from ...kits.lexicon_store import SHIPPED_LIST_MD5, read_word_list

    words = None
    journal, tags = STATE_DIR / "journal.sqlite", STATE_DIR / "tags.json"
    if config_text is not None:
        config = load_config(on_root(root, CONFIG))
        profile = config.profile
        if profile_name is not None and profile_name not in (profile.name, profile.source):
            raise InstallError(
                f"{CONFIG} names the profile {profile.name!r}, not {profile_name!r}: edit "
                "the config (it is never overwritten), or leave out --profile"
            )
        reference = profile.name
        words = PurePosixPath(config.words) if config.words is not None else None
        journal, tags = PurePosixPath(config.journal), PurePosixPath(config.tags)
    elif profile_name is None:
        raise InstallError(
            "name the board: tabletop install --profile NAME (`tabletop wiring` lists them)"
        )
    else:
        profile = load_profile(profile_name)
        reference = str(Path(profile_name).resolve()) if is_path(profile_name) else profile.name
    if profile.simulated_only:
        raise InstallError(
            f"profile {profile.name!r} is for `tabletop sim` only: name the profile of the "
            "real board, e.g. double-take-gpio"
        )
    word_games = []
    for name in profile.games:
        try:
            if find_kit(name).word_game:
                word_games.append(name)
        except GameError:
            continue
    md5 = None
    if word_games:
        md5 = SHIPPED_LIST_MD5 if words is None else read_word_list(Path(words))[1]
    return Request(bin_dir, profile, reference, words, md5, journal, tags)
