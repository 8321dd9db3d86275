"""What only maintenance mode allows (docs/protocol-extensions.md): bringing a game back, from
the unit's kept games or from a backup file. Entering it is done on the unit's own keypad;
these check it first, so a unit not in it is never left half restored.
"""

import json
import os

from . import backup
from .errors import EXIT_OK, BankError, CommandError, Failed, UsageError
from .keypad import set_sound
from .out import CARDS, game_number, money, note, say


MAINT_HINT = (
    "the unit is not in maintenance mode: hold DEAL for 3 seconds on the unit's own keypad "
    "(it cannot be done over serial; the simulator: --maintenance, or hold DEAL in its "
    "window), then try again"
)


def need_maintenance(bank):
    bank.wake()  # B16: switched off, a unit is in no mode; woken, in the one it was left in
    try:
        ok = bank.maintenance()
    except CommandError as exc:
        if exc.code == "unknown-command":
            raise Failed("this unit's firmware has no maintenance mode (MAINT)") from None
        raise
    if not ok:
        raise Failed(MAINT_HINT)


def maint_errors(bank, fn):
    """fn(), a refusal for want of maintenance mode said as what to do; a unit that had
    switched itself off (B16), and with it left the mode it was in, woken and asked again."""
    try:
        return fn()
    except CommandError as exc:
        if exc.code != "maintenance-required":
            raise
    if bank.state().get("power") == "off":
        bank.wake()
        try:
            return fn()
        except CommandError as exc:
            if exc.code != "maintenance-required":
                raise
    raise Failed(MAINT_HINT)


def kept_game(bank, number=None, gid=None):
    """The kept game (GAMES' entry) a person names by the number `bank games` lists (game 1,
    2, ...), or by its protocol id (--id); Failed if the unit keeps none so named."""
    for g in bank.games():
        if (g.get("id") == gid) if number is None else (game_number(g) == number):
            return g
    raise Failed("the unit keeps no game %s (see bank games)" % (
        number if number is not None else "with id %d" % gid))


RESTORE_SETS = 7  # the most SETs a restore makes: six cards and the pot

PARTWAY = (
    "the restore stopped partway: the unit may hold part of %s. Run the same restore again to "
    "finish it, or bank restore --previous to go back to the game before it"
)


def cmd_restore(bank, args):
    gid = args.id
    if args.previous and (gid is not None or args.file is not None):
        raise UsageError("restore takes --previous, a FILE, a game's number or --id ID: one")
    if gid is not None or (args.file is not None and args.file.isascii()
                            and args.file.isdigit()):
        # A number is a kept game's, as bank games lists it; a backup file so named is
        # ./<number>. --id ID is the protocol's id (bank games --json).
        if gid is not None and args.file is not None:
            raise UsageError("restore takes a game's number or --id ID, not both")
        need_maintenance(bank)
        g = kept_game(bank, None if gid is not None else int(args.file), gid)
        try:
            maint_errors(bank, lambda: bank.restore_game(g["id"]))
        except CommandError as exc:
            if exc.code == "no-backup":  # put away or dropped since it was listed
                raise Failed("the unit keeps no game %s (see bank games)"
                             % game_number(g)) from None
            raise
        say("restored game %s" % game_number(g))
        return EXIT_OK
    if args.previous:
        need_maintenance(bank)
        try:
            maint_errors(bank, bank.restore_previous)
        except CommandError as exc:
            if exc.code == "no-backup":
                raise Failed("the unit keeps no game from before the last new game (see bank "
                             "games)") from None
            raise
        say("restored the previous game")
        return EXIT_OK
    if not args.file:
        raise UsageError("restore needs a FILE, a game number (bank games) or --previous")
    try:
        doc = backup.load(args.file)
    except UsageError as exc:
        if args.file == "-" or os.path.exists(args.file):
            raise
        # RESTORE PREVIOUS is the protocol's word: `bank restore previous` read it as a file.
        raise UsageError("%s (the game before the last new game is bank restore --previous; a "
                         "kept game, its number: see bank games)" % exc) from None
    need_maintenance(bank)  # checked before anything changes: a refusal leaves nothing half done
    sent = _restored_before(bank, doc)
    try:
        if not sent:
            maint_errors(bank, lambda: bank.set_profile(doc["profile"]))  # a new game (B15, B11)
            sent = True
        said = _restore_file(bank, doc)
    except (BankError, Failed, KeyboardInterrupt) as exc:
        # Cut short between two of its commands (the link lost, no reply, Ctrl-C, a refusal
        # after the first), the unit holds what it took: a refusal of the first changed nothing.
        if sent or not isinstance(exc, (CommandError, Failed)):
            note(PARTWAY % args.file)
        raise
    # What it set beside the balances is said too: the pot's money is money on the table (B22).
    parts = ["profile %s" % doc["profile"], "6 balances"] + said
    say("restored %s and %s from %s" % (", ".join(parts[:-1]), parts[-1], args.file))
    return EXIT_OK


