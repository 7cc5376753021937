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
    board = getattr(config, "RFID_BOARD", "mux")
    if config.SENSOR == "occupancy+rfid" and board == "rowcol":
        if matrix is None:
            raise ValueError("config: SENSOR 'occupancy+rfid' needs the switch matrix")
        antennas = build_rowcol(machine, config)
        # A reader that does not answer is reported (ERR_READER) and tried again
        # every second, reset through its EN (RFID_RST) first; the switches go on
        # being scanned meanwhile.
        antennas.start()
        return scanners.MatrixWithRowColumnReader(
            matrix,
            antennas,
            config.TAG_RETRY_MS,
            getattr(config, "SWEEP_MS", 100),
            getattr(config, "TAG_RETRIES_PER_PASS", 4),
        )
    if config.SENSOR in ("rfid", "occupancy+rfid"):
        if board != "mux":
            raise ValueError(
                "config: RFID_BOARD must be 'rowcol' (with SENSOR 'occupancy+rfid') or 'mux'"
            )
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


def build_rowcol(machine, config):
    """The TRF7962A and the TPIC6B595 chain of the row and column antennas."""
    try:
        from . import rowcol, trf7962a
    except ImportError:
        import rowcol
        import trf7962a
    count = getattr(config, "ANTENNAS", config.ROWS + config.COLUMNS)
    if count < config.ROWS + config.COLUMNS:
        raise ValueError("config: ANTENNAS is fewer than ROWS + COLUMNS")
    # SPI mode 0: MOSI changes on SCLK's falling edge and the reader takes it on the
    # rising edge (TRF7960A datasheet SLOS732G, "Serial Interface Mode With Slave
    # Select", the family's SPI the TRF7962A shares).
    spi = machine.SPI(
        config.RFID_SPI,
        baudrate=getattr(config, "RFID_BAUD", 2000000),
        polarity=0,
        phase=0,
        sck=machine.Pin(config.RFID_SCK),
        mosi=machine.Pin(config.RFID_MOSI),
        miso=machine.Pin(config.RFID_MISO),
    )
    cs = machine.Pin(config.RFID_CS, machine.Pin.OUT, value=1)
    enable_pin = getattr(config, "RFID_RST", None)
    enable = None if enable_pin is None else machine.Pin(enable_pin, machine.Pin.OUT, value=1)
    irq_pin = getattr(config, "RFID_IRQ", None)
    irq = None if irq_pin is None else machine.Pin(irq_pin, machine.Pin.IN)
    reader = trf7962a.Trf7962a(spi, cs, enable, irq)

    def out(name, level):
        pin = getattr(config, name, None)
        return None if pin is None else machine.Pin(pin, machine.Pin.OUT, value=level)

    # G first, high: every output off while the chain is cleared.
    g = out("ANTENNA_G", 1)
    chain = rowcol.SelectChain(
        out("ANTENNA_SER", 0),
        out("ANTENNA_SRCK", 0),
        out("ANTENNA_RCK", 0),
        count,
        g=g,
        srclr=out("ANTENNA_SRCLR", 1),
    )
    return rowcol.RowColumnAntennas(
        reader,
        chain,
        config.ROWS,
        config.COLUMNS,
        getattr(config, "ANTENNA_SETTLE_US", 300),
        getattr(config, "TAG_POWER_US", 3000),
        trf7962a.ReaderError,
    )


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
