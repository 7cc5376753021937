"""An ngspice netlist of one antenna path and a runner for Debian's ngspice.

``netlist()`` writes the whole radio with one antenna selected: the reader as its
half-power output (100 mW into 50 Ω from 8 Ω), the EMC filter, the attenuator, the
receive tap (RX_IN1's 10 kΩ), the matching, the bias feed, every antenna branch (the
selected one through its diode's on-resistance, each other through its diode's
off-capacitance), every loop's inductance and resistance with the mutual inductance of
every pair of loops (K elements), and open-circuit pick-up coils where tags lie.
``run()`` runs ``ngspice -b`` on it and returns the complex node voltages and branch
currents of an AC sweep.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from msgspec import Struct

from . import bus as rfbus
from . import geometry as g
from .design import FEED_R, FEED_TAP_C, PULLUP_R, Antenna, RadioDesign
from .parts import F0, PIN_DIODE, READER

RX_INPUT_R = 10e3
"""RX_IN1's input resistance, 10 kΩ (TRF796xA datasheets §5.4, as TI E2E thread 576234
quotes it)."""

SWEEP = (11.0e6, 16.5e6, 5e3)
"""The AC sweep: 11–16.5 MHz in 5 kHz steps (13.56 MHz is one of its points)."""


class SpiceError(RuntimeError):
    """ngspice is missing or failed."""


def ngspice_path() -> str | None:
    return shutil.which("ngspice")


@lru_cache(maxsize=1)
def ngspice_version() -> str:
    """The version line ngspice prints, e.g. ``ngspice-46``."""
    exe = ngspice_path()
    if exe is None:
        raise SpiceError(
            "ngspice is not installed: install it (Debian: sudo apt install ngspice) and retry"
        )
    out = subprocess.run([exe, "-v"], capture_output=True, text=True, timeout=30, check=False)
    found = re.search(r"ngspice-\S+", out.stdout + out.stderr)
    return found.group(0) if found else (out.stdout.strip().splitlines() or ["ngspice"])[0]


class Probe(Struct, frozen=True):
    """An open-circuit pick-up coil (a tag's coil) at ``segments``."""

    name: str
    segments: tuple[g.Segment, ...]


def _num(x: float) -> str:
    return f"{x:.6g}"


def source_amplitude(power: float, r_out: float, r_load: float) -> float:
    """Peak open-circuit voltage of a source of resistance ``r_out`` that delivers
    ``power`` into ``r_load``: V_load = √(2·P·R_load), V = V_load·(R_out + R_load)/R_load."""
    return math.sqrt(2 * power * r_load) * (r_out + r_load) / r_load


def netlist(
    radio: RadioDesign,
    selected: Antenna,
    probes: Sequence[Probe] = (),
    *,
    r_on: float | None = None,
    c_off: float | None = None,
    mutuals: dict[tuple[str, str], float] | None = None,
    c_close: float | None = None,
) -> str:
    """The ngspice netlist of ``radio`` with ``selected`` switched on. ``c_close`` closes
    every unselected loop with a capacitor of its own to ground (the arrangement of
    per-coil tuning, for comparison): such a loop stays resonant and relays the field."""
    d = PIN_DIODE
    r_on = d.r_on.value if r_on is None else r_on
    c_off = d.c_off.value if c_off is None else c_off
    r0, r_out = READER.load.value, READER.r_out_half.value
    lines = [
        f"* {radio.profile}: antenna {selected.name} selected",
        f"VSRC tx 0 DC 0 AC {_num(source_amplitude(radio.tx_power, r_out, r0))}",
        f"RSRC tx txo {_num(r_out)}",
        f"CEMC1 txo 0 {_num(radio.emc[0])}",
        f"LEMC1 txo emcm {_num(radio.emc[1])}",
        f"CEMC2 emcm 0 {_num(radio.emc[2])}",
        f"LEMC2 emcm emc {_num(radio.emc[3])}",
        f"CEMC3 emc 0 {_num(radio.emc[4])}",
        f"RPAD1 emc 0 {_num(radio.pad[0])}",
        f"RPAD2 emc rf50 {_num(radio.pad[1])}",
        f"RPAD3 rf50 0 {_num(radio.pad[2])}",
        f"CRX rf50 rx {_num(FEED_TAP_C)}",
        f"RRX rx 0 {_num(RX_INPUT_R)}",
        "VCS rf50 rf50x DC 0",
    ]
    lines += [f"CS{i} rf50x bus {_num(c)}" for i, c in enumerate(radio.cs)]
    lines += [f"CP{i} bus 0 {_num(c)}" for i, c in enumerate(radio.cp)]
    lines.append(f"RFEED bus 0 {_num(FEED_R)}")
    lines += bus_ladder(radio.antennas)
    line = rfbus.line(F0)
    for a in radio.antennas:
        n = a.name
        lines.append(f"RT_{n} t_{n} tm_{n} {_num(line.r_per_m * rfbus.OFFSET_M)}")
        lines.append(f"LT_{n} tm_{n} tap_{n} {_num(line.l_per_m * rfbus.OFFSET_M)}")
        if a is selected or a.name == selected.name:
            lines.append(f"RD_{n} tap_{n} d_{n} {_num(r_on)}")
            lines.append(f"LD_{n} d_{n} s_{n} {_num(d.series_l.value)}")
        else:
            lines.append(f"CD_{n} tap_{n} s_{n} {_num(c_off)}")
            if c_close is not None:
                lines.append(f"CC_{n} s_{n} 0 {_num(c_close)}")
        lines.append(f"L_{n} s_{n} m_{n} {_num(a.inductance)}")
        lines.append(f"R_{n} m_{n} e_{n} {_num(a.resistance)}")
        lines.append(f"VM_{n} e_{n} f_{n} DC 0")
        lines += [f"CE{i}_{n} f_{n} 0 {_num(c)}" for i, c in enumerate(a.c_end)]
        lines.append(f"RPU_{n} f_{n} 0 {_num(PULLUP_R)}")
    coils: dict[str, tuple[g.Segment, ...]] = {f"L_{a.name}": a.segments for a in radio.antennas}
    self_l = {f"L_{a.name}": a.inductance for a in radio.antennas}
    for p in probes:
        lp = g.inductance(p.segments)
        lines.append(f"L_{p.name} p_{p.name} 0 {_num(lp)}")
        coils[f"L_{p.name}"] = p.segments
        self_l[f"L_{p.name}"] = lp
    names = list(coils)
    for i, a_name in enumerate(names):
        for b_name in names[i + 1 :]:
            key = (a_name, b_name)
            m = None if mutuals is None else mutuals.get(key)
            if m is None:
                m = g.mutual(coils[a_name], coils[b_name])
            k = m / math.sqrt(self_l[a_name] * self_l[b_name])
            if abs(k) > 1e-7:
                lines.append(f"K_{i}_{names.index(b_name)} {a_name} {b_name} {k:.9f}")
    return "\n".join(lines) + "\n"


def bus_ladder(antennas: Sequence[Antenna]) -> list[str]:
    """The RF bus (``wiring.rf.bus``) as lumped sections from the matching's node
    ``bus`` to each antenna's tap node ``t_<name>``: down the left edge past the rows,
    along the top edge past the columns. Each section is its series resistance and
    inductance with half its capacitance to ground at either end."""
    line = rfbus.line(F0)
    out: list[str] = []
    shunt: dict[str, float] = {}
    k = 0
    for axis in ("row", "column"):
        node, at = "bus", 0.0
        for a in sorted((a for a in antennas if a.axis == axis), key=lambda a: a.feed):
            for length in rfbus.sections(a.feed - at):
                k += 1
                nxt = f"bx{k}"
                out.append(f"RB{k} {node} bm{k} {_num(line.r_per_m * length)}")
                out.append(f"LB{k} bm{k} {nxt} {_num(line.l_per_m * length)}")
                for end in (node, nxt):
                    shunt[end] = shunt.get(end, 0.0) + line.c_per_m * length / 2
                node = nxt
            at = a.feed
            out.append(f"VT_{a.name} {node} t_{a.name} DC 0")
    out += [f"CB_{end} {end} 0 {_num(c)}" for end, c in shunt.items()]
    return out


class Sweep(Struct, frozen=True):
    """An AC sweep's complex results: ``freq`` and one list per saved vector."""

    freq: list[float]
    vectors: dict[str, list[complex]]

    def at(self, name: str, f: float) -> complex:
        i = min(range(len(self.freq)), key=lambda j: abs(self.freq[j] - f))
        return self.vectors[name][i]


def run(circuit: str, vectors: Sequence[str], sweep: tuple[float, float, float] = SWEEP) -> Sweep:
    """Run an AC sweep of ``circuit`` in ngspice (batch mode) and read ``vectors``
    (ngspice expressions such as ``v(bus)`` or ``i(vcs)``)."""
    exe = ngspice_path()
    if exe is None:
        raise SpiceError(
            "ngspice is not installed: install it (Debian: sudo apt install ngspice) and retry"
        )
    start, stop, step = sweep
    points = round((stop - start) / step) + 1
    with tempfile.TemporaryDirectory(prefix="tabletop-rf-") as tmp:
        out = Path(tmp) / "out.txt"
        deck = Path(tmp) / "deck.cir"
        deck.write_text(
            circuit
            + ".control\nset filetype=ascii\nset wr_singlescale\n"
            + f"ac lin {points} {_num(start)} {_num(stop)}\n"
            + f"wrdata {out} {' '.join(vectors)}\n"
            + ".endc\n.end\n",
            encoding="utf-8",
        )
        env = {**os.environ, "SPICE_NO_DATASEG_CHECK": "1"}
        proc = subprocess.run(
            [exe, "-b", str(deck)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            env=env,
        )
        if proc.returncode != 0 or not out.exists():
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            raise SpiceError("ngspice failed: " + " | ".join(tail))
        rows = [line.split() for line in out.read_text().splitlines() if line.strip()]
    freq = [float(r[0]) for r in rows]
    vecs = {
        name: [complex(float(r[1 + 2 * i]), float(r[2 + 2 * i])) for r in rows]
        for i, name in enumerate(vectors)
    }
    return Sweep(freq, vecs)
