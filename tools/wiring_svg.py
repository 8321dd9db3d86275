"""Draw the wiring from firmware/pins.py, so the diagrams and the pin map never disagree.

    python tools/wiring_svg.py [out.svg]   (tools/drawings.py writes them all)

Plain SVGs by hand. docs/wiring.svg (draw): the Pico on the left with every GPIO the unit uses
(GP number and the Pico's physical pin), a wire to the part it drives on the right. The
diagrams of docs/drawings/ (diagrams), in mm for A4: the key matrix of each ready map in
pins.py, the slots (contacts, RFID) and the power.
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
    height = y + 90
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
    out.append('<text x="40" y="%d" fill="#333">Power: 3 x AA to VSYS (39) through a '
               'Schottky diode; GND (38); 3V3 (36) feeds the display module. VBUS sense: '
               'GP%s.</text>' % (yb, pins.VBUS_SENSE))
    out.append('<text x="40" y="%d" fill="#333">Every switch (keys, slot contacts) closes '
               'to GND or a row; no external pull-ups are needed (the RP2040\'s are used).'
               '</text>' % (yb + 20))
    out.append('<text x="40" y="%d" fill="#333">docs/drawings/ has the key matrix, the slots '
               'and the power.</text>' % (yb + 40))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- the diagrams of docs/drawings/, in mm ----------------------------------------------------

def gp(n):
    return "GP%d (%d)" % (n, PHYSICAL[n])


def _sheet(title, body, w=277.0, h=190.0):
    return "\n".join(
        ['<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" '
         'viewBox="0 0 %g %g" font-family="DejaVu Sans, Arial, sans-serif" font-size="4">'
         % (w, h, w, h), '<title>%s</title>' % esc(title),
         '<rect width="%g" height="%g" fill="white"/>' % (w, h),
         '<text x="10" y="12" font-size="6" font-weight="bold">%s</text>' % esc(title),
         '<text x="10" y="19" font-size="3.2" fill="#555">Generated from firmware/pins.py by '
         'tools/drawings.py. GPn = RP2040 GPIO, (n) = Pico pin.</text>'] + body
        + ["</svg>"]) + "\n"


def _t(x, y, s, size=4, anchor="start", fill="black", weight="normal"):
    return ('<text x="%.1f" y="%.1f" font-size="%g" text-anchor="%s" fill="%s" '
            'font-weight="%s">%s</text>' % (x, y, size, anchor, fill, weight, esc(s)))


def _line(x1, y1, x2, y2, colour="black", width=0.4, dash=None):
    extra = ' stroke-dasharray="%s"' % dash if dash else ""
    return ('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%g"%s/>'
            % (x1, y1, x2, y2, colour, width, extra))


def _dot(x, y):
    return '<circle cx="%.1f" cy="%.1f" r="0.8" fill="black"/>' % (x, y)


def _switch(x, y):
    """A push switch from (x, y) to (x + 4, y + 4): two contacts and the open blade."""
    return "".join([_dot(x, y), _dot(x + 4, y + 4), _line(x, y, x + 2.6, y + 1.6, width=0.5)])


def keypad(layout, name, note):
    rows, cols = pins.KEY_ROWS, pins.KEY_COLS
    x0, y0, dx, dy = 70.0, 45.0, 36.0, 28.0
    body = [_t(10, 28, note, 3.5),
            _t(10, 34, "Rows: open-drain outputs, driven low one at a time. Columns: inputs "
               "with the RP2040's pull-ups. No diodes or resistors.", 3.5)]
    for r, g in enumerate(rows):
        y = y0 + r * dy
        body += [_t(10, y + 1.5, "row %d  %s" % (r, gp(g)), 4),
                 _line(48, y, x0 + len(cols) * dx, y, "#2f855a", 0.6)]
    for c, g in enumerate(cols):
        x = x0 + c * dx + 10
        body += [_t(x, y0 + len(rows) * dy + 6, "col %d" % c, 4, "middle"),
                 _t(x, y0 + len(rows) * dy + 11, gp(g), 3.5, "middle"),
                 _line(x, y0 - 6, x, y0 + len(rows) * dy, "#2b6cb0", 0.6)]
    for r, row in enumerate(layout):
        for c, key in enumerate(row):
            if key is not None:
                x, y = x0 + c * dx + 10, y0 + r * dy  # the column's line, the row's line
                xs = x - 14  # the switch hangs from the row and joins the column
                body += [_dot(xs, y), _line(xs, y, xs, y + 5, "#2f855a"), _switch(xs, y + 5),
                         _line(xs + 4, y + 9, x, y + 9, "#2b6cb0"), _dot(x, y + 9),
                         _t(xs - 1.5, y + 13, key.replace("-", "\u2212"), 5, "end",
                            weight="bold")]
    return _sheet("Keypad: %s (KEYPAD = %s)" % (note.split(":")[0], name), body)


def contact_slots():
    body = [_t(10, 28, "Each switch closes to GND; the inputs use the RP2040's pull-ups. "
               "Code 0 is the leftmost, the card held face up (docs/drawings/codes.svg).",
               3.5)]
    for k, (slot, codes, seated) in enumerate((("L (credit)", pins.SLOT_L, pins.SLOT_L_SEATED),
                                               ("R (debit)", pins.SLOT_R, pins.SLOT_R_SEATED))):
        x0 = 20 + k * 130
        body.append(_t(x0, 42, "Slot %s" % slot, 5, weight="bold"))
        for i, g in enumerate(list(codes) + [seated]):
            y = 52 + i * 22
            label = "code %d" % i if i < len(codes) else "seated"
            body += [_t(x0, y + 1.5, "%s  %s" % (gp(g), label), 4),
                     _line(x0 + 48, y, x0 + 60, y, "#b7791f", 0.6),
                     _switch(x0 + 60, y), _line(x0 + 64, y + 4, x0 + 90, y + 4),
                     _t(x0 + 92, y + 5.5, "GND", 3.5)]
    return _sheet("Card slots, contacts (SLOTS = \"contacts\")", body)


def rfid_slots():
    body = [_t(10, 28, "Two RC522 modules on SPI%d, 3.3 V only; IRQ not connected "
               "(docs/hardware.md, \"RFID card slots\"). Pins in the order of the module's "
               "header: check yours." % pins.RFID_SPI, 3.5)]
    header = ("SDA", "SCK", "MOSI", "MISO", "IRQ", "GND", "RST", "3.3V")
    shared = (("SCK", pins.RFID_SCK), ("MOSI", pins.RFID_MOSI), ("MISO", pins.RFID_MISO),
              ("RST", pins.RFID_RST))
    for k, slot in enumerate("LR"):
        x0 = 150 + k * 60
        body.append('<rect x="%g" y="40" width="45" height="129" rx="2" fill="#eef" '
                    'stroke="#2b6cb0" stroke-width="0.5"/>' % x0)
        body.append(_t(x0 + 22.5, 48, "RC522 (slot %s)" % slot, 4, "middle", weight="bold"))
        for i, pin in enumerate(header):
            body.append(_t(x0 + 3, 60 + i * 14, pin + (" (n.c.)" if pin == "IRQ" else ""),
                           3.5))
    for pin, g in (("SDA (NSS) L", pins.RFID_CS_L),) + shared:
        y = 59 + header.index(pin.split()[0]) * 14
        body += [_t(10, y, gp(g), 4), _t(45, y, pin, 3.2, fill="#555"),
                 _line(80, y - 1, 150, y - 1, "#2b6cb0", 0.5)]
        if pin != "SDA (NSS) L":
            body.append(_line(150, y - 1, 210, y - 1, "#2b6cb0", 0.3, "2,1"))
    body += [_t(10, 180, "%s  SDA (NSS) R" % gp(pins.RFID_CS_R), 4),
             _line(80, 179, 206, 179, "#2b6cb0", 0.5), _line(206, 179, 206, 58, "#2b6cb0", 0.5),
             _line(206, 58, 210, 58, "#2b6cb0", 0.5),
             _t(10, 187, "3V3 (36), GND (38)  to both modules' 3.3V and GND", 4)]
    return _sheet("Card slots, RFID (SLOTS = \"rfid\")", body)


def power():
    body = [
        '<rect x="20" y="40" width="55" height="30" rx="2" fill="#fdf6e3" stroke="black" '
        'stroke-width="0.5"/>', _t(47.5, 52, "3 x AA holder", 4.5, "middle", weight="bold"),
        _t(47.5, 60, "with its switch, 4.5 V", 3.5, "middle"),
        _t(78, 47, "+ (red)", 3.5), _line(75, 50, 110, 50, "#c53030", 0.7),
        '<path d="M 110 46 L 110 54 L 118 50 Z" fill="black"/>', _line(118, 46, 118, 54),
        _t(114, 43, "1N5817", 3.5, "middle"), _line(118, 50, 160, 50, "#c53030", 0.7),
        _t(78, 67, "- (black)", 3.5), _line(75, 64, 160, 64, "black", 0.7),
        '<rect x="160" y="35" width="60" height="85" rx="3" fill="#e6f4ea" stroke="#276749" '
        'stroke-width="0.6"/>', _t(190, 44, "Raspberry Pi Pico", 4.5, "middle", weight="bold"),
        _t(163, 51, "VSYS (39)", 3.5), _t(163, 65, "GND (38)", 3.5),
        _t(163, 80, "3V3 OUT (36)", 3.5), _t(163, 95, "VBUS (40): USB, 5 V", 3.5),
        _t(163, 108, "GP%d (on the board): VBUS sense" % pins.VBUS_SENSE, 3),
        _line(220, 79, 250, 79, "#dd6b20", 0.6),
        _t(222, 76, "to the display's VCC", 3.2), _t(222, 86, "and the RC522s' 3.3V", 3.2),
        _t(20, 135, "The diode keeps the batteries from being fed by USB: both may be "
           "connected. The Pico's own regulator makes 3.3 V from VSYS.", 3.5),
        _t(20, 142, "GND is shared by everything: the switches' commons, the LEDs' "
           "cathodes, the piezo, the modules.", 3.5),
        _t(20, 149, "The optional power latch (docs/hardware.md, \"Power latch\") goes "
           "between the holder's + and the diode, held by GP28.", 3.5),
    ]
    return _sheet("Power: batteries, USB and 3.3 V", body)


def diagrams():
    """{file name in docs/drawings/: SVG}."""
    out = {
        "wiring-keypad-switches.svg": keypad(
            pins.KEYPAD_SWITCHES, "KEYPAD_SWITCHES",
            "17 tactile switches: each joins its row to its column"),
        "wiring-keypad-membrane-4x4.svg": keypad(
            pins.KEYPAD_MEMBRANE_4X4, "KEYPAD_MEMBRANE_4X4",
            "4x4 membrane and one switch: the membrane's rows on rows 0-3 and columns on "
            "cols 0-3; DEAL a tactile switch from row 0 to col 4"),
        "wiring-keypad-membrane-4x5.svg": keypad(
            pins.KEYPAD_MEMBRANE_4X5, "KEYPAD_MEMBRANE_4X5",
            "4x5 membrane: its 4 columns on rows 0-3, its 5 rows on cols 0-4"),
        "wiring-slots-contacts.svg": contact_slots(),
        "wiring-slots-rfid.svg": rfid_slots(),
        "wiring-power.svg": power(),
    }
    return out


def main(argv):
    path = argv[1] if len(argv) > 1 else os.path.join(REPO, "docs", "wiring.svg")
    with open(path, "w") as f:
        f.write(draw())
    print("wrote", path)


if __name__ == "__main__":
    main(sys.argv)
