"""Reading one TOML file, with a message for each way it can fail."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from wiring.errors import WiringError

_LOCATION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def read_toml(file: Path, label: str, what: str, error: type[WiringError]) -> dict[str, Any]:
    """Parse ``file``; on failure raise ``error`` naming ``label`` and the line.

    ``what`` says what the file is (``"profile"``, ``"run config"``).
    """
    summary = f"cannot read {what} {label}"
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(summary, [f"{label}: no such file; check the path"]) from None
    except UnicodeDecodeError as e:
        raise error(
            summary, [f"{label}: not UTF-8 text ({e.reason}); save the file as UTF-8"]
        ) from None
    except OSError as e:
        raise error(
            summary, [f"{label}: {e.strerror or e}; check the file exists and is readable"]
        ) from None
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise error(
            summary, [f"{label}: nested too deeply to read; arrays and tables a few levels deep"]
        ) from None
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        where = ""
        match = _LOCATION.search(message)
        if match:
            where = f"line {match.group(1)}, column {match.group(2)}: "
            message = message[: match.start()]
        raise error(
            summary,
            [
                f"{label}: {where}TOML syntax error: {message}; fix that line "
                "(strings need quotes, sections are written [name], one key = value a line)"
            ],
        ) from None
    except ValueError as e:
        # Beyond TOML's syntax: a whole number of thousands of digits, a bad date.
        what = "a whole number too long to read" if "digits" in str(e) else str(e)[:120]
        raise error(
            summary, [f"{label}: {what}; write a value of the size the option takes"]
        ) from None
