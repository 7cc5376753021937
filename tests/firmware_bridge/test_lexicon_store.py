"""Getting a lexicon: the shipped list, a user's list, the cache, the progress bar."""

from __future__ import annotations

import gzip
import hashlib
import io
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_bridge.kits import lexicon_store
from firmware_bridge.kits.lexicon_store import (
    SHIPPED_LIST_MD5,
    ProgressBar,
    cache_path,
    default_cache_dir,
    load_lexicon,
    read_word_list,
)
from games.errors import LexiconError
from games.lexicon import Lexicon
from hardware.clock import FakeClock

SHIPPED = Path(lexicon_store.__file__).parents[2] / "games" / "data" / "enable1.txt.gz"


@pytest.fixture(scope="session")
def enable(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """The shipped list, through the store; its index is kept in pytest's cache if any."""
    cache = getattr(request.config, "cache", None)
    directory = cache.mkdir("tabletop-lexicon") if cache else tmp_path_factory.mktemp("lexicon")
    return load_lexicon(cache_dir=directory)


@pytest.fixture
def word_list(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("road\ntoad\nduet\n")
    return path


def refuse_to_build(*args: object, **kwargs: object) -> Lexicon:
    raise AssertionError("the index was rebuilt")


def test_shipped_list_is_enable_uncompressed_md5() -> None:
    assert hashlib.md5(gzip.decompress(SHIPPED.read_bytes())).hexdigest() == SHIPPED_LIST_MD5
    assert SHIPPED_LIST_MD5 == "037d8835d9fefaec6c4b6f78b8476e13"
    assert read_word_list()[1] == SHIPPED_LIST_MD5


def test_shipped_list_credit_is_kept_beside_it() -> None:
    readme = (SHIPPED.parent / "README.md").read_text()
    assert "Mendel Cooper and Alan Beale" in readme
    assert SHIPPED_LIST_MD5 in readme


@pytest.mark.parametrize("word", ["road", "due", "duet", "aa", "zyzzyvas"])
def test_enable_knows_words(enable: Lexicon, word: str) -> None:
    assert enable.is_word(word)


def test_enable_answers_the_partial_words_of_the_rules(enable: Lexicon) -> None:
    assert enable.is_substring("oad")
    assert enable.is_substring("due")
    assert not enable.is_substring("qzx")
    assert enable.is_word("road")
    assert enable.is_prefix("roa")
    assert not enable.is_word("roa")
    assert enable.is_suffix("oad")
    assert not enable.is_prefix("oad")  # no word starts with it
    assert enable.is_suffix("roa")  # proa
    assert not enable.is_suffix("oadr")


def test_enable_has_all_its_words_and_its_checksum(enable: Lexicon) -> None:
    assert len(enable) == 172_820
    assert enable.checksum == SHIPPED_LIST_MD5


def test_first_load_builds_and_caches_then_the_cache_is_used(
    word_list: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    built = load_lexicon(word_list, cache)
    checksum = hashlib.md5(word_list.read_bytes()).hexdigest()
    assert cache_path(cache, checksum).read_bytes() == built.to_bytes()
    monkeypatch.setattr(Lexicon, "build", refuse_to_build)
    again = load_lexicon(word_list, cache)
    assert again.checksum == checksum
    assert list(again.words()) == ["duet", "road", "toad"]


def test_a_changed_list_is_rebuilt(word_list: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert not load_lexicon(word_list, cache).is_word("broad")
    word_list.write_text("road\ntoad\nduet\nbroad\n")
    assert load_lexicon(word_list, cache).is_word("broad")
    assert len(list(cache.glob("lexicon-*.idx"))) == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b"",
        lambda b: b[: len(b) // 2],
        lambda b: b[:-1] + bytes([b[-1] ^ 0x20]),
        lambda b: b"garbage" * 20,
    ],
)
def test_a_corrupt_cache_is_rebuilt_not_trusted(
    word_list: Path,
    tmp_path: Path,
    damage: Callable[[bytes], bytes],
    caplog: pytest.LogCaptureFixture,
) -> None:
    cache = tmp_path / "cache"
    sound = load_lexicon(word_list, cache).to_bytes()
    file = cache_path(cache, hashlib.md5(word_list.read_bytes()).hexdigest())
    file.write_bytes(damage(sound))
    with caplog.at_level(logging.WARNING):
        lexicon = load_lexicon(word_list, cache)
    assert lexicon.is_word("toad")
    assert file.read_bytes() == sound
    assert "rebuilding" in caplog.text


def test_a_cache_of_another_list_under_this_name_is_rebuilt(
    word_list: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    file = cache_path(cache, hashlib.md5(word_list.read_bytes()).hexdigest())
    file.parent.mkdir()
    file.write_bytes(Lexicon.build(["zebra"]).to_bytes())
    lexicon = load_lexicon(word_list, cache)
    assert lexicon.is_word("road")
    assert not lexicon.is_word("zebra")


def test_an_unwritable_cache_only_costs_a_rebuild(
    word_list: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    with caplog.at_level(logging.WARNING):
        assert load_lexicon(word_list, blocker / "cache").is_word("road")
    assert "not written" in caplog.text


def test_cache_goes_to_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / "tabletop"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "tabletop"


def test_a_gzipped_user_list_is_read(tmp_path: Path) -> None:
    path = tmp_path / "words.txt.gz"
    path.write_bytes(gzip.compress(b"Road\r\nToad\r\n"))
    lexicon = load_lexicon(path, tmp_path / "cache")
    assert list(lexicon.words()) == ["road", "toad"]
    assert lexicon.checksum == hashlib.md5(b"Road\r\nToad\r\n").hexdigest()


def test_a_byte_order_mark_is_not_part_of_the_first_word(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_bytes("\ufeffroad\ntoad\n".encode())
    assert load_lexicon(path, tmp_path / "cache").is_word("road")


def test_a_bad_line_in_a_user_list_is_named(word_list: Path, tmp_path: Path) -> None:
    word_list.write_text("road\ntoad\nro-ad\n")
    with pytest.raises(LexiconError, match=rf"{word_list}, line 3: 'ro-ad' is not a word"):
        load_lexicon(word_list, tmp_path / "cache")


def test_a_list_that_is_not_utf8_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("road\ncaf\u00e9\n".encode("latin-1"))
    with pytest.raises(LexiconError, match=r"latin1.txt, line 2: not UTF-8"):
        load_lexicon(path, tmp_path / "cache")


def test_an_empty_user_list_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("\n\n")
    with pytest.raises(LexiconError, match="no words found"):
        load_lexicon(path, tmp_path / "cache")


def test_a_missing_user_list_says_what_to_give(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match=r"cannot be read .* one word a line"):
        load_lexicon(tmp_path / "nowhere.txt", tmp_path / "cache")


def test_a_damaged_gzip_list_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "words.txt.gz"
    path.write_bytes(gzip.compress(b"road\ntoad\n")[:-6])
    with pytest.raises(LexiconError, match="damaged gzip"):
        load_lexicon(path, tmp_path / "cache")


def test_a_damaged_shipped_list_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexicon_store, "SHIPPED_LIST_MD5", "0" * 32)
    with pytest.raises(LexiconError, match=r"shipped ENABLE list is damaged .* reinstall"):
        read_word_list()


def test_a_progress_callback_hears_the_build(word_list: Path, tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    load_lexicon(word_list, tmp_path / "cache", lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1]


def test_no_bar_is_drawn_when_stderr_is_not_a_terminal(
    word_list: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    load_lexicon(word_list, tmp_path / "cache")
    assert capsys.readouterr().err == ""


def test_a_bar_is_drawn_on_a_terminal_once_the_build_takes_a_moment(
    word_list: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    class SlowClock(FakeClock):
        def now(self) -> float:
            return self.advance(1.0)

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    load_lexicon(word_list, tmp_path / "cache", clock=SlowClock())
    assert terminal.getvalue().endswith("100%\n")


def test_the_bar_stays_hidden_for_a_quick_build() -> None:
    stream, clock = io.StringIO(), FakeClock()
    bar = ProgressBar(stream, clock, delay=0.5)
    bar(0, 10)
    clock.advance(0.2)
    bar(5, 10)
    bar(10, 10)
    assert stream.getvalue() == ""


def test_the_bar_shows_after_the_delay_and_ends_its_line() -> None:
    stream, clock = io.StringIO(), FakeClock()
    bar = ProgressBar(stream, clock, label="Indexing", delay=0.5, width=10)
    bar(0, 10)
    clock.advance(0.6)
    bar(5, 10)
    bar(5, 10)
    bar(10, 10)
    assert stream.getvalue() == "\rIndexing [#####.....]  50%\rIndexing [##########] 100%\n"


def test_the_index_can_be_built_ahead_of_time(
    word_list: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert lexicon_store.main(["--list", str(word_list), "--cache-dir", str(tmp_path)]) == 0
    checksum = hashlib.md5(word_list.read_bytes()).hexdigest()
    assert cache_path(tmp_path, checksum).exists()
    assert capsys.readouterr().out.startswith("3 words, index ")


def test_building_ahead_of_time_reports_a_bad_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "words.txt"
    path.write_text("road\nro ad\n")
    assert lexicon_store.main(["--list", str(path), "--cache-dir", str(tmp_path)]) == 1
    assert "line 2" in capsys.readouterr().err
