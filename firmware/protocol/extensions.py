"""The protocol's extensions (docs/protocol-extensions.md): maintenance, backup, the kept games,
the players' names, for host tools and the banker panel. Each takes the Protocol and the words
after its name, and gives the reply line; those in protocol.NO_ARGS had theirs checked.
"""

from brain import pot, profiles
from brain.ledger import CARDS, LOUDEST, MOST, POT
import jsonw
from protocol import names
from protocol.names import whole

# A host changes money or the game in play only once someone at the unit let it: DEAL held
# 3 s on the keypad (docs/protocol-extensions.md, beyond B13).
HOLD_DEAL = "hold DEAL for 3 s on the unit"
MAINTENANCE_REQUIRED = "ERR maintenance-required " + HOLD_DEAL + " first"


def _refused(u):
    """A change whose words read, refused for want of maintenance; a switch-off ends it (B16)."""
    if u.maintenance:
        return None
    if not u.power:
        return ("ERR maintenance-required the unit is switched off: wake it (a key or a card),"
                " then " + HOLD_DEAL + " if it asks again")
    return MAINTENANCE_REQUIRED


def _done(p, err):
    """The reply to a change: the unit's refusal (its code), or the state it left."""
    return "ERR " + err if err else p._ok_state()


def do_maint(p, args):
    return "OK " + jsonw.dumps((("maintenance", p.unit.maintenance),))

def do_newgame(p, args):
    # A host's new game puts the game in play away: maintenance, as every serial change of
    # money (the keypad's C held 3 s, and HOLD C 3000, are the keypad's and need none).
    return _refused(p.unit) or _done(p, p.unit.new_game(p.clock.now(), None, p.via))

def do_set(p, args):
    u = p.unit
    what = args[0].upper() if args else ""
    now = p.clock.now()
    if what == "SOUND" and len(args) == 2:
        v = whole(args[1])
        if v is None or v > LOUDEST:
            return "ERR bad-argument SET SOUND <0-2>"
        return _done(p, u.set_volume(v))
    if what == "PROFILE" and len(args) == 2:
        if profiles.get(args[1]) is None:
            return "ERR bad-argument profiles are " + " ".join(profiles.NAMES)
        return _refused(u) or _done(p, u.new_game(now, args[1].lower(), p.via))
    if what == "POT" and len(args) == 2 and args[1].upper() in ("ON", "OFF"):
        # B22: where the profile is chosen, the pot is turned on and off (no new game)
        refused = _refused(u)
        if refused:
            return refused
        err = pot.set_on(u, args[1].upper() == "ON")
        if err == "pot-not-empty":
            return "ERR pot-not-empty the pot holds money: collect it first"
        return _done(p, err)
    if what == "BALANCE" and len(args) == 3:
        # the pot's money (B22) too: a backup that had some is put back whole; the pot is
        # named, never numbered
        named = args[1].upper() == "POT"
        card = POT if named else whole(args[1])
        amount = whole(args[2])
        # Up to the most a balance reaches (brain/ledger.py): any balance can be set again.
        res = u.ledger.profile.resolution
        if card is None or not (named or 1 <= card <= CARDS) or amount is None or amount > MOST:
            return "ERR bad-argument SET BALANCE <1-%d|pot> <amount 0-%d>" % (
                CARDS, MOST - MOST % res)
        if amount % res:
            return "ERR bad-argument amount is not a multiple of %d" % res
        refused = _refused(u)
        if refused:
            return refused
        rec = u.set_balance(card, amount, p.via)
        return _done(p, rec if isinstance(rec, str) else None)
    return ("ERR bad-argument SET SOUND <0-2> | SET PROFILE <name> | SET POT ON|OFF | "
            "SET BALANCE <card|pot> <amount>")

def _news(p, reply):
    """reply, once damage the store found while it answered (a kept game's file, a names
    file) is reported as boot's is (B17)."""
    if p.unit.ledger.store.news():
        p.unit.store_damaged()
    return reply

def do_backup(p, args):
    refused = p.no_game()
    if refused:
        return refused
    return p.ok_pieces(jsonw.pieces(_news(p, p.unit.ledger.store.backup(p.unit.ledger))))

def do_name(p, args):
    return _news(p, names.name(p.unit.ledger, args))

def do_names(p, args):
    return _news(p, names.listing(p.unit.ledger.store))

def do_games(p, args):
    store = p.unit.ledger.store
    got = []
    for gid in store.kept():
        g = store.game(gid)
        if g is None and not store.damaged(gid):
            return "ERR store-failed game %d could not be read" % store.number_of(gid)
        known = g or {"seq": gid}  # a damaged game: what is still known of it
        bal = known.get("balances")
        got.append((("id", gid), ("profile", known.get("profile")), ("seq", known["seq"]),
                    ("transactions", known.get("transactions")),
                    ("balances", None if bal is None else
                     tuple((str(i + 1), b) for i, b in enumerate(bal))),
                    ("number", store.number_of(gid)), ("kept", known.get("kept")),
                    ("damaged", g is None)))
    return "OK " + jsonw.dumps(_news(p, got))

def do_restore(p, args):
    what = args[0].upper() if args else ""
    gid = whole(args[1]) if len(args) == 2 and what == "GAME" else None
    if not ((len(args) == 1 and what == "PREVIOUS") or gid is not None):
        return "ERR bad-argument RESTORE PREVIOUS | RESTORE GAME <id>"
    u = p.unit
    refused = _refused(u)
    if refused:
        return refused
    rec = _news(p, u.restore_game(gid, p.via))
    if rec == "game-damaged":
        store = u.ledger.store
        n = store.number_of(gid if gid is not None else store.kept()[0])
        return "ERR game-damaged game %s does not read: it cannot be brought back" % n
    return _done(p, rec if isinstance(rec, str) else None)

# WRITECARD's refusals, said after their code (the unit's own are brain/unit.py's write_card).
_WRITE_ERRORS = {
    "unsupported": "this unit's slots read contacts: a card's code is cut, not written",
    "maintenance-required": HOLD_DEAL + " first",
    "no-tag": "no tag answers on that reader: hold the card flat on it",
    "not-writable": "that tag is no MIFARE Classic with its transport key, nor an NTAG",
    "write-failed": "the tag did not keep the number: hold it still and try again",
    "card-in-use": "that card is on the other reader: two tags of one number are one card",
}

def do_writecard(p, args):
    got = p.slot_card(args)
    if got is None:
        return "ERR bad-argument WRITECARD <L|R> <1-%d>" % CARDS
    err = p.unit.write_card(got[0], got[1], p.clock.now(), p.via)
    if err:
        return ("ERR %s %s" % (err, _WRITE_ERRORS.get(err, ""))).rstrip()
    return p._ok_state()


COMMANDS = {
    "MAINT": do_maint, "NEWGAME": do_newgame, "SET": do_set, "BACKUP": do_backup,
    "RESTORE": do_restore, "GAMES": do_games, "NAME": do_name, "NAMES": do_names,
    "WRITECARD": do_writecard,
}
