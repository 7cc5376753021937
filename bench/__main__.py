"""Run every benchmark and print one table: figure, target, min/median/max, PASS or FAIL.

Every ``bench/bench_*.py`` exposes ``run(quick: bool) -> list[dict]``, one dict
per figure::

    {"figure": str, "unit": str, "target": float | None,
     "better": "lower" | "higher", "samples": list[float]}

A figure passes when its median is on the right side of its target; one without
a target is shown for information. Run from the repository's root:

    python -m bench [--quick] [--only NAME ...] [--json]

The exit status is 0 when every figure passes, 1 when one fails, 2 when a
benchmark could not run or broke the convention.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import statistics
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@dataclass
class Figure:
    bench: str
    figure: str
    unit: str
    target: float | None
    better: str
    samples: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def verdict(self) -> str:
        if self.target is None:
            return "info"
        ok = self.median <= self.target if self.better == "lower" else self.median >= self.target
        return "PASS" if ok else "FAIL"


@dataclass
class Report:
    figures: list[Figure] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def bench_names() -> list[str]:
    """The benchmark modules in ``bench/``, by name (``bench_oled``)."""
    return sorted(p.stem for p in HERE.glob("bench_*.py"))


def check_figure(bench: str, raw: Any) -> Figure:
    """``raw`` as a :class:`Figure`, or ValueError saying how it breaks the convention."""
    if not isinstance(raw, dict):
        raise ValueError(f"{bench}.run returned {type(raw).__name__} items, not dicts")
    missing = {"figure", "unit", "target", "better", "samples"} - raw.keys()
    if missing:
        raise ValueError(
            f"{bench}: figure {raw.get('figure')!r} lacks {', '.join(sorted(missing))}"
        )
    name = raw["figure"]
    samples = raw["samples"]
    if raw["better"] not in ("lower", "higher"):
        raise ValueError(f"{bench}: {name!r} has better={raw['better']!r}, not lower or higher")
    if not isinstance(samples, list) or not samples:
        raise ValueError(f"{bench}: {name!r} has no samples")
    if not all(isinstance(s, int | float) and math.isfinite(s) for s in samples):
        raise ValueError(f"{bench}: {name!r} has samples that are not finite numbers: {samples}")
    target = raw["target"]
    if target is not None and not isinstance(target, int | float):
        raise ValueError(f"{bench}: {name!r} has target {target!r}, not a number or None")
    return Figure(bench, str(name), str(raw["unit"]), target, raw["better"], list(samples))


def run_benches(names: Sequence[str], quick: bool) -> Report:
    """Import and run each benchmark; a failing one is recorded, the others still run."""
    report = Report()
    for name in names:
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.{name}")
            run = getattr(module, "run", None)
            if not callable(run):
                raise ValueError(
                    f"{name} has no run(quick) -> list[dict]; see bench/__main__.py for the "
                    "convention"
                )
            # A benchmark's own printing goes to stderr: stdout is the table (or JSON).
            with contextlib.redirect_stdout(sys.stderr):
                figures = run(quick)
            if not isinstance(figures, list) or not figures:
                raise ValueError(f"{name}.run returned no figures")
            report.figures.extend(check_figure(name, raw) for raw in figures)
        except Exception as exc:  # one broken benchmark must not hide the others
            report.errors[name] = f"{type(exc).__name__}: {exc}"
            traceback.print_exc(file=sys.stderr)
        report.seconds[name] = time.perf_counter() - started
    return report


def _number(value: float) -> str:
    if value == 0 or 0.01 <= abs(value) < 100_000:
        return f"{value:.3g}" if abs(value) < 100 else f"{value:,.0f}"
    return f"{value:.2e}"


def table(report: Report) -> str:
    """The report as a plain-text table."""
    header = ("figure", "unit", "target", "min", "median", "max", "n", "result")
    rows: list[tuple[str, ...]] = []
    for f in report.figures:
        target = (
            "—" if f.target is None else ("≤ " if f.better == "lower" else "≥ ") + _number(f.target)
        )
        rows.append(
            (
                f"{f.bench.removeprefix('bench_')}: {f.figure}",
                f.unit,
                target,
                _number(min(f.samples)),
                _number(f.median),
                _number(max(f.samples)),
                str(len(f.samples)),
                f.verdict,
            )
        )
    for name, error in report.errors.items():
        rows.append((f"{name.removeprefix('bench_')}: ERROR", "", "", "", "", "", "", error))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *rows]:
        cells = [
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=False))
        ]
        lines.append("  ".join(cells) + "  " + row[-1])
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def status(report: Report) -> int:
    if report.errors:
        return 2
    return 1 if any(f.verdict == "FAIL" for f in report.figures) else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, smaller runs (for tests)")
    parser.add_argument(
        "--only", nargs="+", metavar="NAME", help="these benchmarks only (oled or bench_oled)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    names = bench_names()
    if args.only:
        wanted = [n if n.startswith("bench_") else f"bench_{n}" for n in args.only]
        unknown = [n for n in wanted if n not in names]
        if unknown:
            parser.error(f"no benchmark {', '.join(unknown)}; there are: {', '.join(names)}")
        names = wanted
    report = run_benches(names, args.quick)
    if args.json:
        out = {
            "figures": [
                {**f.__dict__, "median": f.median, "verdict": f.verdict} for f in report.figures
            ],
            "errors": report.errors,
            "seconds": report.seconds,
        }
        print(json.dumps(out, indent=1))
    else:
        print(table(report))
        took = ", ".join(f"{n.removeprefix('bench_')} {s:.1f} s" for n, s in report.seconds.items())
        print(f"\n{'quick run' if args.quick else 'run'}: {took}")
    return status(report)


if __name__ == "__main__":
    sys.exit(main())
