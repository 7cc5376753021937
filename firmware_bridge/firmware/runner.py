"""Builds the firmware from config.py and runs it forever (main.py calls ``run``)."""

try:
    from . import app, leds, ports, scanners, ticks
except ImportError:
    import app
    import leds
    import ports
    import scanners
    import ticks


def build_scanner(machine, config):
    """The scanner ``config.SENSOR`` asks for, on the pins config.py names."""
    cells = config.ROWS * config.COLUMNS
    matrix = None
    readers = None
    if config.SENSOR in ("occupancy", "occupancy+rfid"):
        spi = machine.SPI(
            config.MATRIX_SPI,
            baudrate=1000000,
            polarity=0,
            phase=0,
            sck=machine.Pin(config.MATRIX_SCK),
            mosi=machine.Pin(config.MATRIX_MOSI),
            miso=machine.Pin(config.MATRIX_MISO),
        )
        latch = machine.Pin(config.ROW_LATCH, machine.Pin.OUT, value=1)
        load = machine.Pin(config.COLUMN_LOAD, machine.Pin.OUT, value=1)
        shift = scanners.ShiftRegisterMatrix(
            spi,
            latch,
            load,
            config.ROWS,
            config.COLUMNS,
            config.ACTIVE_LOW,
            getattr(config, "ROW_SETTLE_US", 5),
        )
        matrix = scanners.MatrixScanner(shift, config.DEBOUNCE_MS)
    if config.SENSOR in ("rfid", "occupancy+rfid"):
        try:
            from . import antennas, mfrc522
        except ImportError:
            import antennas
            import mfrc522
        spi = machine.SPI(
            config.RFID_SPI,
            baudrate=4000000,
            polarity=0,
            phase=0,
            sck=machine.Pin(config.RFID_SCK),
            mosi=machine.Pin(config.RFID_MOSI),
            miso=machine.Pin(config.RFID_MISO),
        )
        cs = machine.Pin(config.RFID_CS, machine.Pin.OUT, value=1)
        reset_pin = getattr(config, "RFID_RST", None)
        reset = None if reset_pin is None else machine.Pin(reset_pin, machine.Pin.OUT, value=1)
        select = [machine.Pin(p, machine.Pin.OUT, value=0) for p in config.RFID_SELECT]
        readers = antennas.AntennaMux(
            mfrc522.Mfrc522(spi, cs, reset), select, cells, getattr(config, "TAG_POWER_US", 3000)
        )
        # A reader that does not answer is reported (ERR_READER) and tried again
        # every second, reset through RFID_RST first; the switches go on being
        # scanned meanwhile.
        readers.start()
    if matrix is not None and readers is not None:
        return scanners.MatrixWithReaders(
            matrix,
            readers,
            config.TAG_RETRY_MS,
            getattr(config, "SWEEP_MS", 100),
            getattr(config, "TAG_RETRIES_PER_PASS", 4),
        )
    if matrix is not None:
        return matrix
    if readers is not None:
        return scanners.ReaderSweep(readers, cells, config.RFID_DEBOUNCE_MS, config.READERS_PER_STEP)
    raise ValueError("config: SENSOR must be 'occupancy', 'rfid' or 'occupancy+rfid'")


def build_port(machine, config):
    if config.LINK == "uart":
        uart = machine.UART(
            config.UART_ID,
            baudrate=config.UART_BAUD,
            tx=machine.Pin(config.UART_TX),
            rx=machine.Pin(config.UART_RX),
        )
        return ports.UartPort(uart)
    return ports.UsbPort()


def build(machine, config, port=None, watchdog=None):
    """The firmware for this board, ready to ``start``."""
    return app.Firmware(
        port if port is not None else build_port(machine, config),
        build_scanner(machine, config),
        config.ROWS,
        config.COLUMNS,
        config.SENSOR,
        config.SNAPSHOT_MS,
        watchdog,
        leds=leds.Chain(leds.neopixel_maker(machine)),
    )


def run(port=None, steps=-1, clock=None):
    """Boot and loop; ``steps`` >= 0 stops after that many passes (for tests);
    ``clock`` gives each pass its time in ms (default ``ticks.ticks_ms``)."""
    import machine
    import micropython

    import config

    # Frames are binary: a 0x03 byte must not raise KeyboardInterrupt.
    micropython.kbd_intr(-1)
    firmware = build(machine, config, port)
    firmware.watchdog = machine.WDT(timeout=config.WATCHDOG_MS)
    if clock is None:
        clock = ticks.ticks_ms
    firmware.start(clock())
    while steps != 0:
        firmware.step(clock())
        steps -= 1
    return firmware
