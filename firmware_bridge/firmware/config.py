# The board this Pico scans. Edit to match your wiring, then copy to the Pico
# (see docs/firmware.md). Pin numbers are the Pico's GPIO numbers.

ROWS = 15
COLUMNS = 15
# "occupancy": switches only; "rfid": the reader swept over every square;
# "occupancy+rfid": both, a tag is read only where a switch changed, plus a slow
# background sweep (the RFID boards as docs/hardware.md builds them).
SENSOR = "occupancy"

# The link to the Pi: "usb" (the Pico's USB port) or "uart".
LINK = "usb"
UART_ID = 0
UART_TX = 0
UART_RX = 1
UART_BAUD = 115200

# The matrix: rows through 74HC595s, columns through 74HC165s, on one SPI bus.
MATRIX_SPI = 0
MATRIX_SCK = 18
MATRIX_MOSI = 19  # to the first 595's SER
MATRIX_MISO = 16  # from the first 165's QH
ROW_LATCH = 17  # the 595s' RCLK
COLUMN_LOAD = 20  # the 165s' SH/LD
ACTIVE_LOW = True  # driven row pulled low, columns pulled up
DEBOUNCE_MS = 30
ROW_SETTLE_US = 5  # wait after latching a row before the 165s load the columns

# The RFID reader: one MFRC522 on its own SPI bus, its antenna output switched to
# one square's coil at a time by analog multiplexers whose address lines carry
# the square's index (least significant first).
RFID_SPI = 1
RFID_SCK = 10
RFID_MOSI = 11
RFID_MISO = 12
RFID_CS = 13
RFID_RST = 26  # to the reader's NRSTPD: pulsed low to reset a reader that stopped answering
RFID_SELECT = (2, 3, 4, 5, 6, 7, 8, 9)
RFID_DEBOUNCE_MS = 120
READERS_PER_STEP = 16  # squares read per loop pass on an "rfid" board
TAG_RETRY_MS = 250  # how often an unreadable tag is tried again
# Unreadable tags tried again in one pass at most: a miss costs 4.5 ms
# (docs/timing.md), so 4 add at most 18 ms to a pass however many pieces lack a tag.
TAG_RETRIES_PER_PASS = 4
TAG_POWER_US = 3000  # field on this long before a tag is spoken to (it powers up)
SWEEP_MS = 100  # "occupancy+rfid": one occupied square re-read this often

# Recovery: hold this pin to GND at power-on (or let mpremote send Ctrl-C within
# RECOVERY_WINDOW_MS of boot) and the main loop is not started. None: no strap.
RECOVERY_PIN = 22
RECOVERY_WINDOW_MS = 2000

SNAPSHOT_MS = 2000  # a full snapshot this often, besides on request
WATCHDOG_MS = 4000  # the Pico resets if the loop stalls this long (max 8388)
