"""What a refusal means, in a sentence a player understands.

The unit says little: an error tone, `Err1` for a second, or nothing, and over serial a code
(`STATE`'s `error`: `insufficient-funds`, `go-taken`, ...). A front end knows more: the entry
as typed, the cards in the slots, the balances, the key just pressed. `explain(code, ...)`
puts the two together: "card 3 cannot pay 20 M: it has 14.5 M". Only what the front end can see
is used; no rule is re-decided here (the firmware refused already, this only says why).

The codes are those the firmware produces: brain/unit.py and brain/money.py (a refused key or
commit, `STATE`'s `error`), brain/ledger.py (`insufficient-funds`, `no-game`, `store-failed`),
brain/unit.py's boot (`store-damaged`, shown as Err5) and the card slots' replies
(`slot-occupied`, `card-in-use`, `slot-empty`).
"""

from brain import money
from brain import profiles

CODES = ("insufficient-funds", "go-taken", "wrong-slot", "bad-entry", "no-amount", "no-suffix",
         "too-fine", "below-minimum", "above-maximum", "no-game", "store-failed",
         "store-damaged", "slot-occupied", "card-in-use", "slot-empty", "no-backup", "bad-key",
         "bad-argument", "game-damaged")


def amount(value, profile):
    """An amount as the unit's display puts it, in words: '14.5 M', '150 k', '1,500'."""
    text, k, m = money.fmt(value, profile)
    if m:
        return text + " M"
    if k:
        return text + " k"
    return text


def who(card, names=None):
    """'card 3', or 'Ann (card 3)' when the banker named it."""
    name = names.get(card) if names else None
    return "%s (card %d)" % (name, card) if name else "card %d" % card


def typed(entry):
    """The entry as a player reads it: '2.5M' -> '2.5 M'."""
    if entry and entry[-1] in "KM":
        return entry[:-1] + " " + entry[-1]
    return entry


def explain(code, entry="", slots=None, balances=None, profile=None, key=None, names=None):
    """The sentence for a refusal `code`.

    entry: the keys typed (the unit keeps them after a refused commit, B2); slots: {'L': card
    or None, 'R': ...}; balances: {card: amount}; profile: a profiles.Profile or its name;
    key: the key that was refused ('+', '-', 'M', a digit, ...), or the slot a card went to;
    names: {card: name} of the cards the banker named.
    """
    slots = slots or {"L": None, "R": None}
    balances = balances or {}
    if profile is None or isinstance(profile, str):
        profile = profiles.get(profile or profiles.DEFAULT)
    left, right = slots.get("L"), slots.get("R")

    def amt(v):
        return amount(v, profile)

    def card(n):
        return who(n, names)

    if code == "insufficient-funds":
        if key == "C":
            return ("C cannot reverse the last transaction: the card it paid no longer has the "
                    "money (B10)")
        value, _err = money.parse(entry, profile, False)
        if right is not None and value is not None and right in balances:
            return "%s cannot pay %s: it has %s (B8)" % (card(right), amt(value),
                                                         amt(balances[right]))
        return "the paying card does not have that much (B8)"
    if code == "go-taken":
        who_ = card(left) if left else "this card"
        return ("%s has had its Go salary (%s) on this insertion: take the card out and put it "
                "back to collect Go again (B9)" % (who_, amt(profile.go)))
    if code == "wrong-slot":
        if key == "M":
            return "Go (M) needs one card alone in the left slot L (B9)"
        if key == "+" and left is not None and right is not None:
            return ("with two cards in, press \u2212 to pay from R (%s) to L (%s); + is for one "
                    "card in L (B7)" % (card(right), card(left)))
        if key == "+":
            return ("+ (receive) needs the card in the left slot L; %s is in R (B7)"
                    % card(right) if right else "+ (receive) needs a card in the left slot L (B7)")
        if key == "-":
            return ("\u2212 (pay) needs the paying card in the right slot R; %s is in L (B7)"
                    % card(left) if left else "\u2212 (pay) needs a card in the right slot R (B7)")
        return "that key does not fit the cards in the slots: + needs L, \u2212 needs R (B7)"
    if code == "bad-entry":
        if key == "M" and not entry:
            return ("M alone is Go, and needs a card in the left slot L; for millions type the "
                    "digits first: 2 . 5 M (B9, B2)")
        if entry and entry[-1] in "KM":
            return ("%s is finished: nothing can follow K or M. Press + or \u2212, or C to "
                    "clear it (B2)" % typed(entry))
        if key == ".":
            return "an amount has one decimal point at most (B2)"
        if key in ("K", "M"):
            return "type the digits first, then K or M (B2)"
        return "an amount has at most 5 digits (B2)"
    if code == "no-amount":
        return "type an amount first, then + or \u2212 (B2)"
    if code == "no-suffix":
        return ("end the amount with K (thousands) or M (millions): %s K or %s M (B2)"
                % (entry or "150", entry or "2"))
    if code == "too-fine":
        return ("%s is finer than the unit counts: amounts are whole multiples of %s (B2)"
                % (typed(entry), amt(profile.resolution)))
    if code == "below-minimum":
        return ("%s is below the smallest amount at one time, %s (B2)"
                % (typed(entry), amt(profile.minimum)))
    if code == "above-maximum":
        return ("%s is above the largest amount at one time, %s: split it in two (B2)"
                % (typed(entry), amt(profile.maximum)))
    if code == "no-game":
        return ("Err6: no good copy of the game was found. Hold C for 3 seconds for a new game, "
                "or restore a backup with the host tools (B17)")
    if code == "store-damaged":
        return ("Err5: the unit's memory was damaged; it is using the last good copy of the "
                "game. Check the balances; any key goes on (B17)")
    if code == "store-failed":
        return "the unit could not save to its memory, so nothing changed: try again (B17)"
    if code == "slot-occupied":
        held = slots.get(key)
        return ("slot %s holds %s already: take it out first (B3)" % (key, card(held))
                if held else "that slot holds a card already (B3)")
    if code == "card-in-use":
        other = slots.get("R" if key == "L" else "L")
        return ("%s is in the other slot already: one card cannot pay itself (B3)" % card(other)
                if other else "that card is in the other slot already (B3)")
    if code == "slot-empty":
        return "slot %s has no card to take out (B3)" % key if key else "that slot is empty (B3)"
    if code == "no-backup":
        return "there is no previous game to bring back (B11)"
    if code == "game-damaged":
        return ("that previous game's copy in the unit's memory is damaged: it cannot be "
                "brought back (B11, B17)")
    if code in ("bad-key", "bad-argument"):
        return "the unit did not understand that (only its 17 keys, slots L/R and cards 1-6)"
    return "the unit refused that (%s)" % code


def on_display(text):
    """The code behind an error the display shows by itself (Err1, Err5, Err6), or None."""
    return {"Err1": "insufficient-funds", "Err5": "store-damaged", "Err6": "no-game"}.get(text)
