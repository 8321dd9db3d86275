"""The pin map of the reference build: the one place that says which GPIO does what.

docs/hardware.md shows the same table and the wiring diagram (docs/wiring.svg). GPIO numbers
are the RP2040's (GPn on the Pico's silkscreen). All 26 user GPIOs of a Pico are in use with
the power latch fitted; GP23-GP25 and GP29 are the board's own (SMPS mode, VBUS sense, LED,
VSYS/3).
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

# Card slots: four code contacts (left to right) and the seated contact; inputs with pull-ups.
SLOT_L = (15, 16, 17, 18)
SLOT_L_SEATED = 19
SLOT_R = (20, 21, 22, 26)
SLOT_R_SEATED = 27

# The optional power latch (board/drivers/latch.py): None when not fitted, else 28.
LATCH = None

# VBUS present (USB power): the Pico's GP24. On a Pico W, VBUS is on the wireless chip
# (WL_GPIO2): set None there, and the unit assumes USB is present (never lightsleeps).
VBUS_SENSE = 24

# Where the ledger lives on the Pico's LittleFS.
STATE_DIR = "/bank"
