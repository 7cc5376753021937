"""The radio's chosen parts and the datasheet figures the design uses, each with where
it comes from. Nothing here is tuned by hand: ``wiring.rf.design`` computes every
component value from these figures and the antenna geometry."""

from __future__ import annotations

from msgspec import Struct

F0 = 13.56e6
"""The carrier, Hz (ISO/IEC 15693-2: 13.56 MHz ± 7 kHz)."""

SUBCARRIER_HZ = F0 / 32
"""The tag's single subcarrier, 423.75 kHz (ISO/IEC 15693-2, fc/32)."""

H_MIN_A_PER_M = 0.15
"""The field at which an ISO/IEC 15693 tag must work: 0.15 A/m (ISO/IEC 15693-2,
operating field Hmin; Hmax 5 A/m)."""

H_MAX_A_PER_M = 5.0


class Figure(Struct, frozen=True):
    """One datasheet figure: its value (SI units) and where it is stated."""

    value: float
    source: str


class Reader(Struct, frozen=True):
    part: str
    protocol: str
    tx_power_half: Figure
    tx_power_full: Figure
    r_out_half: Figure
    load: Figure
    rx_max_vpp: Figure
    return_loss_db: Figure


READER = Reader(
    part="TI TRF7962A",
    protocol="ISO/IEC 15693 (high data rate, one subcarrier, 1 out of 4: 26.48 kbit/s)",
    tx_power_half=Figure(
        0.100,
        "TRF796xA datasheets, Chip Status Control register 0x00 bit 4 rf_pwr = 1: half "
        "output power, 100 mW (+20 dBm) at 5 V (TRF7964A SLOS787J Table 6-20; TRF7962A "
        "SLOS757G §6.14.1.1.1)",
    ),
    tx_power_full=Figure(
        0.200, "the same register, rf_pwr = 0: full output power, 200 mW (+23 dBm) at 5 V"
    ),
    r_out_half=Figure(
        8.0, "the same register: at half power TX_OUT has an 8 Ω output impedance (4 Ω full)"
    ),
    load=Figure(
        50.0,
        "TI SLOA135A (Antenna Matching for the TRF7960 RFID Reader): TX_OUT matched to 50 Ω",
    ),
    rx_max_vpp=Figure(
        3.5, "TRF796xA datasheets §5.4: maximum RF input voltage at RX_IN1 3.5 V (peak-to-peak)"
    ),
    return_loss_db=Figure(
        10.0, "TI SLOA135A: 10 dB return loss at the 50 Ω point over the antenna's bandwidth"
    ),
)


class PinDiode(Struct, frozen=True):
    part: str
    package: str
    r_on: Figure
    r_on_max: Figure
    c_off: Figure
    c_off_max: Figure
    series_l: Figure
    lifetime: Figure
    v_reverse_max: Figure


_BAR67 = "Infineon BAR67 datasheet (2011-06-14) p. 2"

PIN_DIODE = PinDiode(
    part="Infineon BAR67-02V",
    package="SC79",
    r_on=Figure(1.0, f"{_BAR67}: rf typ. 1 Ω at IF = 10 mA, f = 100 MHz"),
    r_on_max=Figure(1.8, f"{_BAR67}: rf max. 1.8 Ω at IF = 5 mA, f = 100 MHz"),
    c_off=Figure(0.35e-12, f"{_BAR67}: CT typ. 0.35 pF at VR = 5 V, f = 1 MHz"),
    c_off_max=Figure(0.55e-12, f"{_BAR67}: CT max. 0.55 pF at VR = 5 V, f = 1 MHz"),
    series_l=Figure(0.6e-9, "Infineon BAR67 datasheet p. 1: LS 0.6 nH (SC79)"),
    lifetime=Figure(700e-9, f"{_BAR67}: charge carrier life time typ. 700 ns"),
    v_reverse_max=Figure(150.0, "Infineon BAR67 datasheet p. 1: VR 150 V"),
)

BOOST_PART = "TI TPS61040"
BOOST_VREF = Figure(1.233, "TPS61040 datasheet SLVS413K §5.5: VFB 1.233 V typ.")
BOOST_VOUT_MAX = Figure(28.0, "TPS61040 datasheet SLVS413K §5.5: adjustable VOUT up to 28 V")

SELECT_DRIVER_PART = "TI TPIC6B595"
SELECT_DRIVER_VDS_MAX = Figure(
    50.0, "TPIC6B595 datasheet SLIS032D §1: 50 V open-drain DMOS outputs"
)

E24 = (
    1.0,
    1.1,
    1.2,
    1.3,
    1.5,
    1.6,
    1.8,
    2.0,
    2.2,
    2.4,
    2.7,
    3.0,
    3.3,
    3.6,
    3.9,
    4.3,
    4.7,
    5.1,
    5.6,
    6.2,
    6.8,
    7.5,
    8.2,
    9.1,
)
"""IEC 60063 E24 series (capacitors and 5 % resistors)."""

E12 = (1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2)
"""IEC 60063 E12 series (inductors)."""

E96 = tuple(round(10 ** (i / 96), 2) for i in range(96))
"""IEC 60063 E96 series (1 % resistors), from its defining rule 10^(i/96) to three
figures (the standard's table differs from the rule in a few entries by 0.01)."""


def nearest(value: float, series: tuple[float, ...]) -> float:
    """The value of ``series`` (any decade) nearest to ``value`` in ratio."""
    import math

    decade = 10 ** math.floor(math.log10(value))
    candidates = [m * decade * k for m in series for k in (0.1, 1, 10)]
    best = min(candidates, key=lambda c: abs(math.log(c / value)))
    return float(f"{best:.3g}")


def pair(value: float, series: tuple[float, ...] = E24) -> tuple[float, ...]:
    """One or two parallel capacitors of ``series`` whose sum is nearest ``value``:
    a C0G pair reaches within about 1 % where one E24 value is up to 5 % off."""
    one = nearest(value, series)
    best: tuple[float, ...] = (one,)
    err = abs(one - value)
    if err < 0.005 * value:
        return best
    import math

    decade = 10 ** math.floor(math.log10(value))
    options = sorted({float(f"{m * decade * k:.3g}") for m in series for k in (0.01, 0.1, 1)})
    for a in options:
        if a >= value:
            break
        b = nearest(value - a, series)
        if b <= a and b >= 1e-12 and abs(a + b - value) < err:
            best, err = (a, b), abs(a + b - value)
    return best
