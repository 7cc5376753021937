"""Benchmark of the lexicon against its targets, beside a plain set of all substrings.

Run: ``python bench/bench_lexicon.py [--list FILE] [--cache-dir DIR] [--queries N]``.
Prints median query times (hits and misses), the load time from the cache, the
index's memory, the resident size of a fresh process with the lexicon and the word
games loaded, and the same figures for the baseline, each with PASS or FAIL.
``run(quick)`` (for ``python -m bench``) gives the same figures for the shipped
list, without the baseline, each measured three times.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from itertools import repeat
from pathlib import Path
from typing import Any

from firmware_bridge.kits.lexicon_store import (
    cache_path,
    default_cache_dir,
    load_lexicon,
    read_word_list,
)
from games.lexicon import Lexicon

QUERY_TARGET_US = 2.0
LOAD_TARGET_MS = 50.0
INDEX_TARGET_MB = 10.0
PROCESS_TARGET_MB = 60.0
REPEATS = 20
"""Calls timed together per query, so the timer's own cost is spread thin."""

LETTERS = "abcdefghijklmnopqrstuvwxyz"

# Run in a fresh interpreter: what the daemon holds with a word game and its lexicon.
RSS_PROBE = """
import importlib, json, sys
from pathlib import Path
from typing import Any
loaded = []
names = (
    "firmware_bridge.apps.cli", "games.registry", "games.crosslet.game", "games.doublecross.game"
)
for name in names:
    try:
        importlib.import_module(name)
        loaded.append(name)
    except ImportError:
        pass
from firmware_bridge.kits.lexicon_store import load_lexicon
lexicon = load_lexicon(None if sys.argv[1] == "-" else Path(sys.argv[1]), Path(sys.argv[2]))
assert lexicon.is_word("road")
status = dict(
    line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
)
print(json.dumps({
    "rss_kb": int(status["VmRSS"].split()[0]),
    "peak_kb": int(status["VmHWM"].split()[0]),
    "modules": loaded,
}))
"""


def median_call_us(call: Callable[[str], object], queries: Sequence[str]) -> float:
    """Median over ``queries`` of the time of one ``call(query)``, in µs."""
    clock = time.perf_counter_ns
    times = []
    for query in queries:
        start = clock()
        for _ in repeat(None, REPEATS):
            call(query)
        times.append((clock() - start) / REPEATS / 1000)
    return statistics.median(times)


def substrings_of(words: Sequence[str]) -> Iterator[str]:
    for word in words:
        for i in range(len(word)):
            for j in range(i + 1, len(word) + 1):
                yield word[i:j]


def query_sets(words: Sequence[str], lexicon: Lexicon, count: int) -> dict[str, list[str]]:
    """Realistic queries: words and pieces of words, and the same with one letter changed."""
    rng = random.Random(20)

    def piece() -> str:
        word = rng.choice(words)
        start = rng.randrange(len(word))
        return word[start : rng.randint(start + 1, min(len(word), start + 15))]

    def changed(s: str) -> str:
        i = rng.randrange(len(s))
        return s[:i] + rng.choice(LETTERS.replace(s[i], "")) + s[i + 1 :]

    def misses(make: Callable[[], str], wanted: Callable[[str], bool]) -> list[str]:
        found: list[str] = []
        while len(found) < count:
            s = changed(make())
            if not wanted(s):
                found.append(s)
        return found

    return {
        "word hit": [rng.choice(words) for _ in range(count)],
        "word miss": misses(lambda: rng.choice(words), lexicon.is_word),
        "partial hit": [piece() for _ in range(count)],
        "partial miss": misses(piece, lexicon.is_substring),
    }


def verdict(value: float, target: float) -> str:
    return "PASS" if value <= target else "FAIL"


