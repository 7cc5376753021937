"""The tag table: which piece each RFID tag is stuck to."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..storage.files import write_whole
from .errors import TagConflictError, TagError

_TAG = re.compile(r"^[0-9A-F]{8,20}$")


def normalise_tag(tag: str) -> str:
    """``tag`` as upper-case hex (4 to 10 bytes), or :class:`TagError`."""
    text = tag.strip().replace(":", "").replace(" ", "").upper()
    if not _TAG.match(text) or len(text) % 2:
        raise TagError(
            f"tag id {tag!r} is not a UID: give 4 to 10 bytes in hex, such as 04A224B2C35E80"
        )
    return text


def check_label(label: str) -> str:
    """``label`` stripped, or :class:`TagError` when empty or not one line."""
    text = label.strip()
    if not text or "\n" in text:
        raise TagError(f"piece label {label!r} must be one non-empty line, such as A, ?, 6-3:6")
    return text


class TagTable:
    """Tag id (upper-case hex) -> piece label: a letter or ``?`` for a blank, a
    domino half such as ``6-3:6``, a ball colour such as ``red``."""

    def __init__(self, entries: Mapping[str, str] | None = None) -> None:
        self._labels: dict[str, str] = {}
        for tag, label in (entries or {}).items():
            self.enrol(tag, label)

    def __len__(self) -> int:
        return len(self._labels)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._labels))

    def __contains__(self, tag: object) -> bool:
        return isinstance(tag, str) and self.lookup(tag) is not None

    def items(self) -> list[tuple[str, str]]:
        return sorted(self._labels.items())

    def lookup(self, tag: str) -> str | None:
        """The label of ``tag``, or None for a tag never enrolled (never a guess)."""
        try:
            return self._labels.get(normalise_tag(tag))
        except TagError:
            return None

    def enrol(self, tag: str, label: str, *, overwrite: bool = False) -> None:
        """Record that ``tag`` is stuck to ``label``.

        A tag already enrolled under another label raises
        :class:`TagConflictError` unless ``overwrite``.
        """
        key, name = normalise_tag(tag), check_label(label)
        old = self._labels.get(key)
        if old is not None and old != name and not overwrite:
            raise TagConflictError(
                f"tag {key} is already enrolled as {old!r}, not {name!r}: "
                "enrol again with overwrite to replace it"
            )
        self._labels[key] = name

    def remove(self, tag: str) -> None:
        self._labels.pop(normalise_tag(tag), None)

    def to_json(self) -> str:
        return json.dumps({"tags": dict(self.items())}, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str, source: str = "<string>") -> TagTable:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TagError(f"{source}: not JSON ({exc})") from None
        tags = data.get("tags") if isinstance(data, dict) else None
        if not isinstance(tags, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in tags.items()
        ):
            raise TagError(f'{source}: expected {{"tags": {{"<hex uid>": "<label>", ...}}}}')
        try:
            return cls(tags)
        except TagError as exc:
            raise TagError(f"{source}: {exc}") from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TagTable:
        """Read a table written by :meth:`save`; a missing file is an empty table."""
        file = Path(path)
        if not file.exists():
            return cls()
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise TagError(f"{file}: not UTF-8 text ({exc.reason}); save it as UTF-8") from None
        except OSError as exc:
            raise TagError(
                f"cannot read {file}: {exc.strerror or exc}; give the path of a tag table file"
            ) from None
        return cls.from_json(text, str(file))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table atomically: a crash leaves the old file or the new one."""
        file = Path(path)
        try:
            write_whole(file, self.to_json(), make_folder=True)
        except OSError as exc:
            raise TagError(
                f"cannot write {file}: {exc.strerror or exc}; check that its folder can be "
                "created and written by this user"
            ) from None
