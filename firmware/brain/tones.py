"""The tones (B18): notes flat, Hz, ms, Hz, ms, ...; 0 Hz is a rest.

In a piezo's loud band (2-4 kHz), each told apart by pitch and rhythm, so a player hears what
happened without looking. A tuple per tone, not one per note: the heap.
"""

TONES = {
    "click": (3000, 15),
    "card": (2000, 60, 0, 30, 2600, 60),
    "money-in": (2200, 70, 2800, 70, 3400, 110),
    "money-out": (3400, 70, 2800, 70, 2200, 110),
    "error": (600, 250),
    "new-game": (2000, 120, 2500, 120, 3000, 120, 4000, 300),
    "deal-warning": (3600, 80, 0, 60, 3600, 80, 0, 60, 3600, 80),
    "deal-end": (2400, 600),
    # B19, B20: a fanfare for the winner, a double knock and a long alarm
    "winner": (2600, 100, 3300, 100, 3900, 100, 0, 60, 3900, 350),
    "clock-warning": (3300, 150, 0, 120, 3300, 150),
    "clock-end": (3900, 350, 2600, 350, 3900, 350, 2600, 600),
}
