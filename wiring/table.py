"""The pin table of a profile: every header pin it uses, in physical order."""

from __future__ import annotations

from msgspec import Struct

from wiring.header import I2C1_PINS, bus_role, physical_pin, pins_named
from wiring.pico import pico_pins
from wiring.profile import Profile


class PinRow(Struct, frozen=True, order=True):
    """One line of the table: a physical pin, its name on the header, and its use."""

    physical: int
    header_name: str
    use: str


def _span(cells: tuple[str, ...]) -> str:
    return f"{cells[0]}..{cells[-1]}" if len(cells) > 1 else cells[0]


def _gpio_row(bcm: int, use: str) -> PinRow:
    role = bus_role(bcm)
    name = f"GPIO{bcm}" + (f" ({role})" if role else "")
    return PinRow(physical_pin(bcm), name, use)


def pin_rows(profile: Profile) -> list[PinRow]:
    """Every header pin the profile uses, sorted by physical pin."""
    rows: list[PinRow] = []
    matrix = profile.matrix
    if matrix is not None:
        width = len(matrix.column_pins)
        height = len(matrix.row_pins)
        level = "low" if matrix.active_low else "high"
        for r, bcm in enumerate(matrix.row_pins):
            cells = profile.cells[r * width : (r + 1) * width]
            use = f"matrix row {r} (driven {level}): {_span(cells)}"
            rows.append(_gpio_row(bcm, use))
        for c, bcm in enumerate(matrix.column_pins):
            cells = profile.cells[c::width][:height]
            rows.append(_gpio_row(bcm, f"matrix column {c} (read): {_span(cells)}"))
    for button, bcm in profile.buttons.pins.items():
        rows.append(_gpio_row(bcm, f"button {button} (other leg to GND)"))
    if profile.buzzer_pin is not None:
        # An active buzzer sounds at its own pitch: the pin only switches its transistor.
        rows.append(_gpio_row(profile.buzzer_pin, "buzzer: NPN transistor base via 1 kΩ"))
    if profile.led_pin is not None:
        rows.append(_gpio_row(profile.led_pin, "status LED anode, through 330 Ω (cathode to GND)"))
    oled = profile.oled
    if oled.i2c_port == 1:
        sda, scl = I2C1_PINS
        rows.append(_gpio_row(sda, f"OLED SDA ({oled.driver} at 0x{oled.i2c_address:02X})"))
        rows.append(_gpio_row(scl, "OLED SCL"))
        rows.append(PinRow(pins_named("3V3")[0], "3V3", "OLED VCC"))
        rows.append(PinRow(pins_named("GND")[1], "GND", "OLED GND"))
    return sorted(rows)


def chain_lines(profile: Profile) -> list[str]:
    """What the profile says of the LED chain under the squares, or why it has none."""
    leds = profile.leds
    if leds is None and profile.serial is None:
        return [
            "LED chain: none. On a board wired to the Pi's GPIO the matrix, the station and "
            "the OLED take the Pi's pins, and a chain is driven by a Pico's; the lights are "
            "seen only in the state, the spectators' view and the pictures"
        ]
    if leds is None:
        return [
            "LED chain: none (no [leds] section); the lights are seen only in the state, "
            "the spectators' view and the pictures (docs/hardware.md builds a chain)"
        ]
    return [
        f"LED chain: {len(leds.chain)} WS2812B-mini, {leds.order} from {leds.chain[0]} to "
        f"{leds.chain[-1]}, brightness {leds.brightness:g}, at most {leds.budget_ma} mA",
        f"  data: GP{leds.pin} → 74AHCT125 (at 5 V) → 330 Ω → the first LED's DIN, "
        "each DOUT → the next DIN",
        "  power: its own 5 V supply into the first LED, 1000 µF there, its 0 V joined "
        "to the Pico's GND (`tabletop bom` sizes it)",
    ]


def pin_table(profile: Profile) -> str:
    """A plain-text table of every header pin the profile uses, by physical pin.

    This is what ``tabletop wiring PROFILE`` prints.
    """
    rows = pin_rows(profile)
    name_width = max([len("BCM / name"), *(len(r.header_name) for r in rows)])
    lines = [f"{profile.name}: {profile.description}".rstrip(": ")]
    lines.append(f"{'pin':>3}  {'BCM / name':<{name_width}}  use")
    lines.append(f"{'-' * 3}  {'-' * name_width}  {'-' * 3}")
    lines += [f"{r.physical:>3}  {r.header_name:<{name_width}}  {r.use}" for r in rows]
    if profile.oled.i2c_port != 1:
        lines.append(
            f"OLED on I2C bus {profile.oled.i2c_port}: its pins are set by the overlay "
            "that creates that bus"
        )
    if profile.serial is not None:
        s = profile.serial
        lines.append(
            f"sensors: {s.rows}×{s.columns} {s.sensor} board on {s.port} at {s.baudrate} baud "
            "(a Pico on a USB cable; its pins:)"
        )
        pins = pico_pins(profile)
        width = max(len(p.name) for p in pins)
        lines += [f"{p.physical:>3}  {p.name:<{width}}  {p.use} [{p.group}]" for p in pins]
    lines += chain_lines(profile)
    if profile.racks:
        racks = ", ".join(
            f"seat{seat + 1} {_span(cells)}" for seat, cells in sorted(profile.racks.items())
        )
        lines.append(f"rack cells: {racks}")
    if profile.simulated_only:
        lines.append("simulated only: a real daemon refuses this profile")
    return "\n".join(lines)
