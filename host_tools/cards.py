"""The RFID build's cards from the command line: `bank card write L 3` numbers the tag on that
slot's reader (the WRITECARD extension, maintenance mode only; docs/protocol-extensions.md,
docs/hardware.md "RFID card slots")."""

from .errors import EXIT_OK, CommandError, Failed
from .maintenance import maint_errors
from .out import WORDS, say

# What the unit's refusal means for the one writing, where the words of the window are absent
PLAIN = {
    "unsupported": "this unit reads its cards by contacts: a card's number is cut, not written",
    "no-tag": "no card answers on that reader: lay it flat on the reader and try again",
}


def cmd_card(bank, args):
    line = "WRITECARD %s %d" % (args.slot, args.card)
    try:
        maint_errors(bank, lambda: bank.request(line))
    except CommandError as exc:
        if exc.code == "unknown-command":
            raise Failed("this unit's firmware cannot number cards (WRITECARD)") from None
        if exc.code in ("unsupported", "no-tag", "not-writable", "write-failed", "card-in-use"):
            said = WORDS.explain(exc.code) if WORDS is not None else PLAIN.get(
                exc.code, exc.message or exc.code)
            raise Failed("the unit refused it: %s (%s)" % (said, exc.code)) from None
        raise
    say("the card on reader %s is card %d now" % (args.slot, args.card))
    return EXIT_OK