def _restored_before(bank, doc):
    """Whether the game in play is doc's restore, whole or stopped partway: doc's profile, and
    nothing in its log but SETs to doc's balances. The restore goes on in it: a new game would
    keep it, a copy of the file, and a restore run again would push out a game that was played
    (B11 keeps the last three)."""
    if bank.hello().get("profile") != doc["profile"]:
        return False
    want = dict(doc["balances"], pot=doc.get("pot"))
    log = bank.log(RESTORE_SETS + 1)
    if len(log) > RESTORE_SETS:
        return False
    for rec in log:
        after = rec.get("balances")
        if rec.get("kind") != "set" or not isinstance(after, dict) or [
                k for k, v in after.items() if want.get(k) != v]:
            return False
    return True


def _restore_file(bank, doc):
    """A backup's game, after SET PROFILE's new game: its balances, pot, volume and names; what
    it set beside the balances, in words."""
    said = []
    now = bank.balances()
    for card in CARDS:  # only the ones that differ: each SET is a logged transaction
        if now.get(int(card)) != doc["balances"][card]:
            maint_errors(bank, lambda c=card: bank.set_balance(int(c), doc["balances"][c]))
    if doc.get("pot") is not None:
        # B22: the pot on, and its money back (a new game emptied it)
        maint_errors(bank, lambda: bank.request("SET POT ON"))
        if doc["pot"]:
            maint_errors(bank, lambda: bank.request("SET BALANCE POT %d" % doc["pot"]))
        said.append("the Free Parking pot on with %s" % money(doc["pot"]))
    elif bank.state().get("pot") is not None:
        # ... or off, as the game was played: a pot left on takes a + with one card (B22, B7)
        maint_errors(bank, lambda: bank.request("SET POT OFF"))
        said.append("the Free Parking pot off")
    if doc.get("volume") is not None and set_sound(bank, doc["volume"]):
        said.append("sound volume %d" % doc["volume"])
    named = _restore_names(bank, doc.get("names"))
    if named:
        said.append("%d player name%s" % (named, "" if named == 1 else "s"))
    got = {str(k): v for k, v in bank.balances().items()}
    if got != {c: doc["balances"][c] for c in CARDS}:
        raise Failed("restore did not hold: the unit now has %s" % json.dumps(got))
    return said


def _restore_names(bank, names):
    """The players' names of a backup, when it has them (None: the unit it came from keeps
    none) and the unit keeps names (NAME): a card the file does not name is named no more. How
    many cards are named."""
    if names is None:
        return 0
    try:
        have = bank.names()
    except CommandError as exc:
        if exc.code != "unknown-command":
            raise
        if names:
            say("(this unit keeps no player names: the backup's names were not restored)")
        return 0
    for card in CARDS:
        want = names.get(card)  # checked by the unit's rule with the whole file (backup.load)
        if have.get(int(card)) != want:
            bank.set_name(int(card), want or "")
    return len([n for n in names.values() if n])
