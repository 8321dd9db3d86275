// The bank unit's case, parametric (OpenSCAD): a top shell with the display window, the keypad
// cut-out, the two card slots, the lights and the piezo; a bottom tray with the battery box and
// its lid. `make case` renders build/case/case.stl and case.png; `-D part="top"` (or "tray",
// "lid") renders one part for printing. The card and slot numbers come from dimensions.scad,
// which tools/drawings.py writes from the numbers of docs/drawings/: the slots here take the
// cards those drawings cut. All sizes in mm.

include <dimensions.scad>

part = "all";  // "all" (assembled, the tray lowered), "top", "tray", "lid"

WALL = 2.0;
W = 130;  // outside, left to right
D = 150;  // outside, front (the slots) to back (USB)
H_TOP = 22;  // the top shell's height
H_TRAY = 14;  // the tray's height
R = 6;  // the corners' radius

// What goes through the top, from the front edge (y = 0) backwards
SLOT_Z = 7;  // the slots' mid-height in the front wall: under the display module
DISPLAY_WINDOW = [52, 18];  // the 2.4" HT1621 module's glass
DISPLAY_Y = 32;  // the window's centre
KEYPAD = [70, 77];  // the 4x4 membrane, stuck on the top; its ribbon goes through a slit
KEYPAD_Y = 92;
RIBBON = [22, 2.5];
DEAL_HOLE = 13;  // the 12 x 12 mm tactile switch's cap
LED_HOLE = 3.2;
USB = [12, 8];  // the Pico's micro-USB at the back

// The battery box: a 3 x AA holder, with room
BATTERY = [62, 50, 17];
LID_CLEARANCE = 0.3;

module rounded(size, r) {
    linear_extrude(size[2])
        offset(r) offset(-r) square([size[0], size[1]]);
}

module slot_mouth() {
    // A card goes in leading edge first through the front wall: the slot's width and height,
    // widened into a funnel on the outside.
    w = CARD_W + 2 * CLEARANCE;
    translate([-w / 2, -1, -SLOT_GAP / 2]) cube([w, WALL + 2, SLOT_GAP]);
    hull() {
        translate([-w / 2 - 1, -0.01, -SLOT_GAP / 2 - 1]) cube([w + 2, 0.01, SLOT_GAP + 2]);
        translate([-w / 2, WALL / 2, -SLOT_GAP / 2]) cube([w, 0.01, SLOT_GAP]);
    }
}

module slot_guide() {
    // Rails and roof inside the front wall, INSERT deep: the card's channel (slot-guide.svg).
    w = CARD_W + 2 * CLEARANCE;
    difference() {
        translate([-w / 2 - RAIL, WALL, -SLOT_GAP / 2 - WALL])
            cube([w + 2 * RAIL, INSERT, SLOT_GAP + 2 * WALL]);
        translate([-w / 2, WALL - 0.01, -SLOT_GAP / 2]) cube([w, INSERT + 0.02, SLOT_GAP]);
    }
}

module top() {
    difference() {
        rounded([W, D, H_TOP], R);
        translate([WALL, WALL, -0.01])
            rounded([W - 2 * WALL, D - 2 * WALL, H_TOP - WALL + 0.01], R - WALL);
        for (x = [W / 2 - SLOT_SPACING / 2, W / 2 + SLOT_SPACING / 2])
            translate([x, 0, SLOT_Z]) slot_mouth();
        translate([W / 2 - DISPLAY_WINDOW[0] / 2, DISPLAY_Y - DISPLAY_WINDOW[1] / 2, H_TOP - 5])
            cube([DISPLAY_WINDOW[0], DISPLAY_WINDOW[1], 10]);
        // the membrane sits in a 0.6 mm recess; its ribbon goes down through the slit
        translate([W / 2 - KEYPAD[0] / 2, KEYPAD_Y - KEYPAD[1] / 2, H_TOP - 0.6])
            cube([KEYPAD[0], KEYPAD[1], 1]);
        translate([W / 2 - RIBBON[0] / 2, KEYPAD_Y + KEYPAD[1] / 2 - RIBBON[1] - 1, H_TOP - 5])
            cube([RIBBON[0], RIBBON[1], 10]);
        translate([W / 2 + KEYPAD[0] / 2 + 12, KEYPAD_Y - 20, H_TOP - 5])
            cylinder(d = DEAL_HOLE, h = 10, $fn = 48);
        for (x = [W / 2 - 30, W / 2 + 30])
            translate([x, DISPLAY_Y, H_TOP - 5]) cylinder(d = LED_HOLE, h = 10, $fn = 24);
        for (i = [-1 : 1], j = [-1 : 1])  // the piezo's grille
            translate([W / 2 + KEYPAD[0] / 2 + 12 + 3 * i, KEYPAD_Y + 15 + 3 * j, H_TOP - 5])
                cylinder(d = 1.5, h = 10, $fn = 12);
        translate([W / 2 - USB[0] / 2, D - WALL - 1, H_TOP - WALL - USB[1] - 3])
            cube([USB[0], WALL + 2, USB[1]]);
    }
    for (x = [W / 2 - SLOT_SPACING / 2, W / 2 + SLOT_SPACING / 2])
        translate([x, 0, SLOT_Z]) slot_guide();
}

module tray() {
    difference() {
        rounded([W, D, H_TRAY], R);
        translate([WALL, WALL, WALL]) rounded([W - 2 * WALL, D - 2 * WALL, H_TRAY], R - WALL);
        // the battery box opens underneath, closed by the lid
        translate([W / 2 - BATTERY[0] / 2, D / 2 - BATTERY[1] / 2, -0.01])
            cube([BATTERY[0], BATTERY[1], WALL + 0.02]);
    }
    // the battery box's walls, up from the floor
    difference() {
        translate([W / 2 - BATTERY[0] / 2 - WALL, D / 2 - BATTERY[1] / 2 - WALL, 0])
            cube([BATTERY[0] + 2 * WALL, BATTERY[1] + 2 * WALL, min(BATTERY[2], H_TRAY)]);
        translate([W / 2 - BATTERY[0] / 2, D / 2 - BATTERY[1] / 2, -0.01])
            cube([BATTERY[0], BATTERY[1], BATTERY[2] + 1]);
        translate([W / 2 - 3, D / 2 + BATTERY[1] / 2 - 0.01, WALL + 2]) cube([6, WALL + 0.02, 4]);
    }
}

module lid() {
    // slides into the opening under the battery box; a lip holds it
    cube([BATTERY[0] - 2 * LID_CLEARANCE, BATTERY[1] - 2 * LID_CLEARANCE, WALL]);
    translate([-2, -2, -1]) cube([BATTERY[0] - 2 * LID_CLEARANCE + 4,
                                  BATTERY[1] - 2 * LID_CLEARANCE + 4, 1]);
}

if (part == "top") top();
else if (part == "tray") tray();
else if (part == "lid") lid();
else {
    translate([0, 0, H_TRAY + 10]) top();
    tray();
    translate([W / 2 - BATTERY[0] / 2 + LID_CLEARANCE, D / 2 - BATTERY[1] / 2 + LID_CLEARANCE,
               -12]) lid();
}
