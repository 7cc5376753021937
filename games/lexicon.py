"""The lexicon: one index answering word, prefix, suffix and substring questions.

Pure: standard library only, no I/O. The index is built from a word list, written
to bytes and read back from them; reading and writing files is the caller's job.

How it works. Every question is a search for a marked needle in a short stretch
of one text: ``«road»`` is a word, ``«roa`` a prefix, ``oad»`` a suffix, ``oad``
a substring. The stretch is chosen by the first ``key_length`` letters of the
query, hashed into buckets (their base-36 value modulo the number of buckets):

- a query of ``key_length`` letters or more lands in the bucket of its first
  ``key_length`` letters, which holds every distinct rest-of-word starting with
  those letters, marked: ``«w»`` for a whole word, ``x»`` for a later suffix;
- a shorter query lands in the bucket of the query itself, which holds one
  record for it: ``«s»`` if it is a word, else ``«s`` and/or ``s»``, else ``s``.

Every character of the text belongs to some marked piece of some word, so a
match anywhere is a true answer, and the query's own bucket holds the piece that
proves a true answer: the index is exact. The markers are not ASCII and queries
must be, so a query can never contain one. A query costs a handful of calls into
C (``int``, ``bytes.find``), whatever its length; the index is one latin-1 ``bytes``
and the offsets of its buckets, about 6 MB for the ENABLE list. An index read from
bytes answers from those very bytes, so loading it copies nothing.
"""

from __future__ import annotations

import hashlib
import re
import struct
import sys
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain

from games.errors import LexiconError

