"""Writing a file whole or not at all (firmware_bridge.storage.files)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from firmware_bridge.storage import files
from firmware_bridge.storage.files import write_whole


def test_the_new_contents_replace_the_old(tmp_path: Path) -> None:
    target = tmp_path / "memory.json"
    target.write_text("old")
    write_whole(target, '{"new": true}')
    assert target.read_text() == '{"new": true}'
    write_whole(target, b"\x00bytes")
    assert target.read_bytes() == b"\x00bytes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory.json"]


def test_the_mode_is_set_whatever_the_umask(tmp_path: Path) -> None:
    target = tmp_path / "live.json"
    old = os.umask(0o077)
    try:
        write_whole(target, "x", mode=0o644)
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "tags.json"
    target.write_text("kept")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        write_whole(target, "lost")
    assert target.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tags.json"]


def test_a_link_at_the_path_is_replaced_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("not to be touched")
    target = tmp_path / "board.json"
    target.symlink_to(elsewhere)
    write_whole(target, "mine")
    assert not target.is_symlink()
    assert target.read_text() == "mine"
    assert elsewhere.read_text() == "not to be touched"


def test_each_write_has_a_temporary_name_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real = files.os.replace

    def spy(src: str, dst: Path) -> None:
        seen.append(os.path.basename(src))
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", spy)
    target = tmp_path / "lobby.json"
    write_whole(target, "a")
    write_whole(target, "b")
    assert len(set(seen)) == 2
    assert all(name.startswith(".lobby.json.") for name in seen)


def test_the_folder_is_made_only_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "new" / "folder" / "cache.bin"
    with pytest.raises(FileNotFoundError):
        write_whole(target, b"x")
    write_whole(target, b"x", make_folder=True, durable=False)
    assert target.read_bytes() == b"x"
