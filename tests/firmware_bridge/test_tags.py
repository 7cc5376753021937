"""The tag table: ids normalised, unknown tags unknown, files written atomically."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.runtime.errors import TagConflictError, TagError
from firmware_bridge.runtime.tags import TagTable, normalise_tag


def test_tag_ids_are_upper_case_hex_without_separators() -> None:
    assert normalise_tag("04:a2:24:b2") == "04A224B2"
    assert normalise_tag(" deadbeef ") == "DEADBEEF"


@pytest.mark.parametrize("bad", ["", "12", "xyz12345", "04A224B", "00" * 11])
def test_a_tag_that_is_not_a_uid_is_refused(bad: str) -> None:
    with pytest.raises(TagError, match="not a UID"):
        normalise_tag(bad)


def test_an_unknown_tag_is_none_never_a_guess() -> None:
    table = TagTable({"04A224B2": "A"})
    assert table.lookup("04a224b2") == "A"
    assert table.lookup("04A224B3") is None
    assert table.lookup("not a tag") is None


def test_a_tag_enrolled_again_with_another_name_is_refused() -> None:
    table = TagTable({"04A224B2": "A"})
    with pytest.raises(TagConflictError, match="already enrolled as 'A', not 'B'"):
        table.enrol("04a224b2", "B")
    table.enrol("04A224B2", "A")
    assert table.lookup("04A224B2") == "A"


def test_overwrite_replaces_a_label() -> None:
    table = TagTable({"04A224B2": "A"})
    table.enrol("04A224B2", "6-3:6", overwrite=True)
    assert table.lookup("04A224B2") == "6-3:6"


def test_save_then_load_gives_the_same_table(tmp_path: Path) -> None:
    path = tmp_path / "tags" / "tags.json"
    table = TagTable({"04A224B2": "?", "DEADBEEF": "red", "01020304": "6-3:6"})
    table.save(path)
    assert TagTable.load(path).items() == table.items()
    assert [p.name for p in path.parent.iterdir()] == ["tags.json"]


def test_save_replaces_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    TagTable({"04A224B2": "A"}).save(path)
    TagTable({"DEADBEEF": "B"}).save(path)
    assert TagTable.load(path).items() == [("DEADBEEF", "B")]


def test_a_missing_file_is_an_empty_table(tmp_path: Path) -> None:
    assert len(TagTable.load(tmp_path / "none.json")) == 0


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{", "not JSON"),
        ('{"tags": ["A"]}', "expected"),
        ('{"tags": {"zz": "A"}}', "not a UID"),
        ('{"tags": {"04A224B2": " "}}', "non-empty"),
    ],
)
def test_a_bad_file_names_itself_and_the_problem(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "tags.json"
    path.write_text(text)
    with pytest.raises(TagError, match=reason) as caught:
        TagTable.load(path)
    assert str(path) in str(caught.value)


def test_a_file_that_is_not_utf8_text_names_itself(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    path.write_bytes(b'{"tags": {"04A224B2": "\xff"}}')
    with pytest.raises(TagError, match="not UTF-8") as caught:
        TagTable.load(path)
    assert str(path) in str(caught.value)


def test_a_folder_in_place_of_the_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(TagError, match="cannot read") as caught:
        TagTable.load(tmp_path)
    assert str(tmp_path) in str(caught.value)


def test_a_table_that_cannot_be_written_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("not a folder")
    path = tmp_path / "plain" / "tags.json"
    with pytest.raises(TagError, match="cannot write") as caught:
        TagTable({"DEADBEEF": "B"}).save(path)
    assert str(path) in str(caught.value)
