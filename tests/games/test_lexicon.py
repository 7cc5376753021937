"""The lexicon index: exact answers, bytes round trip, word-list checks."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import LexiconError
from games.lexicon import END, SEP, START, Lexicon, normalise_word_list

SMALL = ["road", "roads", "duet", "due", "broad", "toad", "oat", "at", "a", "banana"]


def brute_force(words: list[str]) -> tuple[set[str], set[str], set[str], set[str]]:
    """Words, prefixes, suffixes and substrings of ``words``, by enumeration."""
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    suffixes = {w[i:] for w in words for i in range(len(w))}
    substrings = {w[i:j] for w in words for i in range(len(w)) for j in range(i + 1, len(w) + 1)}
    return set(words), prefixes, suffixes, substrings


@pytest.fixture(scope="module")
def small() -> Lexicon:
    return Lexicon.build(SMALL)


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(st.text("abc", min_size=1, max_size=9), min_size=1, max_size=25),
    queries=st.lists(st.text("abcd", min_size=1, max_size=10), max_size=40),
    key_length=st.sampled_from([1, 2, 3, 6]),
)
def test_answers_match_brute_force(words: list[str], queries: list[str], key_length: int) -> None:
    lexicon = Lexicon.build(words, key_length=key_length)
    whole, prefixes, suffixes, substrings = brute_force(words)
    # Every true answer, and random strings that are mostly false ones.
    for s in sorted(substrings) + queries:
        assert lexicon.is_word(s) == (s in whole), s
        assert lexicon.is_prefix(s) == (s in prefixes), s
        assert lexicon.is_suffix(s) == (s in suffixes), s
        assert lexicon.is_substring(s) == (s in substrings), s


def test_partial_words_of_the_rules(small: Lexicon) -> None:
    assert small.is_substring("oad")
    assert small.is_substring("due")
    assert small.is_suffix("oad")
    assert small.is_prefix("roa")
    assert not small.is_word("roa")
    assert not small.is_substring("qzx")


def test_a_whole_word_is_its_own_prefix_suffix_and_substring(small: Lexicon) -> None:
    assert small.is_prefix("banana")
    assert small.is_suffix("banana")
    assert small.is_substring("banana")


def test_prefix_of_one_word_and_suffix_of_another_is_not_a_word() -> None:
    lexicon = Lexicon.build(["rend", "tender", "xyzzy"], key_length=6)
    assert lexicon.is_prefix("ren") and not lexicon.is_word("ren")
    lexicon = Lexicon.build(["abx", "yab"])
    assert lexicon.is_prefix("ab")
    assert lexicon.is_suffix("ab")
    assert not lexicon.is_word("ab")


def test_queries_ignore_case(small: Lexicon) -> None:
    assert small.is_word("ROAD")
    assert small.is_word("Road")
    assert small.is_prefix("ROA")
    assert small.is_suffix("Oad")
    assert small.is_substring("OA")


@pytest.mark.parametrize(
    "query",
    [
        "",
        "ro ad",
        " road",
        "road ",
        "road\n",
        "ro_ad",
        "+road",
        "-1",
        "road1",
        "r0ad",
        f"{START}road{END}",
        f"road{END}",
        f"{START}roa",
        f"oa{SEP}",
        "\u212aoad",  # KELVIN SIGN: lower-cases to "k", but is not a-z
        "r\u00f6ad",
        "ｒｏａｄ",
    ],
)
def test_anything_but_letters_is_answered_false(small: Lexicon, query: str) -> None:
    assert not small.is_word(query)
    assert not small.is_prefix(query)
    assert not small.is_suffix(query)
    assert not small.is_substring(query)


def test_contains_is_is_word(small: Lexicon) -> None:
    assert "road" in small
    assert "roa" not in small


def test_len_counts_distinct_words_and_words_are_sorted_lower_case() -> None:
    lexicon = Lexicon.build(["Toad", "road", "ROAD", "at", "a"])
    assert len(lexicon) == 4
    assert list(lexicon.words()) == ["a", "at", "road", "toad"]


def test_round_trip_through_bytes_keeps_every_answer(small: Lexicon) -> None:
    again = Lexicon.from_bytes(small.to_bytes())
    assert again.to_bytes() == small.to_bytes()
    assert again.checksum == small.checksum
    assert len(again) == len(small)
    assert list(again.words()) == sorted(SMALL)
    whole, prefixes, suffixes, substrings = brute_force(SMALL)
    for s in substrings | {"qzx", "roadz", "zroad"}:
        assert again.is_word(s) == (s in whole)
        assert again.is_prefix(s) == (s in prefixes)
        assert again.is_suffix(s) == (s in suffixes)
        assert again.is_substring(s) == (s in substrings)


def test_building_twice_gives_the_same_bytes() -> None:
    assert Lexicon.build(SMALL).to_bytes() == Lexicon.build(reversed(SMALL)).to_bytes()


def test_checksum_defaults_to_md5_of_the_list_one_word_a_line() -> None:
    expected = hashlib.md5(b"a\nat\nroad\n", usedforsecurity=False).hexdigest()
    assert Lexicon.build(["road", "at", "a", "Road"]).checksum == expected


def test_given_checksum_is_kept_through_bytes() -> None:
    lexicon = Lexicon.build(SMALL, checksum="0123456789abcdef0123456789abcdef")
    assert Lexicon.from_bytes(lexicon.to_bytes()).checksum == "0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b"", "too short"),
        (lambda b: b[:40], "too short"),
        (lambda b: b"XXXXXXXX" + b[8:], "version"),
        (lambda b: b[:-1], "length"),
        (lambda b: b + b"\x00", "length"),
        (lambda b: b[:-3] + bytes([b[-3] ^ 1]) + b[-2:], "CRC"),
        # The header's own fields: the key length, the word count, the checksum.
        (lambda b: b[:8] + bytes([b[8] ^ 1]) + b[9:], "CRC"),
        (lambda b: b[:13] + bytes([b[13] ^ 1]) + b[14:], "CRC"),
        (lambda b: b[:25] + bytes([b[25] ^ 1]) + b[26:], "CRC"),
    ],
)
def test_damaged_bytes_are_refused(
    small: Lexicon, damage: Callable[[bytes], bytes], message: str
) -> None:
    with pytest.raises(LexiconError, match=message):
        Lexicon.from_bytes(damage(small.to_bytes()))


def test_build_reports_progress_up_to_the_total() -> None:
    calls: list[tuple[int, int]] = []
    Lexicon.build(SMALL, lambda done, total: calls.append((done, total)))
    assert calls[-1][0] == calls[-1][1] > 0
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


@pytest.mark.parametrize("words", [["road", "ro-ad"], ["road", ""], ["road", "r\u00f6ad"]])
def test_build_refuses_a_non_word(words: list[str]) -> None:
    with pytest.raises(LexiconError, match="not a word"):
        Lexicon.build(words)


def test_build_refuses_no_words() -> None:
    with pytest.raises(LexiconError, match="no words"):
        Lexicon.build([])


def test_normalise_lower_cases_sorts_and_drops_duplicates_and_blank_lines() -> None:
    lines = ["Road\n", "  toad  \r\n", "\n", "road", "AT"]
    assert normalise_word_list(lines, "my.txt") == ["at", "road", "toad"]


@pytest.mark.parametrize(
    ("lines", "line", "found"),
    [
        (["road", "toad", "ro ad"], 3, "' '"),
        (["road", "don't"], 2, '"\'"'),
        (["caf\u00e9"], 1, "'é'"),
        (["road", "", "r2d2"], 3, "'2'"),
        (["\u212aing"], 1, "'\u212a'"),
    ],
)
def test_normalise_names_the_bad_line(lines: list[str], line: int, found: str) -> None:
    with pytest.raises(LexiconError, match=f"words.txt, line {line}: .*found {found}"):
        normalise_word_list(lines, "words.txt")


def test_normalise_refuses_an_empty_list() -> None:
    with pytest.raises(LexiconError, match=r"empty.txt: no words found"):
        normalise_word_list(["", "  "], "empty.txt")
