"""``tabletop diag --cross-read ROW``: the cross-read matrix of one row of a row and
column RFID board (docs/rf.md, "Bring-up, one row first", step 5).

The maker lays one tag on each square of the row in turn, as the terminal and the
OLED ask; a square counts as laid when its switch closes with nothing else on the
board, or when ok is pressed (for a board whose switches are not fitted yet). Each
antenna of the board is then inventoried on its own (an antenna read, docs/protocol.md)
and what it saw is kept. The matrix has a line per square, a column per antenna
(rows R1… first, then columns C1…): every antenna other than the square's own row and
column antenna that saw the tag is a cross-read, every own antenna that did not is a
miss, and each problem gets one sentence saying what to check.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from hardware.board import OCCUPIED
from wiring.profile import Profile

from ..link.messages import AntennaRead, AntennaSeen, SeenStatus
from .diag import PATTERN_BUTTON, Bench, text_screen

READ_TIMEOUT_S = 2.0
"""How long an antenna read may take before it is sent again: an inventory ends within
about 1.1 s (``firmware/trf7962a.py``, MAX_ROUNDS and INVENTORY_US)."""
READ_TRIES = 3
"""Antenna reads sent before the antenna counts as not answering."""
OLED_MODE = "cross-read"
"""The bench's ``oled_mode`` while the walk's prompt is on the OLED."""
NO_ANSWER = "no answer"
"""What an antenna read that was never answered leaves in the matrix."""

Seen = frozenset[str] | str
"""What one antenna saw: the UIDs (hex), or why nothing is known (a SeenStatus name,
or NO_ANSWER)."""


def antenna_name(profile: Profile, antenna: int) -> str:
    """``R1``… for the rows, then ``C1``… for the columns (docs/rf.md's names)."""
    rows = _size(profile)[0]
    return f"R{antenna + 1}" if antenna < rows else f"C{antenna - rows + 1}"


def _size(profile: Profile) -> tuple[int, int]:
    if profile.serial is None:
        raise ValueError(
            f"profile {profile.name!r} has no serial board: the cross-read matrix needs "
            "a Pico board with row and column antennas"
        )
    return profile.serial.rows, profile.serial.columns


class CrossRead:
    """The walk along row ``row`` (0-based) of ``bench``'s board, stepped by :meth:`step`."""

    def __init__(self, bench: Bench, row: int) -> None:
        rows, columns = _size(bench.profile)
        if not 0 <= row < rows:
            raise ValueError(f"--cross-read takes a row from 1 to {rows}, not {row + 1}")
        if not hasattr(bench.board, "antenna_seen"):
            raise ValueError("the cross-read matrix needs the board on its serial link")
        self.bench = bench
        self.row = row
        self.rows = rows
        self.columns = columns
        self.antennas = rows + columns
        self.squares = [bench.profile.cells[row * columns + c] for c in range(columns)]
        self.seen: dict[str, list[Seen]] = {}
        """Per square done, what each antenna saw."""
        self.tags: dict[str, str | None] = {}
        """Per square done, the UID of the tag laid there (None: no antenna saw one)."""
        self.at = 0
        """The square being laid or read now."""
        self.reading: int | None = None
        """The antenna being read, None while waiting for the tag to be laid."""
        self._token = 0
        self._sent = 0.0
        self._tries = 0
        self._ok_presses = self._presses()
        self.prompts: list[str] = []
        """Every prompt shown, in order."""
        self._prompt(f"cross-read of row {row + 1}: lay one tag on {self.squares[0]}, nothing else")

    @property
    def done(self) -> bool:
        return self.at >= len(self.squares)

    @property
    def square(self) -> str:
        return self.squares[self.at]

    def _presses(self) -> int:
        presses = self.bench.presses.get(PATTERN_BUTTON)
        return presses.short if presses is not None else 0

    def _prompt(self, text: str) -> None:
        self.prompts.append(text)
        self.bench.log.append(text)
        self.bench.changes += 1
        self._show()

    def _show(self) -> None:
        """The OLED's prompt (a short press of ok puts the bench's status back: shown again)."""
        lines = [f"cross-read row {self.row + 1}"]
        if self.done:
            lines.append("done: see the terminal")
        elif self.reading is None:
            lines += [f"lay the tag on {self.square}", f"({self.at + 1} of {len(self.squares)})"]
            lines.append(f"or press {PATTERN_BUTTON}")
        else:
            lines += [f"tag on {self.square}:", "reading every antenna"]
        self.bench.oled.show(text_screen(self.bench.oled.size, lines))
        self.bench.oled_mode = OLED_MODE

    def laid(self) -> bool:
        """The tag lies on the square: its switch alone closed, or ok pressed since."""
        observation = self.bench.observation
        if set(observation) == {self.square}:
            return True
        return self._presses() != self._ok_presses

    def step(self, now: float) -> None:
        """Move the walk on: start the reads once the tag is laid, send each antenna's
        read in turn, take the answers."""
        if self.done:
            return
        if self.bench.oled_mode != OLED_MODE:
            self._show()
        if self.reading is None:
            if self.laid():
                self.seen[self.square] = []
                self._send(now, 0)
                self._show()
            return
        board: Any = self.bench.board
        answers: deque[AntennaSeen] = board.antenna_seen
        while answers:
            answer = answers.popleft()
            if answer.token == self._token and answer.antenna == self.reading:
                self._took(now, _seen(answer))
                return
        if now - self._sent >= READ_TIMEOUT_S:
            if self._tries >= READ_TRIES:
                self._took(now, NO_ANSWER)
            else:
                self._send(now, self.reading, again=True)

    def _send(self, now: float, antenna: int, *, again: bool = False) -> None:
        self.reading = antenna
        self._tries = self._tries + 1 if again else 1
        self._token = (self._token + 1) & 0xFFFF
        self._sent = now
        self.bench.board.send(now, AntennaRead(self._token, antenna))  # type: ignore[attr-defined]

    def _took(self, now: float, seen: Seen) -> None:
        reads = self.seen[self.square]
        reads.append(seen)
        if len(reads) < self.antennas:
            self._send(now, len(reads))
            return
        self.tags[self.square] = self._tag(reads)
        self.reading = None
        self.at += 1
        self._ok_presses = self._presses()
        if self.done:
            self._prompt(f"cross-read of row {self.row + 1} done: lift the tag")
        else:
            self._prompt(f"move the tag to {self.square}, nothing else on the board")

    def _tag(self, reads: list[Seen]) -> str | None:
        """The laid tag's UID: the square's reading, else the one UID any antenna saw."""
        value = self.bench.observation.get(self.square)
        if value is not None and value != OCCUPIED:
            return value
        uids = {uid for seen in reads if not isinstance(seen, str) for uid in seen}
        return uids.pop() if len(uids) == 1 else None

    # -- the result ------------------------------------------------------------------------
    def own(self, square: str) -> tuple[int, int]:
        """The square's own antennas: its row's and its column's."""
        return self.row, self.rows + self.squares.index(square)

    def problems(self) -> list[str]:
        """One sentence per problem found, square by square, antenna by antenna."""
        out: list[str] = []
        for square, reads in self.seen.items():
            tag = self.tags.get(square)
            own = self.own(square)
            for antenna, seen in enumerate(reads):
                name = antenna_name(self.bench.profile, antenna)
                if isinstance(seen, str):
                    out.append(_failed(square, name, seen))
                    continue
                saw = tag is not None and tag in seen
                if antenna in own and not saw:
                    out.append(_miss(square, name, antenna == own[0]))
                elif antenna not in own and saw:
                    out.append(self._cross(square, name, antenna))
                for other in sorted(seen - {tag}):
                    out.append(
                        f"{square}: {name} also saw tag {other}, not the one laid: another tag "
                        "lies near the board; take it away and read this square again."
                    )
        return out

    def _cross(self, square: str, name: str, antenna: int) -> str:
        c = self.squares.index(square)
        near = (
            abs(antenna - self.row) == 1
            if antenna < self.rows
            else (abs(antenna - self.rows - c) == 1)
        )
        if near:
            return (
                f"{square}: {name}, the next {'row' if antenna < self.rows else 'column'}'s "
                "antenna, read the tag (a cross-read): the field reaches past its own antenna; "
                "check the tag lies flat and centred in its tile and the read height "
                "(docs/rf.md bring-up step 4: add 2-3 dB to the pad if it reads from much "
                f"higher than 5 mm), and that {name}'s far end reads 24 V deselected (step 1)."
            )
        return (
            f"{square}: {name}, neither its row's nor its column's antenna, read the tag (a "
            f"cross-read): {name} must be off while another is read; check its far end reads "
            "24 V deselected (its TPIC6B595 output and 100 kohm pull-up, docs/rf.md bring-up "
            "step 1) and that the chain selects one antenna only (SER IN, SRCK, RCK wiring)."
        )


def _seen(answer: AntennaSeen) -> Seen:
    if answer.status != SeenStatus.OK:
        return SeenStatus(answer.status).name  # the decoder let no other status through
    return frozenset(uid.hex().upper() for uid in answer.uids)


def _miss(square: str, name: str, is_row: bool) -> str:
    text = (
        f"{square}: its own {'row' if is_row else 'column'} antenna {name} did not read the "
        f"tag (a miss): check {name}'s diode conducts when selected (the bus at 0.8-0.95 V, "
        "about 15 mA: docs/rf.md bring-up step 1) and sweep it at the 50 ohm point (step 2: "
        "return loss deepest at 13.56 MHz)"
    )
    if not is_row:
        text += "; a column whose diode is not fitted yet (step 3) reads nothing"
    return text + "."


def _failed(square: str, name: str, why: str) -> str:
    if why == SeenStatus.NO_ANTENNA.name:
        return (
            f'{square}: the board has no antenna {name}: set RFID_BOARD = "rowcol" and '
            "ANTENNAS in the Pico's config.py (docs/firmware.md)."
        )
    if why == SeenStatus.READER.name:
        return (
            f"{square}: the reader failed while {name} was read: check its supply, EN and "
            "SPI wires (the link panel shows the reader fault)."
        )
    return (
        f"{square}: the board never answered the read of {name}: its firmware may be older "
        "than antenna reads; install the firmware shipped with this tabletop (docs/firmware.md)."
    )


MARKS: Mapping[str, str] = {
    "own": "+",
    "miss": "-",
    "cross": "X",
    "none": ".",
    "other": "o",
    "failed": "?",
}
LEGEND = (
    "+ own antenna read the tag · - own antenna missed it · X cross-read · "
    ". not seen · o another tag seen · ? no answer or reader fault"
)


def matrix_lines(walk: CrossRead) -> list[str]:
    """The matrix as text: a header of antenna names, a line per square done."""
    names = [antenna_name(walk.bench.profile, k) for k in range(walk.antennas)]
    width = max(len(n) for n in names) + 1
    head = "square".ljust(8) + "".join(n.rjust(width) for n in names) + "  tag"
    lines = [head]
    for square, reads in walk.seen.items():
        tag = walk.tags.get(square)
        own = walk.own(square)
        marks = [_mark(k in own, tag, seen) for k, seen in enumerate(reads)]
        lines.append(
            square.ljust(8) + "".join(m.rjust(width) for m in marks) + f"  {tag or 'none seen'}"
        )
    return [*lines, LEGEND]


def _mark(own: bool, tag: str | None, seen: Seen) -> str:
    if isinstance(seen, str):
        return MARKS["failed"]
    saw = tag is not None and tag in seen
    if own:
        return MARKS["own"] if saw else MARKS["miss"]
    if saw:
        return MARKS["cross"]
    return MARKS["other"] if seen else MARKS["none"]


def report(walk: CrossRead) -> list[str]:
    """The matrix, then each problem, or a line saying there is none."""
    problems = walk.problems()
    lines = matrix_lines(walk)
    if problems:
        lines.append(f"{len(problems)} problem{'s' if len(problems) != 1 else ''}:")
        lines += [f"- {p}" for p in problems]
    else:
        lines.append(
            f"no cross-read and no miss on row {walk.row + 1}: every square read on its own "
            "row and column antennas only."
        )
    return lines


def walk_row(
    walk: CrossRead,
    run_for: Callable[[float], None],
    clock: Callable[[], float],
    lay: Callable[[str], None] | None = None,
    say: Callable[[str], None] | None = None,
    limit_s: float | None = None,
) -> bool:
    """Step ``walk`` to its end, ``run_for`` letting the devices run; ``lay`` (the
    simulated hand) lays the tag on each square asked for, and ``say`` shows each prompt.
    False when ``limit_s`` passed first."""
    start = clock()
    shown = 0
    laid: str | None = None
    while not walk.done:
        if say is not None:
            for text in walk.prompts[shown:]:
                say(text)
        shown = len(walk.prompts)
        if lay is not None and walk.reading is None and laid != walk.square:
            lay(walk.square)
            laid = walk.square
        run_for(0.02)
        walk.step(clock())
        if limit_s is not None and clock() - start > limit_s:
            return False
    if say is not None:
        for text in walk.prompts[shown:]:
            say(text)
    return True
