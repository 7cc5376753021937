"""A serial interface that counts what a luma device sends and emulates the controller's RAM.

The emulation follows the datasheets' addressing: the SSD1306 in horizontal
addressing mode (a column and page window, the pointer wrapping to the next
page), the SH1106 in page addressing mode (a page and a column, the column
counting up within the page).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

# Commands followed by one argument byte (set contrast, multiplex, offsets, timings).
_ONE_ARGUMENT = {0x81, 0x8D, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB}


class ControllerRam:
    """Counts command and data bytes, and keeps the RAM they would leave behind."""

    def __init__(self, chip: str, pages: int = 8, columns: int = 132) -> None:
        if chip not in ("ssd1306", "sh1106"):
            raise ValueError(chip)
        self.chip = chip
        self.ram = [bytearray(columns) for _ in range(pages)]
        self.command_bytes = 0
        self.data_bytes = 0
        self.writes = 0
        self.horizontal = False
        self.col_window = (0, 127)
        self.page_window = (0, pages - 1)
        self.page = 0
        self.column = 0

    @property
    def total(self) -> int:
        return self.command_bytes + self.data_bytes

    def command(self, *cmd: int) -> None:
        self.command_bytes += len(cmd)
        self.writes += 1
        i = 0
        while i < len(cmd):
            op = cmd[i]
            if self.chip == "ssd1306" and op == 0x20:
                self.horizontal = cmd[i + 1] == 0x00
                i += 2
            elif self.chip == "ssd1306" and op in (0x21, 0x22):
                window = (cmd[i + 1], cmd[i + 2])
                if op == 0x21:
                    self.col_window = window
                    self.column = window[0]
                else:
                    self.page_window = window
                    self.page = window[0]
                i += 3
            elif op in _ONE_ARGUMENT:
                i += 2
            else:
                if 0xB0 <= op <= 0xB7:
                    self.page = op & 0x07
                elif op <= 0x0F:
                    self.column = (self.column & 0xF0) | op
                elif 0x10 <= op <= 0x1F:
                    self.column = (self.column & 0x0F) | ((op & 0x0F) << 4)
                i += 1

    def data(self, data: Sequence[int]) -> None:
        self.data_bytes += len(data)
        self.writes += 1
        for byte in data:
            self.ram[self.page][self.column] = byte
            if self.chip == "ssd1306" and self.horizontal:
                if self.column == self.col_window[1]:
                    self.column = self.col_window[0]
                    self.page = (
                        self.page + 1 if self.page < self.page_window[1] else (self.page_window[0])
                    )
                else:
                    self.column += 1
            else:
                self.column = (self.column + 1) % len(self.ram[0])

    def image(self, width: int, height: int, offset: int = 0) -> Image.Image:
        """The picture the RAM shows, decoded pixel by pixel."""
        out = Image.new("1", (width, height))
        for y in range(height):
            for x in range(width):
                if self.ram[y // 8][x + offset] >> (y % 8) & 1:
                    out.putpixel((x, y), 1)
        return out

    def cleanup(self) -> None:
        pass
