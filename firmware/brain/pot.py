"""The Free Parking pot (B22): the ledger's POT account, and its setting, ledger.pot_on."""

from brain import money
from brain.ledger import POT


def set_on(unit, on):
    """The pot on or off, kept (B17): None or the error, which leaves it as it was."""
    led = unit.ledger
    if not led.ready:
        return "no-game"  # B17: no game to keep it in; Err6 writes nothing
    if on == led.pot_on:
        return None
    if not on and led.bal[POT]:
        return "pot-not-empty"  # on with money in it (a game brought back), it can be collected
    err = led.set("p", on)
    if err:
        return err
    # B10: a reversal of a collection would put money back into a pot now off; as any change
    # a host makes, it closes what C would reverse.
    return unit._changed(None, "pot")


def toggle(unit, now):
    """Maintenance's M with no card and nothing typed."""
    err = set_on(unit, not unit.ledger.pot_on)
    if err:
        unit._refuse(err)
        return
    unit._show(("Pot 1" if unit.ledger.pot_on else "Pot 0", False, False), now,
               unit.message_ms)
    unit._tone("click")


def show(unit, now):
    """M with no card and nothing typed: `Pot`, then its money (night.display)."""
    unit.view = "pot"
    unit._show(("Pot", False, False), now, unit.card_ms)
    unit._tone("click")


def into(unit, right, now, via):
    """The card alone in R, an amount, +: into the pot, within B2's limits."""
    led = unit.ledger
    amount, err = money.parse(unit.entry, led.profile, True)
    if err:
        unit._refuse(err)
        return
    unit._moved(led.move("pot-in", right, POT, amount, 0, via), "-", now)


def collect(unit, left, now, via):
    """The card alone in L, nothing typed, +: the whole pot."""
    led = unit.ledger
    if not led.bal[POT]:
        unit._refuse("pot-empty")
        return
    rec = led.move("pot-out", POT, left, led.bal[POT], 0, via)
    unit._moved(rec, "+", now)
    if not led.pot_on and not isinstance(rec, str):
        unit._emit("pot", None)  # off and empty: no pot to speak of from here (STATE's null)
