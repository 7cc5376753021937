"""The OLED: a luma.oled display (or luma's dummy) behind one small class.

Application code only draws 1-bit images and hands them to :meth:`Oled.show`.
OS errors from the I2C bus are translated here into :class:`OledError`
subclasses whose messages say what to check.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardware.errors import I2CNotEnabled, I2CPermissionDenied, OledError, OledNotFound
from wiring.profile import OledWiring

if TYPE_CHECKING:
    from PIL import Image

# luma and Pillow are imported where a device is built or a frame shown, so that
# commands which never light the OLED do not pay for loading them.

# errnos an I2C write gives when no device acknowledges its address.
_NO_ANSWER = {errno.EREMOTEIO, errno.EIO, errno.ENXIO}


def _check_rotate(wiring: OledWiring) -> None:
    if wiring.rotate not in (0, 1, 2, 3):
        raise ValueError(
            f"oled rotate must be 0, 1, 2 or 3 (quarter turns clockwise), not {wiring.rotate}"
        )


def translate_oled_error(exc: BaseException, wiring: OledWiring) -> OledError:
    """The :class:`OledError` that explains ``exc``, raised opening or writing the OLED.

    ``exc`` is an ``OSError`` from the bus, or a luma error raised while
    handling one (whose errno is then read from the ``OSError`` it replaced).
    """
    import luma.core.error

    bus = f"/dev/i2c-{wiring.i2c_port}"
    where = f"I2C bus {wiring.i2c_port} at address 0x{wiring.i2c_address:02X}"
    cause: BaseException | None = exc
    while cause is not None and not isinstance(cause, OSError):
        cause = cause.__cause__ or cause.__context__
    code = cause.errno if isinstance(cause, OSError) else None

    if code in (errno.EACCES, errno.EPERM) or isinstance(
        exc, luma.core.error.DevicePermissionError
    ):
        return I2CPermissionDenied(
            f"no permission to open {bus} for the OLED: add this user to the i2c group "
            "(sudo usermod -aG i2c $USER), then log out and in again"
        )
    if code == errno.ENOENT:
        return I2CNotEnabled(
            f"{bus} does not exist, so the OLED cannot be reached: enable I2C with "
            "sudo raspi-config → Interface Options → I2C and reboot, or set oled.i2c_port "
            "in the profile to the bus the display is wired to"
        )
    if code in _NO_ANSWER or isinstance(exc, luma.core.error.DeviceNotFoundError):
        pins = " (SDA to GPIO2, SCL to GPIO3, VCC to 3.3 V, GND)" if wiring.i2c_port == 1 else ""
        return OledNotFound(
            f"no OLED answered on {where}: run `i2cdetect -y {wiring.i2c_port}` to see which "
            f"addresses answer, check the wiring{pins} and oled.i2c_address in the profile "
            "(usually 0x3C or 0x3D)"
        )
    return OledError(f"the OLED on {where} failed: {exc}")


def open_oled(wiring: OledWiring) -> Any:
    """Open the real display described by ``wiring``.

    The device is a luma.oled driver that sends only the pages that changed
    since the last frame (see :mod:`hardware.oled_pages`).
    """
    _check_rotate(wiring)
    # Imported here: the drivers are only needed on the Pi.
    import luma.core.error
    from luma.core.interface.serial import i2c

    from hardware.oled_pages import ChangedPagesSH1106, ChangedPagesSSD1306

    drivers = {"ssd1306": ChangedPagesSSD1306, "sh1106": ChangedPagesSH1106}
    if wiring.driver not in drivers:
        raise ValueError(
            f"unknown OLED driver {wiring.driver!r}: use one of {', '.join(sorted(drivers))}"
        )
    try:
        serial = i2c(port=wiring.i2c_port, address=wiring.i2c_address)
        return drivers[wiring.driver](
            serial, width=wiring.width, height=wiring.height, rotate=wiring.rotate
        )
    except (OSError, luma.core.error.Error) as exc:
        raise translate_oled_error(exc, wiring) from exc


def dummy_oled(wiring: OledWiring) -> Any:
    """A luma ``dummy`` device of the same size: it keeps the last frame as an image."""
    _check_rotate(wiring)
    from luma.core.device import dummy

    return dummy(width=wiring.width, height=wiring.height, rotate=wiring.rotate, mode="1")


def _luma_error() -> type[Exception]:
    import luma.core.error

    error: type[Exception] = luma.core.error.Error
    return error


class Oled:
    """Shows 1-bit frames on a luma device, skipping frames identical to the last.

    With ``frames_dir`` every new distinct frame is also written there as
    ``frame-00001.png``, ``frame-00002.png``, … (numbering starts at 1 for each
    ``Oled``; files from an earlier run are overwritten).
    """

    def __init__(
        self, device: Any, *, wiring: OledWiring | None = None, frames_dir: Path | None = None
    ) -> None:
        self._device = device
        self._wiring = wiring or OledWiring()
        width, height = device.size
        self.size: tuple[int, int] = (int(width), int(height))
        self.frames_dir = frames_dir
        self.frames_shown = 0
        self._last: Image.Image | None = None
        self._closed = False
        if frames_dir is not None:
            frames_dir.mkdir(parents=True, exist_ok=True)

    @property
    def last_frame(self) -> Image.Image | None:
        """A copy of the last frame shown, or None before the first."""
        return None if self._last is None else self._last.copy()

    def show(self, image: Image.Image) -> None:
        """Display ``image`` unless it is the frame already shown (see ``frames_shown``)."""
        if image.size != self.size:
            width, height = self.size
            raise ValueError(
                f"the OLED shows {width}×{height} images; this one is "
                f"{image.size[0]}×{image.size[1]}"
            )
        frame = image if image.mode == "1" else image.convert("1")
        if self._last is not None and frame.tobytes() == self._last.tobytes():
            return
        # Keep our own copy: the caller may draw on the image again.
        frame = frame.copy()
        try:
            self._device.display(frame)
        except (OSError, _luma_error()) as exc:
            # The display may show part of this frame: the next one is never skipped.
            self._last = None
            raise translate_oled_error(exc, self._wiring) from exc
        self._last = frame
        self.frames_shown += 1
        if self.frames_dir is not None:
            frame.save(self.frames_dir / f"frame-{self.frames_shown:05d}.png")

    def close(self) -> None:
        """Blank the display and release the bus; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        try:
            self._device.cleanup()
        except (OSError, _luma_error()) as exc:
            raise translate_oled_error(exc, self._wiring) from exc
