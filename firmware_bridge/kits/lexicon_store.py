"""Getting a lexicon: read the word list, reuse its cached index or build and cache one.

The shipped list is ENABLE (``games/data/enable1.txt.gz``); a user may give their own
list, one word a line, plain or gzipped. The index is cached in
``$XDG_CACHE_HOME/tabletop/`` (or ``~/.cache/tabletop/``) under the md5 of the list,
so a changed list gets a new index. A cache file that is damaged, of another format
or for another list is rebuilt, never trusted.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import logging
import os
import sys
import zlib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from games.errors import BadGeneratorData, LexiconError
from games.lexicon import Lexicon, Progress, normalise_word_list
from hardware.clock import Clock, SystemClock

from ..storage.files import write_whole

if TYPE_CHECKING:
    from games.crosslet.movegen import MoveGenerator

__all__ = [
    "SHIPPED_LIST_MD5",
    "ProgressBar",
    "cache_path",
    "default_cache_dir",
    "generator_path",
    "load_lexicon",
    "read_word_list",
]

SHIPPED_LIST = "enable1.txt.gz"
SHIPPED_LIST_MD5 = "037d8835d9fefaec6c4b6f78b8476e13"
"""md5 of the uncompressed ENABLE list as shipped."""

_GZIP_MAGIC = b"\x1f\x8b"

log = logging.getLogger(__name__)


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/tabletop``, or ``~/.cache/tabletop`` when that is unset."""
    base = os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return root / "tabletop"


def cache_path(cache_dir: Path, checksum: str) -> Path:
    """The cache file of the index of the list whose md5 is ``checksum``."""
    return cache_dir / f"lexicon-{checksum}.idx"


def read_word_list(path: Path | None = None) -> tuple[bytes, str]:
    """The bytes of a word list (gunzipped if need be) and its md5 hex.

    ``None`` reads the shipped ENABLE list and checks its md5. Raises
    ``LexiconError`` when the file cannot be read or is a damaged gzip file.
    """
    source = _source(path)
    if path is None:
        try:
            raw = resources.files("games.data").joinpath(SHIPPED_LIST).read_bytes()
        except OSError as error:
            raise LexiconError(f"{source} cannot be read ({error}); reinstall tabletop") from error
    else:
        try:
            raw = path.read_bytes()
        except OSError as error:
            raise LexiconError(
                f"word list {source} cannot be read ({error.strerror or error}); "
                "give the path of a text file with one word a line"
            ) from error
    if raw.startswith(_GZIP_MAGIC):
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as error:
            raise LexiconError(f"{source} is a damaged gzip file ({error})") from error
    checksum = hashlib.md5(raw, usedforsecurity=False).hexdigest()
    if path is None and checksum != SHIPPED_LIST_MD5:
        raise LexiconError(
            f"{source} is damaged (md5 {checksum}, expected {SHIPPED_LIST_MD5}); reinstall tabletop"
        )
    return raw, checksum


def _source(path: Path | None) -> str:
    """How messages name a word list."""
    return "the shipped ENABLE list" if path is None else str(path)


