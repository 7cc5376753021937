"""SKiDL, imported quietly on first use, its loggers' output captured, and parts
defined in code from their data sheets' pinouts."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator
from typing import Any

from wiring.errors import NetlistError

MISSING_SKIDL = (
    "tabletop netlist needs SKiDL, which is not installed: "
    "pip install 'tabletop[build]' (or pip install skidl) in this environment"
)


def import_skidl() -> Any:
    """SKiDL, imported on first use (it takes a second and only this needs it),
    with its import-time complaints about KiCad library paths kept off the console
    and its log files (written beside the running script) switched off."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            import skidl
            from skidl.logger import stop_log_file_output
    except ModuleNotFoundError:
        raise NetlistError(MISSING_SKIDL) from None

    stop_log_file_output()
    return skidl


@contextlib.contextmanager
def captured(skidl: Any) -> Iterator[io.StringIO]:
    """What SKiDL's loggers say meanwhile, kept to show its ERC report only."""
    from skidl.logger import erc_logger, rt_logger

    captured = io.StringIO()
    handlers = [
        h for lg in (rt_logger, erc_logger) for h in lg.handlers if type(h) is logging.StreamHandler
    ]
    streams = [h.setStream(captured) for h in handlers]
    try:
        yield captured
    finally:
        for h, stream in zip(handlers, streams, strict=True):
            if stream is not None:
                h.setStream(stream)


def template(
    skidl: Any, name: str, prefix: str, footprint: str, pins: list[tuple[int, str, Any]]
) -> Any:
    """A part template: its data sheet's pins as (number, name, SKiDL pin type), and
    a KiCad footprint name, so no KiCad library is needed."""
    return skidl.Part(
        tool=skidl.SKIDL,
        name=name,
        ref_prefix=prefix,
        dest=skidl.TEMPLATE,
        footprint=footprint,
        pins=[skidl.Pin(num=n, name=nm, func=f) for n, nm, f in pins],
    )
