"""The word games read each tile's tag once (what the tag table says, remembered), and
name the tiles a rack took."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.kits.crosslet.turn import (
    label_letter,
    taken_tiles,
    tile_letter,
)
from firmware_bridge.kits.doublecross.turn import tile_letter as doublecross_letter
from firmware_bridge.referees.facts import Facts
from firmware_bridge.referees.referee import TagReader
from firmware_bridge.runtime.tags import TagTable
from hardware.board import OCCUPIED


class CountingTable(TagTable):
    """A tag table that counts its look-ups."""

    asked = 0

    def lookup(self, tag: str) -> str | None:
        self.asked += 1
        return super().lookup(tag)


def test_a_known_tag_is_looked_up_once_however_often_it_is_sensed() -> None:
    table = CountingTable({"04A224B2": "e", "04A224B3": "?"})
    reader = TagReader(Facts(labels=table.lookup), tile_letter)
    assert [reader.read("04A224B2") for _ in range(5)] == ["E"] * 5
    assert [reader.read("04a2:24b3") for _ in range(3)] == ["?"] * 3
    assert table.asked == 2


def test_an_unknown_tag_is_asked_again_and_read_once_enrolled() -> None:
    table = CountingTable()
    reader = TagReader(Facts(labels=table.lookup), tile_letter)
    assert reader.read("04A224B2") is None
    assert reader.read("04A224B2") is None
    table.enrol("04A224B2", "Q")
    assert reader.read("04A224B2") == "Q"
    assert table.asked == 3


def test_a_tag_that_is_no_tile_stays_unread() -> None:
    table = TagTable({"04A224B2": "6-3:6", "04A224B3": "?"})
    reader = TagReader(Facts(labels=table.lookup), doublecross_letter)
    assert reader.read("04A224B2") is None
    assert reader.read("04A224B3") is None  # DoubleCross has no blanks
    assert reader.read(OCCUPIED) is None


def test_a_new_tag_table_is_read_afresh() -> None:
    facts = Facts(labels=TagTable({"04A224B2": "A"}).lookup)
    reader = TagReader(facts, tile_letter)
    assert reader.read("04A224B2") == "A"
    facts.labels = TagTable({"04A224B2": "B"}).lookup
    assert reader.read("04A224B2") == "B"
    facts.labels = None  # a board without tag readers
    assert reader.read("04A224B2") is None


def test_the_labels_of_the_games_pieces_read_as_tag_labels_do() -> None:
    for label in ["A", "Z", "?", "blank", " e ", "AB", "6-3:6", ""]:
        assert label_letter(label) == tile_letter(label)


def test_a_sensed_tile_shows_the_letter_read_or_any_tile_without_tag_readers() -> None:
    facts = Facts(labels=TagTable({"04A224B2": "E"}).lookup)
    reader = TagReader(facts, tile_letter)
    assert [reader.shows("04A224B2", "E") for _ in range(2)] == [True, True]
    assert not reader.shows("04A224B2", "A")
    assert not reader.shows(OCCUPIED, "E")  # a reader that read no tag
    assert not reader.shows("04A224B9", "E")  # never enrolled
    facts.labels = None
    assert reader.shows(OCCUPIED, "E")
    assert not reader.shows("04A224B2", "E")


racks = st.lists(st.sampled_from("AEEQ?"), max_size=7)


@settings(max_examples=300, deadline=None)
@given(racks, racks, racks)
def test_the_tiles_taken_are_the_new_rack_less_the_tiles_kept(
    before: list[str], used: list[str], after: list[str]
) -> None:
    kept = Counter(before) - Counter(used)
    assert taken_tiles(before, used, after) == list((Counter(after) - kept).elements())


def test_tiles_taken_come_grouped_by_letter_in_the_order_the_rack_shows_them() -> None:
    assert taken_tiles(list("CATSAND"), list("CAT"), list("SANDEAX")) == ["A", "E", "X"]
    assert taken_tiles(list("EE"), [], list("AEAE")) == ["A", "A"]
