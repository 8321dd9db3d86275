"""The pin map of the reference build: the one place that says which GPIO does what, which
key each switch of the keypad is, and which card slots are fitted.

docs/hardware.md shows the same table and the wiring diagrams (docs/wiring.svg, and the
drawings of docs/drawings/). GPIO numbers are the RP2040's (GPn on the Pico's silkscreen). All
26 user GPIOs of a Pico are in use with the power latch fitted; GP23-GP25 and GP29 are the
board's own (SMPS mode, VBUS sense, LED, VSYS/3).
"""

# The display: "ht1621" (reference, segment LCD) or "tm1637" (LED option).
DISPLAY = "ht1621"
HT1621_CS = 0
HT1621_WR = 1
HT1621_DATA = 2
TM1637_CLK = 1  # the LED option uses two of the same three pins
TM1637_DIO = 2

BEEPER = 3  # PWM slice 1, channel B
LED_RED = 4
LED_GREEN = 5

KEY_ROWS = (6, 7, 8, 9)  # open-drain outputs, driven low one at a time
KEY_COLS = (10, 11, 12, 13, 14)  # inputs with pull-ups

# Which key each switch is: KEYPAD[row][column], rows and columns as KEY_ROWS and KEY_COLS
# list them; None where no switch is. Three ready maps (docs/hardware.md, "Keypad"):
# 17 tactile switches laid out as the unit's keypad (the reference):
KEYPAD_SWITCHES = (
    ("7", "8", "9", "C", "DEAL"),
    ("4", "5", "6", "K", "-"),
    ("1", "2", "3", "M", "+"),
    ("0", ".", None, None, None),
)
# The common 4x4 membrane (1 2 3 A / 4 5 6 B / 7 8 9 C / * 0 # D): its rows on KEY_ROWS, its
# columns on the first four KEY_COLS; A is +, B is -, C is C, D is K, * is ., # is M; and one
# tactile switch, DEAL, from the first row to the fifth column.
KEYPAD_MEMBRANE_4X4 = (
    ("1", "2", "3", "+", "DEAL"),
    ("4", "5", "6", "-", None),
    ("7", "8", "9", "C", None),
    (".", "0", "M", "K", None),
)
# The common 20-key 4x5 membrane (F1 F2 # * / 1 2 3 up / 4 5 6 down / 7 8 9 Esc / left 0 right
# Ent): its four columns on KEY_ROWS, its five rows on KEY_COLS, so each line below is one of
# its columns read downwards. F1 is K, F2 is M, * is DEAL, up is +, down is -, Esc is C, left
# is .; #, right and Ent do nothing.
KEYPAD_MEMBRANE_4X5 = (
    ("K", "1", "4", "7", "."),
    ("M", "2", "5", "8", "0"),
    (None, "3", "6", "9", None),
    ("DEAL", "+", "-", "C", None),
)
KEYPAD = KEYPAD_SWITCHES

# The card slots: "contacts" (notched cards on switches, the reference) or "rfid" (an RC522
# module per slot, cards that are ISO 14443 A tags numbered in maintenance).
SLOTS = "contacts"

# Contacts: four code contacts (left to right) and the seated contact; inputs with pull-ups.
SLOT_L = (15, 16, 17, 18)
SLOT_L_SEATED = 19
SLOT_R = (20, 21, 22, 26)
SLOT_R_SEATED = 27

# RFID: both MFRC522s on SPI0 (SCK, MOSI and MISO shared), a chip select each and one reset
# line for both, on pins of the contacts, which an RFID build does not fit.
RFID_SPI = 0
RFID_SCK = 18
RFID_MOSI = 19
RFID_MISO = 16
RFID_CS_L = 17
RFID_CS_R = 20
RFID_RST = 15

# The optional power latch (board/drivers/latch.py): None when not fitted, else 28.
LATCH = None

# VBUS present (USB power): the Pico's GP24. On a Pico W, VBUS is on the wireless chip
# (WL_GPIO2): set None there, and the unit assumes USB is present (never lightsleeps).
VBUS_SENSE = 24

# Where the ledger lives on the Pico's LittleFS.
STATE_DIR = "/bank"
