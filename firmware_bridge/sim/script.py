"""Scenario scripts: one physical or button action per line (DESIGN.md).

```
place H8 A          # put a piece on a cell
place H8,H9 6-3     # a domino: first cell takes the first number
lift H8             # take whatever is on the cell off the board
slide c3 c4 c5      # slide a piece from c3 over c4 onto c5 without lifting it
tap d4 0.05         # something brushes d4 for 0.05 s
press ok            # a button: roll, left, right, ok, back
hold back           # a long press
dice 5 4 2 4        # the next dice the station rolls
blank E             # the letter chosen for a blank when asked (blank E H8: asked about H8)
bomb ns H8          # DoubleCross: play a directional bomb (ns, ew, nsew) of the tray on H8
newletters          # DoubleCross: ask for new letters
endgame             # DoubleCross: the last passer ends the game
wait 0.5            # let simulated time pass
pace 0.3            # how long a hand takes between actions from now on
unplug              # pull the serial board's cable (serial boards only)
replug              # plug it back in
wrong place c5 red  # a piece that is not the mover's, on purpose (place, lift, slide)
takeback            # hold back and choose "take back last" from the menu
```

A ``place``, ``lift`` or ``slide`` that moves a piece the player to move does not
hold is a mistake in the script, refused before the game starts; ``wrong`` in front
of the line makes that mistake on purpose (to see the referee refuse it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from msgspec import Struct

BUTTONS = ("roll", "left", "right", "ok", "back")


class ScriptError(ValueError):
    """A line of a scenario script that cannot be run."""

    def __init__(self, source: str, lineno: int, message: str) -> None:
        super().__init__(f"{source}, line {lineno}: {message}")
        self.source = source
        self.lineno = lineno


class Line(Struct, frozen=True):
    source: str
    lineno: int
    verb: str
    args: tuple[str, ...]
    deliberate: bool = False
    """Written ``wrong ...``: the piece may be one the player to move does not hold."""

    def error(self, message: str) -> ScriptError:
        return ScriptError(self.source, self.lineno, message)

    def text(self) -> str:
        return " ".join(
            ("wrong", self.verb, *self.args) if self.deliberate else (self.verb, *self.args)
        )


# verb: (least args, most args or None, usage)
VERBS: dict[str, tuple[int, int | None, str]] = {
    "place": (1, 2, "place CELL[,CELL] [PIECE]"),
    "lift": (1, 1, "lift CELL"),
    "slide": (2, None, "slide FROM [OVER ...] TO"),
    "tap": (1, 2, "tap CELL [SECONDS]"),
    "press": (1, 1, "press BUTTON"),
    "hold": (1, 2, "hold BUTTON [SECONDS]"),
    "dice": (1, None, "dice N [N ...]"),
    "blank": (1, 2, "blank LETTER [CELL]"),
    "wait": (1, 1, "wait SECONDS"),
    "pace": (1, 1, "pace SECONDS"),
    "unplug": (0, 0, "unplug"),
    "replug": (0, 0, "replug"),
    "bomb": (2, 2, "bomb KIND CELL"),
    "newletters": (0, 0, "newletters"),
    "endgame": (0, 0, "endgame"),
    "takeback": (0, 0, "takeback"),
}
GAME_VERBS = ("bomb", "newletters", "endgame")
"""Lines only some games know; the game's simulated hand carries them out."""


WRONG = "wrong"
WRONG_VERBS = ("place", "lift", "slide")
"""The lines ``wrong`` may begin: those that move a piece."""


def _seconds(line: Line, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise line.error(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 3600:
        raise line.error(f"{text} seconds is out of range (0 to 3600)")
    return value


def check_line(line: Line) -> None:
    """Raise ScriptError if the line's own words are wrong (cells are checked later)."""
    low, high, usage = VERBS[line.verb]
    n = len(line.args)
    if n < low or (high is not None and n > high):
        raise line.error(f"'{line.verb}' takes {usage}")
    if line.verb in ("press", "hold") and line.args[0] not in BUTTONS:
        import difflib  # here: only a misspelt word needs it

        near = difflib.get_close_matches(line.args[0], BUTTONS, 1)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        raise line.error(f"no button '{line.args[0]}' (buttons: {', '.join(BUTTONS)}){hint}")
    if line.verb == "dice":
        for value in line.args:
            if value not in ("1", "2", "3", "4", "5", "6"):
                raise line.error(f"a die shows 1 to 6, not {value!r}")
    if line.verb == "blank" and not (len(line.args[0]) == 1 and line.args[0].isalpha()):
        raise line.error(f"a blank stands for one letter A–Z, not {line.args[0]!r}")
    if line.verb in ("wait", "pace"):
        _seconds(line, line.args[0])
    if line.verb in ("tap", "hold") and len(line.args) == 2:
        _seconds(line, line.args[1])


def seconds(line: Line, index: int, default: float) -> float:
    if len(line.args) > index:
        return _seconds(line, line.args[index])
    return default


def parse_line(text: str, lineno: int, source: str) -> Line | None:
    """Parse one line; ``None`` for a blank or comment line."""
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    words = body.split()
    deliberate = words[0].lower() == WRONG
    if deliberate:
        words = words[1:]
        if not words or words[0].lower() not in WRONG_VERBS:
            raise ScriptError(
                source,
                lineno,
                f"'{WRONG}' goes before {', '.join(WRONG_VERBS)}: 'wrong place r7c5 red'",
            )
    verb = words[0].lower()
    line = Line(source, lineno, verb, tuple(words[1:]), deliberate)
    if verb not in VERBS:
        import difflib  # here: only a misspelt word needs it

        near = difflib.get_close_matches(verb, VERBS, 1)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        raise line.error(f"unknown action '{words[0]}'{hint}")
    check_line(line)
    return line


def parse(lines: Iterable[str], source: str = "script") -> Iterator[Line]:
    """Parse lines lazily, so a script read from a pipe runs as it arrives."""
    for lineno, text in enumerate(lines, 1):
        line = parse_line(text, lineno, source)
        if line is not None:
            yield line


CELL_VERBS = ("place", "lift", "tap", "slide")


def with_board_cells(lines: Iterable[Line], cells: Iterable[str]) -> Iterable[Line]:
    """The lines with their cells named as the board names them, whatever their case
    (``h8`` is ``H8`` on a 15 × 15 board, ``A1`` is ``a1`` on Double Take's).

    A list stays a list (checked whole before running); a stream stays lazy.
    """
    by_folded = {cell.casefold(): cell for cell in cells}

    def fix(line: Line) -> Line:
        if line.verb not in CELL_VERBS:
            return line
        count = len(line.args) if line.verb == "slide" else 1
        args = [
            ",".join(by_folded.get(c.casefold(), c) for c in arg.split(",")) if i < count else arg
            for i, arg in enumerate(line.args)
        ]
        return Line(line.source, line.lineno, line.verb, tuple(args), line.deliberate)

    if isinstance(lines, list):
        return [fix(line) for line in lines]
    return (fix(line) for line in lines)


def parse_all(text: str, source: str = "script") -> list[Line]:
    """Parse a whole script up front, so a typo is caught before anything runs."""
    return list(parse(text.splitlines(), source))
