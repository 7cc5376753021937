"""The Crosslet move generator is cached beside the word index and never trusted blindly."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.kits import lexicon_store
from games.crosslet.movegen import Dawg
from games.lexicon import Lexicon

WORDS = ["at", "cat", "cats", "act", "tact", "sat"]


def lexicon() -> Lexicon:
    return Lexicon.build(WORDS)


def test_generator_is_built_once_then_loaded_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lex = lexicon()
    first = lexicon_store.load_generator(lex, tmp_path)
    cached = lexicon_store.generator_path(tmp_path, lex.checksum)
    assert cached.read_bytes() == first.to_bytes()

    def no_build(words: object) -> Dawg:
        raise AssertionError("the cached generator must be loaded, not rebuilt")

    monkeypatch.setattr(Dawg, "build", no_build)
    again = lexicon_store.load_generator(lex, tmp_path)
    assert again.to_bytes() == first.to_bytes()


def test_a_damaged_generator_cache_is_rebuilt(tmp_path: Path) -> None:
    lex = lexicon()
    good = lexicon_store.load_generator(lex, tmp_path).to_bytes()
    cached = lexicon_store.generator_path(tmp_path, lex.checksum)
    cached.write_bytes(good[: len(good) // 2])
    rebuilt = lexicon_store.load_generator(lex, tmp_path)
    assert rebuilt.to_bytes() == good
    assert cached.read_bytes() == good


def test_a_generator_cache_of_the_old_format_is_left_alone(tmp_path: Path) -> None:
    lex = lexicon()
    old = tmp_path / f"movegen-{lex.checksum}.bin"
    old.write_bytes(b"CXDAWG1\n\x00\x00\x00\x00")
    generator = lexicon_store.load_generator(lex, tmp_path)
    assert "CAT" in generator.dawg and "TAC" not in generator.dawg
    assert old.read_bytes() == b"CXDAWG1\n\x00\x00\x00\x00"
    assert lexicon_store.generator_path(tmp_path, lex.checksum).exists()