def _words_of(raw: bytes, source: str) -> list[str]:
    """The checked words of a list's bytes (UTF-8, with or without a byte-order mark)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise LexiconError(
            f"{source}, line {line}: not UTF-8 text; "
            "a word list holds one word of letters a-z on each line"
        ) from error
    return normalise_word_list(text.splitlines(), source)


def load_lexicon(
    path: Path | None = None,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
    *,
    clock: Clock | None = None,
) -> Lexicon:
    """The lexicon of the word list at ``path`` (``None``: the shipped ENABLE list).

    The index comes from the cache in ``cache_dir`` (default: ``default_cache_dir()``)
    when a sound one for this list is there; otherwise it is built and cached.
    While building, ``progress`` is told ``(done, total)``; without one, a bar is
    drawn on stderr if it is a terminal and the build takes more than a moment.
    Raises ``LexiconError`` for a list that is missing, unreadable or not a word list.
    """
    # The shipped list can only change with the program, and SHIPPED_LIST_MD5 with
    # it: reading and checking it is left to the build, which keeps loads quick.
    raw, checksum = (None, SHIPPED_LIST_MD5) if path is None else read_word_list(path)
    directory = cache_dir if cache_dir is not None else default_cache_dir()
    file = cache_path(directory, checksum)
    cached = _read_cache(file, checksum)
    if cached is not None:
        return cached
    if raw is None:
        raw, checksum = read_word_list(None)
    words = _words_of(raw, _source(path))
    if progress is None and sys.stderr.isatty():
        progress = ProgressBar(sys.stderr, clock if clock is not None else SystemClock())
    lexicon = Lexicon.build(words, progress, checksum=checksum)
    _write_cache(file, lexicon.to_bytes())
    return lexicon


def load_generator(lexicon: Lexicon, cache_dir: Path | None = None) -> MoveGenerator:
    """The Crosslet move generator of ``lexicon``, from the cache beside its index.

    Building it takes a second or two and, at its peak, far more memory than the
    loaded generator; a cached one loads in a tenth of a second.
    """
    # Here, not above: a game that judges words needs the lexicon at its start, and
    # the move generator only once a hint or a computer player asks for one.
    from games.crosslet.movegen import MoveGenerator

    directory = cache_dir if cache_dir is not None else default_cache_dir()
    file = generator_path(directory, lexicon.checksum)
    try:
        return MoveGenerator.from_bytes(file.read_bytes())
    except FileNotFoundError:
        pass
    except (OSError, BadGeneratorData) as error:
        log.warning("move generator cache %s rejected (%s); rebuilding", file, error)
    generator = MoveGenerator(lexicon.words())
    _write_cache(file, generator.to_bytes())
    return generator


def generator_path(cache_dir: Path, checksum: str) -> Path:
    """The cache file of the move generator of the list whose md5 is ``checksum``.

    The name carries the format (2: flat arrays), so that programs of another
    format sharing the cache keep their own file instead of rebuilding each other's.
    """
    return cache_dir / f"movegen2-{checksum}.bin"


def _read_cache(file: Path, checksum: str) -> Lexicon | None:
    """The cached index in ``file`` if it is sound and of this list, else ``None``."""
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        log.warning("lexicon cache %s unreadable (%s); rebuilding", file, error)
        return None
    try:
        lexicon = Lexicon.from_bytes(data)
    except LexiconError as error:
        log.warning("lexicon cache %s rejected (%s); rebuilding", file, error)
        return None
    if lexicon.checksum != checksum:
        log.warning("lexicon cache %s is of another word list; rebuilding", file)
        return None
    return lexicon


def _write_cache(file: Path, data: bytes) -> None:
    """Write ``data`` to ``file`` whole or not at all.

    A cache that cannot be written only costs a rebuild next time: logged, not raised.
    """
    try:
        write_whole(file, data, durable=False, make_folder=True)
    except OSError as error:
        log.warning("lexicon cache %s not written (%s)", file, error)


class ProgressBar:
    """A one-line progress bar that shows itself only once work outlasts ``delay``."""

    def __init__(
        self,
        stream: TextIO,
        clock: Clock,
        *,
        label: str = "Indexing the word list",
        delay: float = 0.5,
        width: int = 30,
    ) -> None:
        self._stream = stream
        self._clock = clock
        self._label = label
        self._delay = delay
        self._width = width
        self._started: float | None = None
        self._shown = -1
        """Percent last drawn; -1 while nothing is drawn."""

    def __call__(self, done: int, total: int) -> None:
        now = self._clock.now()
        if self._started is None:
            self._started = now
        finished = done >= total
        if self._shown < 0 and (finished or now - self._started < self._delay):
            return
        percent = 100 if finished else 100 * done // max(total, 1)
        if percent == self._shown:
            return
        self._shown = percent
        filled = self._width * percent // 100
        bar = "#" * filled + "." * (self._width - filled)
        self._stream.write(f"\r{self._label} [{bar}] {percent:3d}%")
        if finished:
            self._stream.write("\n")
        self._stream.flush()


def main(argv: list[str] | None = None) -> int:
    """Build (or check) the cached index ahead of time, e.g. when installing."""
    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.kits.lexicon_store",
        description="Build the word index into the cache, so the first game starts at once.",
    )
    parser.add_argument("--list", type=Path, help="a word list, one word a line (default: ENABLE)")
    parser.add_argument("--cache-dir", type=Path, help=f"default: {default_cache_dir()}")
    args = parser.parse_args(argv)
    try:
        lexicon = load_lexicon(args.list, args.cache_dir)
    except LexiconError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    load_generator(lexicon, args.cache_dir)
    directory = args.cache_dir if args.cache_dir is not None else default_cache_dir()
    print(f"{len(lexicon)} words, index {cache_path(directory, lexicon.checksum)}")
    print(f"move generator {generator_path(directory, lexicon.checksum)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
