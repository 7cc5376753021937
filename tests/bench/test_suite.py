"""The benchmark suite: its convention checks, its verdicts, and a quick run of every benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import Figure, Report, bench_names, check_figure, status, table

ROOT = Path(__file__).resolve().parents[2]


def raw(**changes: object) -> dict[str, object]:
    figure: dict[str, object] = {
        "figure": "bytes per update",
        "unit": "bytes",
        "target": 600.0,
        "better": "lower",
        "samples": [500.0, 700.0, 550.0],
    }
    figure.update(changes)
    return figure


def test_median_decides_the_verdict_on_the_better_side() -> None:
    assert check_figure("bench_x", raw()).verdict == "PASS"
    assert check_figure("bench_x", raw(target=540.0)).verdict == "FAIL"
    assert check_figure("bench_x", raw(better="higher", target=540.0)).verdict == "PASS"
    assert check_figure("bench_x", raw(target=None)).verdict == "info"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"better": "less"}, "not lower or higher"),
        ({"samples": []}, "no samples"),
        ({"samples": [1.0, float("nan")]}, "not finite"),
        ({"target": "600"}, "not a number"),
    ],
)
def test_a_figure_breaking_the_convention_is_named(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        check_figure("bench_x", raw(**changes))


def test_a_figure_missing_keys_says_which() -> None:
    figure = raw()
    del figure["unit"], figure["better"]
    with pytest.raises(ValueError, match="lacks better, unit"):
        check_figure("bench_x", figure)


def test_table_shows_every_figure_and_error_and_the_status_follows() -> None:
    good = Figure("bench_oled", "bytes", "bytes", 600.0, "lower", [1.0, 2.0, 3.0])
    bad = Figure("bench_start", "ratio", "×", 4.0, "lower", [5.0, 6.0, 7.0])
    report = Report([good])
    assert status(report) == 0
    report.figures.append(bad)
    assert status(report) == 1
    report.errors["bench_event"] = "RuntimeError: broke"
    assert status(report) == 2
    text = table(report)
    assert "oled: bytes" in text and "PASS" in text
    assert "start: ratio" in text and "FAIL" in text
    assert "event: ERROR" in text and "RuntimeError: broke" in text


@pytest.mark.slow
@pytest.mark.timeout(660)
def test_quick_run_of_every_benchmark_gives_well_formed_figures() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--json"],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,  # the move generator's compile alone takes minutes on a busy machine
    )
    assert done.returncode in (0, 1, 2), done.stderr
    report = json.loads(done.stdout)
    assert report["errors"] == {}, done.stderr[-3000:]
    ran = {f["bench"] for f in report["figures"]}
    assert ran == set(bench_names())
    assert {"bench_oled", "bench_sim", "bench_lexicon"} <= ran
    for figure in report["figures"]:
        assert figure["verdict"] in ("PASS", "FAIL", "info")
        assert len(figure["samples"]) >= 1