def run(quick: bool) -> list[dict[str, Any]]:
    cache_dir = default_cache_dir()
    load_lexicon(None, cache_dir)  # builds the cache once if it is missing
    count = 300 if quick else 3000
    samples: dict[str, list[float]] = {}
    for _ in range(3):
        started = time.perf_counter()
        lexicon = load_lexicon(None, cache_dir)
        samples.setdefault("load from cache (load_lexicon)", []).append(
            (time.perf_counter() - started) * 1000
        )
        queries = query_sets(list(lexicon.words()), lexicon, count)
        for kind in ("hit", "miss"):
            samples.setdefault(f"median is_word {kind}", []).append(
                median_call_us(lexicon.is_word, queries[f"word {kind}"])
            )
            samples.setdefault(f"median is_substring {kind}", []).append(
                median_call_us(lexicon.is_substring, queries[f"partial {kind}"])
            )
    # The bytes read are counted: the index answers from them.
    tracemalloc.start()
    data = cache_path(cache_dir, read_word_list(None)[1]).read_bytes()
    index = Lexicon.from_bytes(data)
    index_mb = tracemalloc.get_traced_memory()[0] / 1e6
    tracemalloc.stop()
    del index, data
    rss = []
    for _ in range(3):
        probe = subprocess.run(
            [sys.executable, "-c", RSS_PROBE, "-", str(cache_dir)],
            capture_output=True,
            text=True,
            check=True,
        )
        rss.append(json.loads(probe.stdout)["rss_kb"] / 1024)

    def fig(name: str, unit: str, target: float, values: list[float]) -> dict[str, Any]:
        return {
            "figure": name,
            "unit": unit,
            "target": target,
            "better": "lower",
            "samples": values,
        }

    figures = [
        fig(
            name,
            "ms" if name.startswith("load") else "µs",
            LOAD_TARGET_MS if name.startswith("load") else QUERY_TARGET_US,
            values,
        )
        for name, values in samples.items()
    ]
    figures.append(fig("index memory (tracemalloc)", "MB", INDEX_TARGET_MB, [index_mb]))
    figures.append(fig("process RSS, lexicon + games", "MB", PROCESS_TARGET_MB, rss))
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", type=Path, help="a word list (default: the shipped ENABLE)")
    parser.add_argument("--cache-dir", type=Path, default=default_cache_dir())
    parser.add_argument("--queries", type=int, default=3000, help="queries of each kind")
    parser.add_argument("--no-baseline", action="store_true", help="skip the 90 MB baseline")
    args = parser.parse_args(argv)

    raw, checksum = read_word_list(args.list)
    file = cache_path(args.cache_dir, checksum)
    fresh = not file.exists()
    started = time.perf_counter()
    lexicon = load_lexicon(args.list, args.cache_dir)
    if fresh:
        print(f"built and cached the index in {time.perf_counter() - started:.1f} s: {file}")

    # Load from the cache: the whole call (list checksum included), and from_bytes alone.
    started = time.perf_counter()
    load_lexicon(args.list, args.cache_dir)
    load_ms = (time.perf_counter() - started) * 1000
    tracemalloc.start()
    data = file.read_bytes()  # counted: the index answers from these bytes
    started = time.perf_counter()
    lexicon = Lexicon.from_bytes(data)
    from_bytes_ms = (time.perf_counter() - started) * 1000
    index_mb, load_peak_mb = (b / 1e6 for b in tracemalloc.get_traced_memory())
    tracemalloc.stop()
    del data

    words = list(lexicon.words())
    queries = query_sets(words, lexicon, args.queries)
    times = {
        "is_word " + kind: median_call_us(lexicon.is_word, queries[f"word {kind}"])
        for kind in ("hit", "miss")
    } | {
        "is_substring " + kind: median_call_us(lexicon.is_substring, queries[f"partial {kind}"])
        for kind in ("hit", "miss")
    }
    times["is_prefix hit"] = median_call_us(lexicon.is_prefix, [w[:3] for w in queries["word hit"]])
    times["is_suffix hit"] = median_call_us(
        lexicon.is_suffix, [w[-3:] for w in queries["word hit"]]
    )

    probe = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, str(args.list or "-"), str(args.cache_dir)],
        capture_output=True,
        text=True,
        check=True,
    )
    process = json.loads(probe.stdout)
    rss_mb = process["rss_kb"] / 1024

    print(f"\nlexicon: {len(lexicon)} words, checksum {lexicon.checksum}, {len(raw)} bytes of list")
    print(f"{'figure':<34}{'lexicon':>12}{'baseline set':>14}{'target':>10}  result")
    baseline_queries: dict[str, float] = {}
    baseline_mb = float("nan")
    if not args.no_baseline:
        tracemalloc.start()
        every = set(substrings_of(words))
        baseline_mb = tracemalloc.get_traced_memory()[0] / 1e6
        tracemalloc.stop()
        contains = every.__contains__
        for name in times:
            if name.startswith("is_substring"):
                kind = name.split()[1]
                baseline_queries[name] = median_call_us(contains, queries[f"partial {kind}"])
        del every

    for name, value in times.items():
        base = baseline_queries.get(name)
        shown = f"{base:>12.2f} µs" if base is not None else f"{'':>15}"
        print(
            f"{'median ' + name:<34}{value:>9.2f} µs{shown}{QUERY_TARGET_US:>7.1f} µs  "
            f"{verdict(value, QUERY_TARGET_US)}"
        )
    print(
        f"{'load from cache (load_lexicon)':<34}{load_ms:>9.1f} ms{'':>15}"
        f"{LOAD_TARGET_MS:>7.0f} ms  {verdict(load_ms, LOAD_TARGET_MS)}"
    )
    print(
        f"{'load from cache (from_bytes)':<34}{from_bytes_ms:>9.1f} ms{'':>15}"
        f"{LOAD_TARGET_MS:>7.0f} ms  {verdict(from_bytes_ms, LOAD_TARGET_MS)}"
    )
    shown = f"{'':>15}" if math.isnan(baseline_mb) else f"{baseline_mb:>12.1f} MB"
    print(
        f"{'index memory (tracemalloc)':<34}{index_mb:>9.1f} MB{shown}"
        f"{INDEX_TARGET_MB:>7.0f} MB  {verdict(index_mb, INDEX_TARGET_MB)}"
    )
    print(f"{'  peak while loading':<34}{load_peak_mb:>9.1f} MB")
    print(
        f"{'process RSS, lexicon + games':<34}{rss_mb:>9.1f} MB{'':>15}"
        f"{PROCESS_TARGET_MB:>7.0f} MB  {verdict(rss_mb, PROCESS_TARGET_MB)}"
    )
    print(f"{'  its peak (VmHWM)':<34}{process['peak_kb'] / 1024:>9.1f} MB")
    print(f"  modules loaded beside it: {', '.join(process['modules']) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
