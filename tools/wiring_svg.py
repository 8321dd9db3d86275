"""Draw docs/wiring.svg from firmware/pins.py, so the diagram and the pin map never disagree.

    python tools/wiring_svg.py [out.svg]

A plain SVG by hand: the Pico on the left with every GPIO the unit uses (GP number and the
Pico's physical pin), a wire to the part it drives on the right, and the power rails.
"""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "firmware"))

import pins  # noqa: E402

# Pico physical pin of each GPIO (Raspberry Pi Pico datasheet, "Pinout").
PHYSICAL = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}


def parts():
    """[(part title, colour, [(gpio, signal)], note)] in the order drawn."""
    keypad_rows = [(g, "row %d" % i) for i, g in enumerate(pins.KEY_ROWS)]
    keypad_cols = [(g, "col %d" % i) for i, g in enumerate(pins.KEY_COLS)]
    out = [
        ("HT1621 LCD module (or TM1637 on GP1/GP2)", "#2b6cb0",
         [(pins.HT1621_CS, "CS"), (pins.HT1621_WR, "WR  (TM1637 CLK)"),
          (pins.HT1621_DATA, "DATA (TM1637 DIO)")], "VCC 3V3, GND"),
        ("Piezo disc, 1 kohm in series", "#805ad5", [(pins.BEEPER, "PWM")], "other lead to GND"),
        ("LEDs, 150 ohm each", "#c53030",
         [(pins.LED_RED, "red LED anode"), (pins.LED_GREEN, "green LED anode")],
         "cathodes to GND"),
        ("Keypad 4 x 5 matrix (17 keys)", "#2f855a", keypad_rows + keypad_cols,
         "rows open-drain"),
        ("Card slot L (credit)", "#b7791f",
         [(g, "code %d" % i) for i, g in enumerate(pins.SLOT_L)]
         + [(pins.SLOT_L_SEATED, "seated")], "switch commons to GND"),
        ("Card slot R (debit)", "#975a16",
         [(g, "code %d" % i) for i, g in enumerate(pins.SLOT_R)]
         + [(pins.SLOT_R_SEATED, "seated")], "switch commons to GND"),
    ]
    if pins.LATCH is not None:
        out.append(("Power latch (optional)", "#4a5568", [(pins.LATCH, "HOLD")], "see text"))
    else:
        out.append(("Power latch (optional)", "#4a5568", [(28, "HOLD")], "if fitted: LATCH = 28"))
    return out


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw():
    row = 22
    top = 70
    pico_x, pico_w = 40, 170
    part_x, part_w = 470, 330
    items = []
    y = top
    for title, colour, sigs, note in parts():
        items.append((y, title, colour, sigs, note))
        y += row * (len(sigs) + 2)
    height = y + 70
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="860" height="%d" '
           'viewBox="0 0 860 %d" font-family="DejaVu Sans, Arial, sans-serif" '
           'font-size="13">' % (height, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="40" y="32" font-size="20" font-weight="bold">Bank unit wiring '
           '(reference build)</text>',
           '<text x="40" y="52" fill="#555">Generated from firmware/pins.py by '
           'tools/wiring_svg.py. GPn = RP2040 GPIO, (n) = Pico pin.</text>',
           '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#e6f4ea" '
           'stroke="#276749" stroke-width="2"/>' % (pico_x, top - 12, pico_w, y - top - 10),
           '<text x="%d" y="%d" font-weight="bold" fill="#276749">Raspberry Pi Pico</text>'
           % (pico_x + 10, top + 4)]
    for y0, title, colour, sigs, note in items:
        h = row * (len(sigs) + 1)
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#fafafa" '
                   'stroke="%s" stroke-width="2"/>' % (part_x, y0, part_w, h, colour))
        out.append('<text x="%d" y="%d" font-weight="bold" fill="%s">%s</text>'
                   % (part_x + 10, y0 + 16, colour, esc(title)))
        for i, (gpio, sig) in enumerate(sigs):
            yy = y0 + row * (i + 1) + 15
            out.append('<text x="%d" y="%d">GP%d (%d)</text>'
                       % (pico_x + 60, yy + 4, gpio, PHYSICAL[gpio]))
            dash = ' stroke-dasharray="6,4"' if title.startswith("Power latch") else ""
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                       % (pico_x + pico_w, yy, part_x, yy, colour, dash))
            out.append('<circle cx="%d" cy="%d" r="3" fill="%s"/>' % (pico_x + pico_w, yy, colour))
            out.append('<text x="%d" y="%d">%s</text>' % (part_x + 14, yy + 4, esc(sig)))
        out.append('<text x="%d" y="%d" fill="#555" font-style="italic">%s</text>'
                   % (part_x + 180, y0 + 16 + row, esc(note)))
    yb = y + 10
    out.append('<text x="40" y="%d" fill="#333">Power: 3 x AA (or a LiPo) to VSYS (39) '
               'through a Schottky diode; GND (38); 3V3 (36) feeds the display module. '
               'VBUS sense: GP%s.</text>' % (yb, pins.VBUS_SENSE))
    out.append('<text x="40" y="%d" fill="#333">Every switch (keys, slot contacts) closes '
               'to GND or a row; no external pull-ups are needed (the RP2040\'s are used).'
               '</text>' % (yb + 20))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    path = argv[1] if len(argv) > 1 else os.path.join(REPO, "docs", "wiring.svg")
    with open(path, "w") as f:
        f.write(draw())
    print("wrote", path)


if __name__ == "__main__":
    main(sys.argv)
