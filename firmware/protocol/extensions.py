"""The protocol's extensions (docs/protocol-extensions.md): maintenance, backup, the kept games,
the players' names and the unit's heap, for host tools and the banker panel. Each takes the
Protocol and the words after its name, and gives the reply line.
"""

from brain import pot, profiles
from brain.ledger import CARDS, MOST, POT
import jsonw
from protocol import names

# A host changes money or the game in play only once someone at the unit let it: DEAL held
# 3 s on the keypad (docs/protocol-extensions.md, beyond B13).
HOLD_DEAL = "hold DEAL for 3 s on the unit first"
MAINTENANCE_REQUIRED = "ERR maintenance-required " + HOLD_DEAL


def do_maint(p, args):
    if args:
        return "ERR bad-argument MAINT takes no argument"
    return "OK " + jsonw.dumps((("maintenance", p.unit.maintenance),))

def do_newgame(p, args):
    # A host's new game puts the game in play away: maintenance, as every serial change of
    # money (the keypad's C held 3 s, and HOLD C 3000, are the keypad's and need none).
    if args:
        return "ERR bad-argument NEWGAME takes no argument"
    if not p.unit.maintenance:
        return MAINTENANCE_REQUIRED
    err = p.unit.new_game(p.clock.now(), None, p.via)
    if err:
        return "ERR " + err
    return p._ok_state()

def do_set(p, args):
    u = p.unit
    what = args[0].upper() if args else ""
    now = p.clock.now()
    if what == "SOUND" and len(args) == 2:
        v = p.whole(args[1])
        if v is None or v > 2:
            return "ERR bad-argument SET SOUND <0-2>"
        err = u.set_volume(v)
        if err:
            return "ERR " + err
        return p._ok_state()
    if what == "PROFILE" and len(args) == 2:
        if profiles.get(args[1]) is None:
            return "ERR bad-argument profiles are " + " ".join(sorted(profiles.PROFILES))
        if not u.maintenance:
            return MAINTENANCE_REQUIRED
        err = u.new_game(now, args[1].lower(), p.via)
        return "ERR " + err if err else p._ok_state()
    if what == "POT" and len(args) == 2 and args[1].upper() in ("ON", "OFF"):
        # B22: where the profile is chosen, the pot is turned on and off (no new game)
        if not u.maintenance:
            return MAINTENANCE_REQUIRED
        err = pot.set_on(u, args[1].upper() == "ON")
        if err == "pot-not-empty":
            return "ERR pot-not-empty the pot holds money: collect it first"
        return "ERR " + err if err else p._ok_state()
    if what == "BALANCE" and len(args) == 3:
        # the pot's money (B22) too: a backup that had some is put back whole
        card = POT if args[1].upper() == "POT" else p.whole(args[1])
        if card == POT and args[1].upper() != "POT":
            card = None  # the pot is named, never numbered
        amount = p.whole(args[2])
        # Up to the most a balance reaches (brain/ledger.py): any balance can be set again.
        if card is None or not 1 <= card <= POT or amount is None or amount > MOST:
            return "ERR bad-argument SET BALANCE <1-%d|pot> <amount 0-%d>" % (CARDS, MOST)
        if amount % u.ledger.profile.resolution:
            return "ERR bad-argument amount is not a multiple of %d" % (
                u.ledger.profile.resolution)
        if not u.maintenance:
            return MAINTENANCE_REQUIRED
        rec = u.set_balance(card, amount, p.via)
        if isinstance(rec, str):
            return "ERR " + rec
        return p._ok_state()
    return ("ERR bad-argument SET SOUND <0-2> | SET PROFILE <name> | SET POT ON|OFF | "
            "SET BALANCE <card|pot> <amount>")

def _news(p):
    """Damage the store found while it answered (a kept game's file, a names file), reported
    as boot's is (B17)."""
    if p.unit.ledger.store.news():
        p.unit.store_damaged(p.clock.now())

def do_backup(p, args):
    if args:
        return "ERR bad-argument BACKUP takes no argument"
    refused = p.no_game()
    if refused:
        return refused
    snap = p.unit.ledger.store.backup(p.unit.ledger)
    _news(p)
    return p.ok_pieces(jsonw.pieces(snap))

def do_name(p, args):
    reply = names.command(p.unit.ledger.store, "NAME", args, p.whole)
    _news(p)
    return reply

def do_names(p, args):
    reply = names.command(p.unit.ledger.store, "NAMES", args, p.whole)
    _news(p)
    return reply

def do_games(p, args):
    if args:
        return "ERR bad-argument GAMES takes no argument"
    store = p.unit.ledger.store
    got = []
    for gid in store.kept():
        g = store.game(gid)
        known = g or {"seq": gid}  # a damaged game: what is still known of it
        bal = known.get("balances")
        got.append((("id", gid), ("profile", known.get("profile")), ("seq", known["seq"]),
                    ("transactions", known.get("transactions")),
                    ("balances", None if bal is None else
                     tuple((str(i + 1), b) for i, b in enumerate(bal))),
                    ("number", store.number_of(gid)), ("kept", known.get("kept")),
                    ("damaged", g is None)))
    _news(p)
    return "OK " + jsonw.dumps(got)

def do_restore(p, args):
    what = args[0].upper() if args else ""
    gid = p.whole(args[1]) if len(args) == 2 and what == "GAME" else None
    if not ((len(args) == 1 and what == "PREVIOUS") or gid is not None):
        return "ERR bad-argument RESTORE PREVIOUS | RESTORE GAME <id>"
    u = p.unit
    if not u.maintenance:
        return MAINTENANCE_REQUIRED
    rec = u.restore_game(gid, p.via)
    _news(p)
    if rec == "game-damaged":
        store = u.ledger.store
        n = store.number_of(gid if gid is not None else store.kept()[0])
        return "ERR game-damaged game %s does not read: it cannot be brought back" % n
    if isinstance(rec, str):
        return "ERR " + rec
    return p._ok_state()

# WRITECARD's refusals, said after their code (the unit's own are brain/unit.py's write_card).
_WRITE_ERRORS = {
    "unsupported": "this unit's slots read contacts: a card's code is cut, not written",
    "maintenance-required": HOLD_DEAL,
    "no-tag": "no tag answers on that reader: hold the card flat on it",
    "not-writable": "that tag is no MIFARE Classic with its transport key, nor an NTAG",
    "write-failed": "the tag did not keep the number: hold it still and try again",
}

def do_writecard(p, args):
    slot = args[0].upper() if len(args) == 2 else ""
    card = p.whole(args[1]) if len(args) == 2 else None
    if slot not in ("L", "R") or card is None or not 1 <= card <= CARDS:
        return "ERR bad-argument WRITECARD <L|R> <1-%d>" % CARDS
    err = p.unit.write_card(slot, card, p.clock.now())
    if err:
        return ("ERR %s %s" % (err, _WRITE_ERRORS.get(err, ""))).rstrip()
    return p._ok_state()


COMMANDS = {
    "MAINT": do_maint, "NEWGAME": do_newgame, "SET": do_set, "BACKUP": do_backup,
    "RESTORE": do_restore, "GAMES": do_games, "NAME": do_name, "NAMES": do_names,
    "WRITECARD": do_writecard,
}
