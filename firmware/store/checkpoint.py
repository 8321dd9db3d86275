"""A checkpoint: the whole game written into the store's other slot file (slot.py has the
format, store/__init__.py and docs/storage.md the order of the writes that keeps it safe
against a power cut).

FileStore writes one every `journal_max` transactions and for every whole-game change.
"""

from brain.ledger import CARDS, POT, apply
from store.slot import MARK_TEXT, VERSION, chunks, fold, write as durable


def write(store, ledger, rec=None, fresh=None, fbase=None):
    """The whole state (with rec applied) into the other slot, as the next generation.

    The log carried on is the slot in use's, read back (slot.history) as its stored lines,
    with rec after it.
    fresh is a whole-game change instead: the game starts again from the ledger's balances, its
    log only the records in fresh (a restore's, which move no money); or, with fbase, from
    those balances with the log fresh (a kept game brought back with its log, then the restore
    record).
    """
    profile = ledger.profile.name
    seq = ledger.seq
    bal = list(ledger.bal)
    got = None
    if fresh is None:
        try:
            got = ledger.store.history(ledger.seq, None, True)
        except OSError:
            # The slot in use no longer reads: the balances (in RAM, right) go on without the
            # log before them. Money is kept; the history is what is lost.
            store.detail = "log unreadable; a new checkpoint from the balances"
    if got is None:
        base = list(bal) if fbase is None else list(fbase)
        log = fresh or []
    else:
        base, log = got
    if rec is not None:
        log.append(rec)
        seq = rec[0]
        apply(bal, rec)
    drop = len(log) - store.keep
    if drop > 0:
        for r in log[:drop]:
            if isinstance(r, bytes):  # carried as stored
                fold(base, r)
            else:
                apply(base, r)
        log = log[drop:]
    gen = store.gen + 1
    head = (("v", VERSION), ("gen", gen), ("profile", profile), ("seq", seq),
            ("volume", ledger.volume), ("n", len(log)), ("base", base[1:CARDS + 1]),
            ("bal", bal[1:CARDS + 1]), ("start", ledger.start), ("games", list(store.games)),
            ("numbers", [store.numbers.get(i) for i in store.games]), ("game", store.number),
            ("count", store.count)) + night_head(ledger, base, bal)
    new = 0 if store.cur is None else 1 - store.cur
    fs = store.fs
    size = durable(fs, store.paths[new], "wb", chunks(head, log))
    # Durable: the new slot wins at boot from here on. Tell the old one, so a boot that
    # finds the new slot gone knows it is damage rather than a cut checkpoint.
    old = store.cur
    store.gen = gen
    store.writes += 1
    store.bytes_written += size
    if old is not None and store.appendable:
        try:
            store._append("s %d" % gen)
            store.writes -= 1  # the note is part of this write, not a write of its own
        except OSError:
            pass  # the new slot is whole; the note only sharpens damage reports
    store.cur = new
    store.appendable = True
    store.journal = 0
    if store.scrub:
        # The new slot holds all there is; the other one held damage (or was the copy
        # read around it). Remove it so the next boot does not report it again.
        try:
            fs.remove(store.paths[1 - new])
        except OSError:
            pass
        store.scrub = False
    if store.gone:
        # Kept games no header names any more (damage the banker has seen): their files go.
        for gid in store.gone:
            try:
                fs.remove(store.dir + "game.%d" % gid)
            except OSError:
                pass
        store.gone = []
    if not store.marked:
        _mark(store)


def night_head(ledger, base, bal):
    """Game night's part of a header (B19-B22), none when it has nothing to keep: the pot's
    money at the base and at the checkpoint ("pot"), and the settings ("night",
    store/night.py)."""
    out = ()
    if base[POT] or bal[POT]:
        out = (("pot", [base[POT], bal[POT]]),)
    if ledger.pot_on or ledger.count is not None or ledger.clock is not None:
        from store import night

        out += (("night", night.plain(ledger)),)
    return out


def _mark(store):
    """The first durable checkpoint: from now on an empty store is damage, not 'new'."""
    try:
        durable(store.fs, store.mark, "wb", (MARK_TEXT,))
        store.marked = True
    except OSError:
        pass  # tried again at the next checkpoint
