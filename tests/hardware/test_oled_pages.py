from __future__ import annotations

import errno
import random
from collections.abc import Sequence

import pytest
from PIL import Image, ImageDraw

from firmware_bridge.screen.layout import render
from firmware_bridge.screen.screens import BoardMap, Screen
from hardware.oled_pages import (
    ChangedPagesSH1106,
    ChangedPagesSSD1306,
    changed_columns,
    pack_pages,
)
from tests.hardware.oled_controller import ControllerRam

DRIVERS = {"ssd1306": (ChangedPagesSSD1306, 0), "sh1106": (ChangedPagesSH1106, 2)}


def packed_by_pixel(image: Image.Image) -> list[bytes]:
    """The controller bytes, the slow obvious way: bit ``y % 8`` of byte (y // 8, x)."""
    width, height = image.size
    pages = [bytearray(width) for _ in range(height // 8)]
    for y in range(height):
        for x in range(width):
            if image.getpixel((x, y)):
                pages[y // 8][x] |= 1 << (y % 8)
    return [bytes(p) for p in pages]


def noise(seed: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("1", size)
    image.putdata([rng.getrandbits(1) for _ in range(size[0] * size[1])])
    return image


def move_frames() -> list[Image.Image]:
    """A game's worth of screens: the score, the turn and the last move change."""
    grid = tuple(tuple(f"{c}{r}" for c in "abcdefgh") for r in range(8, 0, -1))
    marks: dict[str, str] = {}
    frames = []
    for n in range(12):
        marks[f"{'abcdefgh'[n % 8]}{n % 8 + 1}"] = "solid" if n % 2 else "hollow"
        screen = Screen(
            f"{'Red' if n % 2 else 'Blue'} to move",
            f"{n * 3}-{n * 2}",
            (f"Last: {'abcdefgh'[n % 8]}{n % 8 + 1}", f"Move {n + 1}"),
            board=BoardMap(grid, dict(marks)),
        )
        frames.append(render(screen))
    return frames


def menu_frames() -> list[Image.Image]:
    """A menu whose cursor walks down its options."""
    options = ["Double Take", "Dominoes", "Doubles Wild", "Crosslet"]
    return [
        render(
            Screen(
                "New game",
                "",
                tuple(("> " if i == at else "  ") + o for i, o in enumerate(options)),
            )
        )
        for at in range(len(options))
    ]


@pytest.mark.parametrize("size", [(128, 64), (128, 32), (64, 48), (8, 16)])
def test_packing_matches_the_controller_layout(size: tuple[int, int]) -> None:
    for seed in range(3):
        image = noise(seed, size)
        assert pack_pages(image) == packed_by_pixel(image)


def test_changed_columns_are_the_first_and_last_that_differ() -> None:
    old = bytes(128)
    assert changed_columns(old, old) is None
    new = bytearray(old)
    new[5] = 1
    new[77] = 0x80
    assert changed_columns(old, bytes(new)) == (5, 77)
    new = bytearray(old)
    new[0] = new[127] = 0xFF
    assert changed_columns(old, bytes(new)) == (0, 127)


@pytest.mark.parametrize("chip", sorted(DRIVERS))
def test_the_controller_ends_up_with_exactly_each_frame(chip: str) -> None:
    cls, offset = DRIVERS[chip]
    ram = ControllerRam(chip)
    device = cls(ram)
    frames = move_frames() + menu_frames() + [noise(1), noise(2), Image.new("1", (128, 64))]
    for frame in frames:
        device.display(frame)
        assert ram.image(128, 64, offset).tobytes() == frame.tobytes()


@pytest.mark.parametrize("chip", sorted(DRIVERS))
def test_only_changed_bytes_are_sent_and_an_unchanged_frame_sends_nothing(chip: str) -> None:
    cls, _ = DRIVERS[chip]
    ram = ControllerRam(chip)
    device = cls(ram)
    device.display(move_frames()[0])
    before = ram.total
    device.display(move_frames()[0])
    assert ram.total == before
    assert device.bytes_sent == ram.total - ram_init_commands(chip)

    # One pixel costs one window: its address and one byte.
    image = move_frames()[0]
    image.putpixel((100, 40), 0 if image.getpixel((100, 40)) else 1)
    before = ram.total
    device.display(image)
    assert ram.total - before == (6 + 1 if chip == "ssd1306" else 3 + 1)


def ram_init_commands(chip: str) -> int:
    """Command bytes luma's constructor sends before the first frame (not counted by the driver)."""
    cls, _ = DRIVERS[chip]
    probe = ControllerRam(chip)
    device = cls(probe)
    return probe.total - device.bytes_sent


@pytest.mark.parametrize("chip", sorted(DRIVERS))
def test_changed_pages_send_a_fraction_of_full_frames(chip: str) -> None:
    cls, _ = DRIVERS[chip]
    luma_cls = cls.__mro__[2]
    frames = move_frames()
    menus = menu_frames()

    ours, theirs = ControllerRam(chip), ControllerRam(chip)
    device, plain = cls(ours), luma_cls(theirs)
    device.display(frames[0])
    plain.display(frames[0])
    sent_ours: list[int] = []
    sent_theirs: list[int] = []
    for frame in frames[1:] + menus:
        a, b = ours.total, theirs.total
        device.display(frame)
        plain.display(frame)
        sent_ours.append(ours.total - a)
        sent_theirs.append(theirs.total - b)
    # luma sends the whole frame every time; the changed pages a small part of it.
    assert min(sent_theirs) >= 1024
    move_updates = sorted(sent_ours[: len(frames) - 1])
    assert move_updates[len(move_updates) // 2] <= 600
    menu_steps = sorted(sent_ours[len(frames) :])
    assert menu_steps[len(menu_steps) // 2] <= 150
    assert sum(sent_ours) * 3 < sum(sent_theirs)
    # Both controllers end up showing the same picture.
    offset = DRIVERS[chip][1]
    assert ours.image(128, 64, offset).tobytes() == theirs.image(128, 64, offset).tobytes()


def test_forget_resends_the_whole_frame() -> None:
    ram = ControllerRam("ssd1306")
    device = ChangedPagesSSD1306(ram)
    device.display(move_frames()[0])
    device.forget()
    before = ram.total
    device.display(move_frames()[0])
    assert ram.total - before == 6 + 1024


def test_rotated_device_takes_portrait_frames() -> None:
    ram = ControllerRam("ssd1306")
    device = ChangedPagesSSD1306(ram, rotate=1)
    assert device.size == (64, 128)
    image = Image.new("1", (64, 128))
    ImageDraw.Draw(image).text((2, 2), "R", fill=1)
    device.display(image)
    # A quarter turn clockwise, as luma turns it.
    assert ram.image(128, 64).tobytes() == image.rotate(-90, expand=True).tobytes()


class FailingBus(ControllerRam):
    """A controller whose bus fails once, at a chosen data write."""

    def __init__(self, chip: str) -> None:
        super().__init__(chip)
        self.fail_at: int | None = None

    def data(self, data: Sequence[int]) -> None:
        if self.fail_at is not None and self.writes >= self.fail_at:
            self.fail_at = None
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        super().data(data)


@pytest.mark.parametrize("chip", sorted(DRIVERS))
def test_after_a_failed_write_the_next_frame_is_sent_whole(chip: str) -> None:
    cls, offset = DRIVERS[chip]
    bus = FailingBus(chip)
    device = cls(bus)
    first, second = move_frames()[:2]
    device.display(first)
    bus.fail_at = bus.writes + 3
    with pytest.raises(OSError):
        device.display(second)
    # The controller holds part of the second frame; showing the first again must
    # not trust the RAM copy of it.
    device.display(first)
    assert bus.image(128, 64, offset).tobytes() == first.tobytes()