__all__ = ["Lexicon", "LexiconError", "Progress", "normalise_word_list"]

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` steps while an index is built."""

KEY_LENGTH = 5
"""Letters of a query that pick its bucket: 5 keeps the bucket number in one
machine word of CPython's ints and the buckets short; 6 is no faster and 1 MB bigger."""

START = "\xab"  # «, opens a piece that begins a word
END = "\xbb"  # », closes a piece that ends a word
SEP = "\xb7"  # ·, closes a piece that ends inside a word

_MAGIC = b"TTLEX\x00\x02\x00"
_HEADER = struct.Struct("<8sBIII32sI")
"""magic, key length, buckets, words, text length, checksum (md5 hex), crc32.

The crc32 covers the header before it as well as the body: a damaged key length
would send every query to the wrong bucket."""
_CRC_FROM = _HEADER.size - 4

_WORD_PIECE = re.compile(f"{START}([a-z]+){END}".encode("latin-1"))
_PROGRESS_EVERY = 4096


def normalise_word_list(lines: Iterable[str], source: str) -> list[str]:
    """Check a word list, one word a line, and return its words sorted, lower case, unique.

    Surrounding spaces and blank lines are ignored. Raises ``LexiconError`` naming
    ``source`` and the line number for a line that is not a word of letters a–z,
    and for a list without words.
    """
    words: set[str] = set()
    for number, line in enumerate(lines, start=1):
        word = line.strip()
        if not word:
            continue
        if not (word.isascii() and word.isalpha()):
            bad = next(c for c in word if not ("a" <= c <= "z" or "A" <= c <= "Z"))
            raise LexiconError(
                f"{source}, line {number}: {word[:40]!r} is not a word: found {bad!r}, "
                "but a word list holds one word of letters a-z on each line"
            )
        words.add(word.lower())
    if not words:
        raise LexiconError(
            f"{source}: no words found; a word list holds one word of letters a-z on each line"
        )
    return sorted(words)


def _canonical_checksum(words: list[str]) -> str:
    """md5 hex of the words written one a line, as the shipped list is."""
    digest = hashlib.md5(usedforsecurity=False)
    for word in words:
        digest.update(word.encode("ascii") + b"\n")
    return digest.hexdigest()


def _bucket_count(keys: int) -> int:
    """An odd bucket count near the number of keys, so most keys get a bucket alone."""
    return keys | 1


def _query(name: str, head: str, tail: str, doc: str) -> Callable[[Lexicon, str], bool]:
    """A query method: is ``head + s + tail`` in the bucket of ``s``?

    The body is kept to a few calls into C, as queries run for every tile placed.
    """

    ends = (head.encode("latin-1"), tail.encode("latin-1"))

    def query(self: Lexicon, s: str) -> bool:
        if not s.isascii():
            return False
        try:
            b = int(s[: self.key_length], 36) % self._buckets
        except ValueError:
            return False
        offsets = self._offsets
        base = self._base
        needle = s.lower().encode().join(ends)  # head + s + tail, in one call
        return self._text.find(needle, base + offsets[b], base + offsets[b + 1]) >= 0

    query.__name__ = name
    query.__qualname__ = f"Lexicon.{name}"
    query.__doc__ = doc
    return query


class Lexicon:
    """An exact, compact index of a word list.

    Queries take letters a–z in either case; any other string (empty, digits,
    spaces, accents) is answered ``False``. A whole word counts as its own
    prefix, suffix and substring.
    """

    __slots__ = ("_base", "_buckets", "_offsets", "_size", "_text", "checksum", "key_length")

    def __init__(
        self,
        text: bytes,
        offsets: array[int] | memoryview,
        size: int,
        checksum: str,
        key_length: int,
        base: int = 0,
    ) -> None:
        # The text, latin-1, starts at ``base``: an index read from bytes keeps those
        # bytes rather than a copy of its text (5 MB for ENABLE).
        self._text = text
        self._base = base
        self._offsets = offsets
        self._buckets = len(offsets) - 1
        self._size = size
        self.checksum = checksum
        """md5 hex of the source list (for the shipped ENABLE list, of its file)."""
        self.key_length = key_length

    # Queries, each a handful of calls into C: see _query below.
    is_word = _query("is_word", START, END, "Is ``s`` a word of the list?")
    is_prefix = _query("is_prefix", START, "", "Does some word begin with ``s``?")
    is_suffix = _query("is_suffix", "", END, "Does some word end with ``s``?")
    is_substring = _query(
        "is_substring", "", "", "Does ``s`` occur inside some word (a partial word)?"
    )
    __contains__ = is_word

    def __len__(self) -> int:
        return self._size

    def words(self) -> Iterator[str]:
        """Every word, lower case, in sorted order (found afresh: about 0.1 s for ENABLE)."""
        found = _WORD_PIECE.findall(self._text, self._base)
        return iter(sorted(word.decode("ascii") for word in found))

    def __repr__(self) -> str:
        return f"<Lexicon of {self._size} words, checksum {self.checksum}>"

    # -- building

    @classmethod
    def build(
        cls,
        words: Iterable[str],
        progress: Progress | None = None,
        *,
        checksum: str | None = None,
        key_length: int = KEY_LENGTH,
    ) -> Lexicon:
        """Index ``words`` (letters a–z, any case; duplicates allowed).

        ``progress`` is told ``(done, total)`` as the work goes on. ``checksum`` is
        the md5 hex of the source list; by default, that of the words written one
        a line, sorted, in lower case.
        Raises ``LexiconError`` for a word that is not letters a–z or for no words.
        """
        if key_length < 1:
            raise LexiconError(f"key length must be at least 1, not {key_length}")
        ordered = _checked_words(words)
        report = progress if progress is not None else _ignore_progress
        text, offsets = _index_text(ordered, key_length, report)
        return cls(
            text.encode("latin-1"),
            offsets,
            len(ordered),
            checksum if checksum is not None else _canonical_checksum(ordered),
            key_length,
        )

    # -- bytes

    def to_bytes(self) -> bytes:
        """The index as bytes for ``from_bytes``; the same on every platform."""
        offsets = array("I", self._offsets)
        if sys.byteorder == "big":
            offsets.byteswap()
        text = self._text[self._base :] if self._base else self._text
        body = offsets.tobytes() + text
        fields = _HEADER.pack(
            _MAGIC,
            self.key_length,
            self._buckets,
            self._size,
            len(text),
            self.checksum.encode("ascii"),
            0,
        )[:_CRC_FROM]
        crc = zlib.crc32(body, zlib.crc32(fields))
        return fields + struct.pack("<I", crc) + body

    @classmethod
    def from_bytes(cls, data: bytes) -> Lexicon:
        """Read an index written by ``to_bytes``.

        Raises ``LexiconError`` if the bytes are not such an index or were damaged.
        """
        data = bytes(data)  # the same object when it is bytes already
        if len(data) < _HEADER.size:
            raise LexiconError("not a lexicon index: too short")
        magic, key_length, buckets, size, text_length, checksum, crc = _HEADER.unpack_from(data)
        if magic != _MAGIC:
            raise LexiconError("not a lexicon index of this version")
        offsets_size = 4 * (buckets + 1)
        if len(data) != _HEADER.size + offsets_size + text_length or buckets < 1:
            raise LexiconError("lexicon index damaged: its length does not match its header")
        body = memoryview(data)[_HEADER.size :]
        if zlib.crc32(body, zlib.crc32(data[:_CRC_FROM])) != crc:
            raise LexiconError("lexicon index damaged: its CRC does not match")
        offsets: array[int] | memoryview
        if sys.byteorder == "little":
            offsets = body[:offsets_size].cast("I")  # no copy
        else:
            offsets = array("I")
            offsets.frombytes(body[:offsets_size])
            offsets.byteswap()
        if offsets[0] != 0 or offsets[-1] != text_length or key_length < 1:
            raise LexiconError("lexicon index damaged: its buckets do not cover its text")
        try:
            checksum_text = checksum.decode("ascii")
        except UnicodeDecodeError:
            raise LexiconError("lexicon index damaged: bad checksum field") from None
        return cls(data, offsets, size, checksum_text, key_length, _HEADER.size + offsets_size)


def _ignore_progress(done: int, total: int) -> None:
    pass


def _checked_words(words: Iterable[str]) -> list[str]:
    """``words`` in lower case, sorted, without duplicates; refuses any non-word."""
    unique = set()
    for word in words:
        if not (word.isascii() and word.isalpha()):
            raise LexiconError(f"{word[:40]!r} is not a word of letters a-z")
        unique.add(word.lower())
    if not unique:
        raise LexiconError("no words to index")
    return sorted(unique)


def _index_text(words: list[str], key_length: int, report: Progress) -> tuple[str, array[int]]:
    """The text of the index of ``words`` and the offsets of its buckets.

    Pieces are made twice, once to size the buckets and once to write them in
    place, because holding them all at once would take thirty times the index.
    """
    total = 3 * len(words)
    short, keys = _short_pieces(words, key_length, report, total)
    buckets = _bucket_count(keys)
    by_reversal = sorted(words, key=_reversed)
    sizes = array("I", [0]) * (buckets + 1)
    first = _long_pieces(by_reversal, key_length, report, len(words), total)
    for key, piece in chain(short, first):
        sizes[int(key, 36) % buckets + 1] += len(piece)
    offsets = array("I", accumulate(sizes))
    ends = array("I", offsets)
    text = bytearray(offsets[-1])
    second = _long_pieces(by_reversal, key_length, report, 2 * len(words), total)
    for key, piece in chain(short, second):
        home = int(key, 36) % buckets
        start = ends[home]
        ends[home] = start + len(piece)
        text[start : ends[home]] = piece.encode("latin-1")
    report(total, total)
    return text.decode("latin-1"), offsets


def _short_pieces(
    words: list[str], key_length: int, report: Progress, total: int
) -> tuple[list[tuple[str, str]], int]:
    """Each substring shorter than the key with its record, which proves every flag
    it has; and the number of distinct keys, short and long."""
    # Every short substring lies inside a window of key_length letters (or inside a
    # shorter word), and there are far fewer distinct windows than places.
    windows: set[str] = set()
    prefixes: set[str] = set()
    suffixes: set[str] = set()
    for start in range(0, len(words), _PROGRESS_EVERY):
        report(start, total)
        chunk = words[start : start + _PROGRESS_EVERY]
        windows.update(w[i : i + key_length] for w in chunk for i in range(len(w) - key_length + 1))
        windows.update(w for w in chunk if len(w) < key_length)
        for n in range(1, key_length):
            prefixes.update(w[:n] for w in chunk)
            suffixes.update(w[-n:] for w in chunk)
    substrings = {
        x[i:j]
        for x in windows
        for i in range(len(x))
        for j in range(i + 1, min(len(x), i + key_length - 1) + 1)
    }
    long_keys = sum(1 for x in windows if len(x) == key_length)
    whole = {w for w in words if len(w) < key_length}
    records: list[tuple[str, str]] = []
    for s in sorted(substrings):
        if s in whole:
            record = f"{START}{s}{END}"
        elif s in prefixes:
            record = f"{START}{s}{SEP}{s}{END}" if s in suffixes else f"{START}{s}{SEP}"
        else:
            record = f"{s}{END}" if s in suffixes else f"{s}{SEP}"
        records.append((s, record))
    return records, len(records) + long_keys


def _long_pieces(
    by_reversal: list[str], key_length: int, report: Progress, done: int, total: int
) -> Iterator[tuple[str, str]]:
    """Every distinct marked rest-of-word of ``key_length`` letters or more, with its key.

    The words come in order of their reversal, so the suffixes a word shares with
    any earlier word are exactly those it shares with the previous one. Progress
    is reported from ``done`` steps on, a step a word.
    """
    previous = ""
    for index, word in enumerate(by_reversal):
        if index % _PROGRESS_EVERY == 0:
            report(done + index, total)
        length = len(word)
        shared = 0
        limit = min(length, len(previous))
        while shared < limit and word[length - 1 - shared] == previous[-1 - shared]:
            shared += 1
        if length >= key_length:
            yield word[:key_length], f"{START}{word}{END}"
        # A suffix it shares with the previous word is a duplicate; the whole word
        # already covers the suffix at i = 0.
        for i in range(1, min(length - shared, length - key_length + 1)):
            yield word[i : i + key_length], f"{word[i:]}{END}"
        previous = word


def _reversed(word: str) -> str:
    return word[::-1]
