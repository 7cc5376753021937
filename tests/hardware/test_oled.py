from __future__ import annotations

import errno
from pathlib import Path

import luma.core.error
import pytest
from PIL import Image, ImageDraw

from hardware.errors import (
    HardwareError,
    I2CNotEnabled,
    I2CPermissionDenied,
    OledError,
    OledNotFound,
)
from hardware.oled import Oled, dummy_oled, open_oled, translate_oled_error
from wiring.profile import OledWiring

WIRING = OledWiring()


def frame(text: str = "", size: tuple[int, int] = (128, 64)) -> Image.Image:
    image = Image.new("1", size)
    ImageDraw.Draw(image).text((2, 2), text, fill=1)
    return image


def test_dummy_matches_the_wiring_size_and_is_one_bit() -> None:
    device = dummy_oled(OledWiring(width=128, height=32))
    assert device.size == (128, 32)
    assert device.mode == "1"


def test_shown_frame_reaches_the_device_pixel_for_pixel() -> None:
    device = dummy_oled(WIRING)
    oled = Oled(device)
    image = frame("Turn: red")
    oled.show(image)
    assert oled.frames_shown == 1
    assert device.image.tobytes() == image.tobytes()
    assert oled.last_frame is not None
    assert oled.last_frame.tobytes() == image.tobytes()


def test_identical_frame_is_skipped() -> None:
    oled = Oled(dummy_oled(WIRING))
    oled.show(frame("a"))
    oled.show(frame("a"))
    assert oled.frames_shown == 1
    oled.show(frame("b"))
    assert oled.frames_shown == 2


def test_drawing_on_the_image_after_showing_does_not_change_last_frame() -> None:
    oled = Oled(dummy_oled(WIRING))
    image = frame("a")
    oled.show(image)
    ImageDraw.Draw(image).rectangle((0, 0, 127, 63), fill=1)
    assert oled.last_frame is not None
    assert oled.last_frame.tobytes() == frame("a").tobytes()
    oled.show(image)
    assert oled.frames_shown == 2


def test_greyscale_image_is_shown_as_one_bit() -> None:
    device = dummy_oled(WIRING)
    oled = Oled(device)
    oled.show(Image.new("L", (128, 64), 255))
    assert device.image.mode == "1"
    assert device.image.getpixel((5, 5)) == 255


def test_wrong_size_image_is_refused_with_both_sizes() -> None:
    oled = Oled(dummy_oled(WIRING))
    with pytest.raises(ValueError, match=r"128×64 .* 64×32"):
        oled.show(frame(size=(64, 32)))


def test_distinct_frames_are_written_numbered(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    oled = Oled(dummy_oled(WIRING), frames_dir=frames)
    for text in ("one", "one", "two", "one"):
        oled.show(frame(text))
    names = sorted(p.name for p in frames.iterdir())
    assert names == ["frame-00001.png", "frame-00002.png", "frame-00003.png"]
    with Image.open(frames / "frame-00002.png") as saved:
        assert saved.convert("1").tobytes() == frame("two").tobytes()


def test_a_frame_is_shown_again_after_the_bus_failed_mid_frame() -> None:
    device = dummy_oled(WIRING)
    oled = Oled(device)
    oled.show(frame("a"))
    show = device.display

    def fail(image: Image.Image) -> None:
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    device.display = fail
    with pytest.raises(OledNotFound):
        oled.show(frame("b"))
    device.display = show
    oled.show(frame("a"))
    assert oled.frames_shown == 2
    assert device.image.tobytes() == frame("a").tobytes()


def test_rotated_display_takes_portrait_frames() -> None:
    oled = Oled(dummy_oled(OledWiring(rotate=1)))
    assert oled.size == (64, 128)
    oled.show(frame("x", size=(64, 128)))
    assert oled.frames_shown == 1


def test_bad_rotation_is_refused() -> None:
    with pytest.raises(ValueError, match="0, 1, 2 or 3"):
        dummy_oled(OledWiring(rotate=90))


def test_close_twice_cleans_the_device_up_once() -> None:
    device = dummy_oled(WIRING)
    cleanups: list[str] = []
    device.cleanup = lambda: cleanups.append("cleanup")
    oled = Oled(device)
    oled.close()
    oled.close()
    assert cleanups == ["cleanup"]


def test_missing_bus_says_to_enable_i2c() -> None:
    error = translate_oled_error(
        FileNotFoundError(errno.ENOENT, "No such file or directory", "/dev/i2c-1"), WIRING
    )
    assert isinstance(error, I2CNotEnabled)
    assert "/dev/i2c-1" in str(error)
    assert "raspi-config" in str(error)
    assert "Interface Options" in str(error)


def test_opening_a_bus_that_does_not_exist_raises_i2c_not_enabled() -> None:
    with pytest.raises(I2CNotEnabled, match="/dev/i2c-97"):
        open_oled(OledWiring(i2c_port=97))


def test_permission_denied_says_to_join_the_i2c_group() -> None:
    error = translate_oled_error(PermissionError(errno.EACCES, "Permission denied"), WIRING)
    assert isinstance(error, I2CPermissionDenied)
    assert "i2c group" in str(error)


def test_no_answer_at_address_says_to_run_i2cdetect() -> None:
    error = translate_oled_error(OSError(errno.EREMOTEIO, "Remote I/O error"), WIRING)
    assert isinstance(error, OledNotFound)
    assert "i2cdetect -y 1" in str(error)
    assert "0x3C" in str(error)


def test_luma_error_is_translated_through_the_os_error_it_replaced() -> None:
    def luma_open() -> None:
        try:
            raise FileNotFoundError(errno.ENOENT, "No such file", "/dev/i2c-3")
        except OSError:
            raise luma.core.error.DeviceNotFoundError("I2C device not found") from None

    with pytest.raises(luma.core.error.DeviceNotFoundError) as caught:
        luma_open()
    error = translate_oled_error(caught.value, OledWiring(i2c_port=3))
    assert isinstance(error, I2CNotEnabled)
    assert "/dev/i2c-3" in str(error)


def test_luma_not_found_without_cause_points_at_the_address() -> None:
    error = translate_oled_error(
        luma.core.error.DeviceNotFoundError("I2C device not found on address: 0x3D"),
        OledWiring(i2c_address=0x3D),
    )
    assert isinstance(error, OledNotFound)
    assert "0x3D" in str(error)


def test_other_errors_stay_hardware_errors() -> None:
    error = translate_oled_error(OSError(errno.EBUSY, "Device busy"), WIRING)
    assert type(error) is OledError
    assert isinstance(error, HardwareError)
    assert isinstance(error, RuntimeError)


@pytest.mark.hardware
def test_real_oled_shows_a_frame() -> None:
    oled = Oled(open_oled(WIRING))
    oled.show(frame("tabletop"))
    assert oled.frames_shown == 1
    oled.close()
