"""How long an ISO/IEC 15693 inventory takes on one antenna: the air-interface times a
simulated board charges and the firmware's budget rests on.

Times from ISO/IEC 15693-2 (coding, high data rate, one subcarrier, reader to tag 1 out
of 4) and ISO/IEC 15693-3 (inventory with 16 slots), fc = 13.56 MHz:

- reader to tag: a bit takes 512/fc = 37.76 µs (2 bits per 75.52 µs symbol); SOF 4 ×
  256/fc = 75.52 µs; EOF 2 × 256/fc = 37.76 µs;
- tag to reader: a bit takes 512/fc = 37.76 µs (26.48 kbit/s); SOF and EOF 2048/fc =
  151.04 µs each (56.64 µs unmodulated, 24 subcarrier pulses, one bit);
- t1, the tag's wait before it answers: 4352/fc = 320.9 µs; t2, the reader's wait after
  an answer before the next slot's EOF: at least 4192/fc = 309.1 µs; t3, the wait in a
  slot nobody answers before the next EOF: 4384/fc plus the tag's SOF, 474.4 µs.

An inventory request is flags, command, mask length and CRC (5 bytes); an answer is
flags, DSFID, the 8-byte UID and CRC (12 bytes). Slots where two tags answer at once
cost the same as an answer and are read again in a further round, which this model
counts as a whole second round of 16 slots for the tags that collided.
"""

from __future__ import annotations

from .parts import F0

BIT_S = 512 / F0
READER_SOF_S = 4 * 256 / F0
READER_EOF_S = 2 * 256 / F0
TAG_FRAME_S = 2048 / F0
T1_S = 4352 / F0
T2_S = 4192 / F0
T3_S = 4384 / F0 + TAG_FRAME_S
REQUEST_BYTES = 5
ANSWER_BYTES = 12
SLOTS = 16


def request_s() -> float:
    """The inventory request on air, SOF to EOF."""
    return READER_SOF_S + REQUEST_BYTES * 8 * BIT_S + READER_EOF_S


def answer_slot_s() -> float:
    """One slot with an answer: t1, the answer framed, t2."""
    return T1_S + TAG_FRAME_S + ANSWER_BYTES * 8 * BIT_S + TAG_FRAME_S + T2_S


def empty_slot_s() -> float:
    """One slot nobody answers: t3."""
    return T3_S


def inventory_s(tags: int, collided: int = 0) -> float:
    """One 16-slot inventory with ``tags`` tags answering in slots of their own, and
    ``collided`` more that met another in a slot, two to a slot (a second round reads
    those). A slot's EOF starts each slot after the first."""
    answered = tags + (collided + 1) // 2
    first = request_s() + answered * answer_slot_s() + (SLOTS - answered) * empty_slot_s()
    first += (SLOTS - 1) * READER_EOF_S
    if collided == 0:
        return first
    return first + inventory_s(collided)


def inventory_table(counts: tuple[int, ...] = (0, 1, 2, 5, 10, 15)) -> str:
    """Inventory time against the number of tags on the antenna (no collisions, and
    with two of them colliding), for docs/rf.md."""
    lines = [
        "| tags on the antenna | one 16-slot inventory (ms) | with two colliding (ms) |",
        "|---|---|---|",
    ]
    for n in counts:
        both = f"{inventory_s(n - 2, 2) * 1e3:.1f}" if n >= 2 else "–"
        lines.append(f"| {n} | {inventory_s(n) * 1e3:.1f} | {both} |")
    return "\n".join(lines)
