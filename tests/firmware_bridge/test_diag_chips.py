"""``tabletop diag`` names a reader's chip from the firmware's own table."""

from __future__ import annotations

from firmware_bridge.apps.diag import reader_text


def test_the_census_names_each_chip_as_its_data_sheet_does() -> None:
    assert reader_text(0, 0x92) == "reader 1: MFRC522 v2.0 (92h)"
    assert reader_text(0, 0x89) == "reader 1: FM17522E (89h)"
    assert reader_text(1, 0x90) == "reader 2: MFRC522 v0.0 (90h)"
    assert "FM17522E" not in reader_text(0, 0xB2)
