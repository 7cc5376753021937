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

# The RFID board. "rowcol" (the boards docs/rf.md designs): one TRF7962A ISO/IEC 15693
# reader on its own SPI bus, switched by PIN diodes onto one antenna per row and one
# per column, chosen by chained TPIC6B595 shift registers (docs/hardware.md). "mux"
# (the older board): one MFRC522 switched onto a coil under each square by analog
# multiplexers whose address lines (RFID_SELECT) carry the square's index.
RFID_BOARD = "rowcol"
RFID_SPI = 1
RFID_SCK = 10
RFID_MOSI = 11
RFID_MISO = 12
RFID_CS = 13
# The reader's reset: an MFRC522's NRSTPD, a TRF7962A's EN (low powers it down, high
# starts it again). Pulsed to reset a reader that stopped answering.
RFID_RST = 26
# "rowcol": the reader's SPI clock; to be checked against the TRF7962A's SCLK limit.
RFID_BAUD = 2000000
RFID_IRQ = None  # "rowcol": the TRF7962A's IRQ pin, or None to poll its IRQ Status
# "rowcol": the TPIC6B595 chain, through the 74AHCT125 buffer (5 V logic). Four pins
# config.py leaves free on every board: SER IN on GP27, SRCK on GP28, RCK on GP21 and
# G on GP14 (the board's 10 kohm pull-up holds G high, every antenna off, until the
# firmware has cleared the chain). SRCLR is tied high on the board (None here).
ANTENNA_SER = 27
ANTENNA_SRCK = 28
ANTENNA_RCK = 21
ANTENNA_G = 14
ANTENNA_SRCLR = None
# Antennas on the chain: ROWS + COLUMNS (30 on a 15 x 15 board, 32 with the racks'
# two rows, 18 on Doubles Wild's 9 x 9), rows first; four TPIC6B595s hold 32.
ANTENNAS = 30
# A released antenna's diode is 5 V reverse-biased 0.28 ms after its output lets go
# (docs/rf.md, "Switching time"): the field stays off this long after a switch.
ANTENNA_SETTLE_US = 300
# "mux": the multiplexers' address lines, least significant first.
RFID_SELECT = (2, 3, 4, 5, 6, 7, 8, 9)
RFID_DEBOUNCE_MS = 120
READERS_PER_STEP = 16  # squares read per loop pass on an "rfid" board
TAG_RETRY_MS = 250  # how often an unreadable tag is tried again
# Unreadable tags tried again in one pass at most, however many pieces lack a tag:
# on the "rowcol" board a try is an inventory of the square's row, 16-20 ms (and of
# its columns where several wait in one row); on the "mux" board a miss costs 4.5 ms
# (docs/timing.md).
TAG_RETRIES_PER_PASS = 4
TAG_POWER_US = 3000  # field on this long before a tag is spoken to (it powers up)
# "occupancy+rfid": the background sweep, one antenna over a tagged square
# inventoried ("rowcol"), or one occupied square re-read ("mux"), this often.
SWEEP_MS = 100

# Recovery: hold this pin to GND at power-on (or let mpremote send Ctrl-C within
# RECOVERY_WINDOW_MS of boot) and the main loop is not started. None: no strap.
RECOVERY_PIN = 22
RECOVERY_WINDOW_MS = 2000

SNAPSHOT_MS = 2000  # a full snapshot this often, besides on request
WATCHDOG_MS = 4000  # the Pico resets if the loop stalls this long (max 8388)
