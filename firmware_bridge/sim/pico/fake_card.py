"""The type A cards an MFRC522 reads, as ISO/IEC 14443-3 has them answer (REQA/WUPA
and ATQA, anticollision and SELECT over up to three cascade levels with BCC and CRC_A,
SAK, HLTA and the card's IDLE/READY/ACTIVE/HALT states), their faults, and the errors
of the simulated RFID bench."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

# ISO/IEC 14443-3 type A.
REQA = 0x26
WUPA = 0x52
HLTA = 0x50
CASCADE_TAG = 0x88
SEL = (0x93, 0x95, 0x97)
SAK_UID_INCOMPLETE = 0x04

Fault = Literal["bcc", "crc", "parity"]
"""A card's defect: a wrong BCC in its anticollision answer, a wrong CRC_A after
its SAK, or a parity error the reader flags on every answer."""
FAULTS: tuple[Fault, ...] = ("bcc", "crc", "parity")


class RfidBenchError(Exception):
    """The simulated RFID hardware was used in a way the real parts do not allow."""


class CardError(RfidBenchError, ValueError):
    """A card cannot be made as asked; the message says what a UID must be."""


class BenchWiringError(RfidBenchError, ValueError):
    """The simulated readers cannot be wired as asked; the message says what to change."""


class SpiProtocolError(RfidBenchError, ValueError):
    """The SPI bytes break the MFRC522's framing, or ask for what the fake does not model."""


def crc16(data: Iterable[int], preset: int = 0x6363) -> int:
    """The CRC of ISO/IEC 14443-A (reflected polynomial 0x8408) from ``preset``."""
    crc = preset
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def crc_a(data: Iterable[int]) -> bytes:
    """CRC_A of ``data`` as sent on the air: low byte first."""
    crc = crc16(data)
    return bytes((crc & 0xFF, crc >> 8))


def _xor(data: bytes) -> int:
    value = 0
    for byte in data:
        value ^= byte
    return value


class Card:
    """A type A card (PICC) with a 4-, 7- or 10-byte UID, following the ISO/IEC
    14443-3 state machine. ``sak`` is the final SAK (08h: MIFARE Classic 1K)."""

    def __init__(self, uid: bytes, sak: int = 0x08, faults: Iterable[Fault] = ()) -> None:
        if len(uid) not in (4, 7, 10):
            raise CardError(
                f"a type A UID is 4, 7 or 10 bytes, not {len(uid)} ({uid.hex().upper()})"
            )
        if uid[0] == CASCADE_TAG:
            raise CardError(
                f"UID {uid.hex().upper()} starts with the cascade tag 88: "
                "ISO/IEC 14443-3 reserves it; choose another first byte"
            )
        if sak & SAK_UID_INCOMPLETE:
            raise CardError(f"final SAK {sak:02X} has bit 3 set (UID not complete); clear it")
        unknown = set(faults) - set(FAULTS)
        if unknown:
            raise CardError(f"unknown card faults {sorted(unknown)}: use {', '.join(FAULTS)}")
        self.uid = bytes(uid)
        self.sak = sak
        self.faults = frozenset(faults)
        if len(uid) == 4:
            self._parts = [self.uid]
        elif len(uid) == 7:
            self._parts = [bytes((CASCADE_TAG,)) + self.uid[:3], self.uid[3:]]
        else:
            self._parts = [
                bytes((CASCADE_TAG,)) + self.uid[:3],
                bytes((CASCADE_TAG,)) + self.uid[3:6],
                self.uid[6:],
            ]
        size_bits = (len(self._parts) - 1) << 6
        # b5..b1 = 00100: bit frame anticollision; b8b7: UID size. Low byte first.
        self.atqa = bytes((size_bits | 0x04, 0x00))
        self.state = "POWER_OFF"
        self._level = 0
        self._from_halt = False

    def power(self, field: bool) -> None:
        """The reader's field came on (the card resets to IDLE) or went off."""
        if not field:
            self.state = "POWER_OFF"
        elif self.state == "POWER_OFF":
            self.state = "IDLE"
            self._level = 0
            self._from_halt = False

    def _fall_back(self) -> None:
        # An unexpected or broken frame sends a card back to where WUPA found it.
        self.state = "HALT" if self._from_halt else "IDLE"
        self._level = 0

    def answer(self, frame: bytes, last_bits: int) -> bytes | None:
        """The card's reply to ``frame`` (``last_bits`` valid bits in its last byte,
        0 for all 8), or None when it stays silent."""
        state = self.state
        if state == "POWER_OFF":
            return None
        if last_bits == 7 and len(frame) == 1 and frame[0] in (REQA, WUPA):
            if state == "IDLE" or (state == "HALT" and frame[0] == WUPA):
                self._from_halt = state == "HALT"
                self.state = "READY"
                self._level = 0
                return self.atqa
            if state in ("READY", "ACTIVE"):
                self._fall_back()
            return None
        if state in ("IDLE", "HALT"):
            return None
        if last_bits != 0:
            self._fall_back()
            return None
        if state == "READY" and len(frame) >= 2 and frame[0] == SEL[self._level]:
            return self._anticollision_or_select(frame)
        if state == "ACTIVE" and frame == bytes((HLTA, 0)) + crc_a(bytes((HLTA, 0))):
            self.state = "HALT"
            return None
        self._fall_back()
        return None

    def _anticollision_or_select(self, frame: bytes) -> bytes | None:
        part = self._parts[self._level]
        nvb = frame[1]
        if nvb == 0x20 and len(frame) == 2:
            bcc = _xor(part) ^ (0xFF if "bcc" in self.faults else 0)
            return part + bytes((bcc,))
        if nvb == 0x70 and len(frame) == 9:
            if crc_a(frame[:7]) != frame[7:]:
                self._fall_back()
                return None
            if frame[2:6] != part or frame[6] != _xor(part):
                return None  # another card's SELECT: stay READY
            if self._level + 1 < len(self._parts):
                self._level += 1
                sak = SAK_UID_INCOMPLETE
            else:
                self.state = "ACTIVE"
                sak = self.sak
            crc = bytearray(crc_a(bytes((sak,))))
            if "crc" in self.faults:
                crc[0] ^= 0x01
            return bytes((sak,)) + bytes(crc)
        # Bit-oriented anticollision is for two cards on one antenna: not modelled.
        return None
