"""The read-only views of the command line: status, balances, log, games, mem (monitor.py:
monitor).

None of them changes the unit; each prints a table for a person or, with --json (log: --csv),
one document for a program.
"""

import csv
import io
import json
import sys
import time

from .errors import EXIT_OK, Failed
from .night import sentences
from .out import (CARDS, VOLUMES, balances_or_none, card_label, game_number, ljust, money,
                  names_of, no_game, refusal, rjust, say, shown, visible, width)


def cmd_status(bank, args):
    info = bank.hello()
    state = bank.state()
    if args.json:
        say(json.dumps({"hello": info, "state": state}))
        return EXIT_OK
    slots = state.get("slots") or {}
    sound = state.get("sound")
    names = names_of(bank)
    balances = None
    err6 = False
    if state.get("error") or info.get("store") == "damaged":
        balances = balances_or_none(bank)
        err6 = balances is None  # no good copy of the game, whatever STATE's error says
    rows = [
        (
            "unit",
            "%s firmware %s, protocol %s, profile %s, store %s"
            % (
                info.get("device"),
                info.get("firmware"),
                info.get("protocol"),
                info.get("profile"),
                info.get("store"),
            ),
        ),
        ("power", state.get("power")),
        ("display", shown(state)),
        ("lights", "red %s, green %s" % (state.get("red"), state.get("green"))),
        ("slots", "L: %s  R: %s" % tuple(card_label(slots.get(s), names) for s in ("L", "R"))),
        ("entry", state.get("entry") or "-"),
        ("deal", state.get("deal")),
        ("sound", "%s (%s)" % (sound, VOLUMES.get(sound, "?"))),
        ("tally", "-" if state.get("tally") is None else money(state["tally"])),
        ("maint", {True: "on: maintenance mode (DEAL held 3 s on the unit leaves it)",
                   False: "off: maintenance mode is entered by holding DEAL 3 s on the unit"}.get(
            state.get("maintenance"), "-")),
        ("error", no_game() if err6 else refusal(state, info.get("profile"), balances, names)
         or "-"),
    ]
    rows += [("night" if i == 0 else "", line) for i, line in enumerate(sentences(bank, state))]
    for name, value in rows:
        say("%-8s %s" % (name, value))
    return EXIT_OK


MEM_ROWS = (("firmware", "the firmware took at boot"), ("boot", "in use after boot"),
            ("now", "in use now"), ("free", "free now"))


def cmd_mem(bank, args):
    mem = bank.memory()
    if args.json:
        say(json.dumps(mem))
        return EXIT_OK
    for key, label in MEM_ROWS:
        value = mem.get(key)
        say("%-26s %s" % (label, "-" if not isinstance(value, int) else
                          "%.1f KB (%d bytes)" % (value / 1024, value)))
    if isinstance(mem.get("gc_us"), int):
        say("%-26s %.2f ms" % ("a gc.collect() took", mem["gc_us"] / 1000))
    return EXIT_OK


def _shown_names(bank):
    """The names as a table shows them: visible before they are measured, so columns align."""
    return {c: visible(n) for c, n in names_of(bank).items()}


def cmd_balances(bank, args):
    balances = balances_or_none(bank)
    if balances is None:
        raise Failed("no balances to show: " + no_game())
    if args.json:
        say(json.dumps({str(k): v for k, v in sorted(balances.items())}))
        return EXIT_OK
    names = _shown_names(bank)
    if not names:
        say("card     balance")
        for card, amount in sorted(balances.items()):
            say("%4d %11s" % (card, money(amount)))
        return EXIT_OK
    say("card  %s %11s" % (ljust("name", 16), "balance"))  # a name is 16 characters at most
    for card, amount in sorted(balances.items()):
        say("%4d  %s %11s" % (card, ljust(names.get(card, ""), 16), money(amount)))
    return EXIT_OK


LOG_COLUMNS = ("seq", "kind", "from", "to", "amount", "undoes", "via")


def _log_and_every_balance(bank, n):
    """The log and, for each entry, all six balances after it: LOG gives those of the cards a
    move touched, so the rest are worked back from BALANCES (each move undone in turn; a
    restore's six are those its game's own log ended at). Read again once if a move came in
    between."""
    for _ in range(2):
        entries = bank.log(n)
        bal = {str(c): v for c, v in bank.balances().items()}
        bal["pot"] = bank.state().get("pot") or 0  # the Free Parking pot's (B22), as a card's
        after = []
        for e in reversed(entries):
            if any(bal.get(c) != v for c, v in e["balances"].items()):
                break  # the balances moved on since the log was read
            after.append(dict(bal))
            if e["from"] != "bank":
                bal[str(e["from"])] += e["amount"]
            if e["to"] != "bank":
                bal[str(e["to"])] -= e["amount"]
        else:
            return entries, after[::-1]
    raise Failed("the unit's log and balances disagree (a move while they were read?): try "
                 "again")


def cmd_log(bank, args):
    if args.csv:
        entries, every = _log_and_every_balance(bank, args.n)
    else:
        entries = bank.log(args.n)
    if args.json:
        say(json.dumps(entries))
        return EXIT_OK
    extra = []
    for entry in entries:
        for key in entry:
            if key not in LOG_COLUMNS and key not in extra:
                extra.append(key)
    columns = list(LOG_COLUMNS) + extra
    rows = [[_cell(e.get(c)) for c in columns] for e in entries]
    names = _shown_names(bank)
    if args.csv:
        # One column per card's balance after the move, all six on every row, so a
        # spreadsheet reads them without unpacking JSON.
        flat = [c for c in columns if c != "balances"]
        head = [visible(c) for c in flat] + ["balance_" + card for card in CARDS]
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        if names:
            head += ["from_name", "to_name"]
        writer.writerow([_csv_safe(c) for c in head])  # a newer unit's keys are its words
        for e, after in zip(entries, every, strict=True):
            row = [_cell(e.get(c)) for c in flat] + [_cell(after.get(card)) for card in CARDS]
            if names:
                row += [names.get(e.get(c), "") if isinstance(e.get(c), int) else ""
                        for c in ("from", "to")]
            writer.writerow([_csv_safe(c) for c in row])
        sys.stdout.write(buf.getvalue())
        return EXIT_OK
    if not entries:
        say("(no transactions)")
        return EXIT_OK
    # the table: drop optional columns no entry has
    keep = [i for i, c in enumerate(columns) if c in ("seq", "kind", "from", "to", "amount")
            or any(r[i] for r in rows)]
    shown = [[visible(columns[i]) for i in keep]] + [
        [_table_cell(columns[i], e.get(columns[i]), r[i], names) for i in keep]
        for e, r in zip(entries, rows, strict=True)
    ]
    widths = [max(width(row[i]) for row in shown) for i in range(len(keep))]
    for n, row in enumerate(shown):
        cells = []
        for i, cell in enumerate(row):
            right = shown[0][i] in ("seq", "amount", "undoes")
            cells.append(rjust(cell, widths[i]) if right else ljust(cell, widths[i]))
        say("  ".join(cells).rstrip())
        if n == 0:
            say("  ".join("-" * w for w in widths))
    return EXIT_OK


def _table_cell(column, value, text, names=None):
    if column == "amount":
        return money(value)
    if column in ("from", "to") and isinstance(value, int) and (names or {}).get(value):
        return "%d %s" % (value, names[value])
    if isinstance(value, dict) and all(isinstance(v, int) for v in value.values()):
        return " ".join("%s=%s" % (k, money(v)) for k, v in value.items())  # after-balances
    return text


def _csv_safe(cell):
    """A CSV cell a spreadsheet shows as text: one that begins like a formula (=, +, -, @, or
    a tab or carriage return before one) gets a leading apostrophe, as OWASP advises; a number
    ("-5") stays a number."""
    if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
        try:
            int(cell)
        except ValueError:
            return "'" + cell
    return cell


def _cell(value):
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return visible(value)


def cmd_games(bank, args):
    games = bank.games()
    if args.json:
        say(json.dumps(games))
        return EXIT_OK
    if not games:
        say("no games kept (a game is kept when a new game or a restore replaces it, if it "
            "had transactions)")
        return EXIT_OK
    # Each game by the one number the window and the page list it by (game 1, 2, ...); the
    # protocol's id and seq are --json's.
    say("%6s %-8s %6s  %s" % ("game", "profile", "txns", "balances 1-6"))
    for g in games:
        bal = g.get("balances") or {}
        n = g.get("transactions")
        note = ""  # when it was put away, where the unit says
        if isinstance(g.get("kept"), int):
            # time's, not datetime's: the unit dates up to 9999's last second (firmware/store/
            # slot.py), which is in year 10000 east of UTC, where datetime stops
            note = "  put away " + time.strftime("%Y-%m-%d %H:%M", time.localtime(g["kept"]))
        if g.get("damaged"):
            say("%6s %-8s %6s  %s" % (game_number(g), "-", "?",
                                      "DAMAGED: cannot be brought back" + note))
            continue
        say("%6s %-8s %6s  %s" % (game_number(g), g.get("profile"), n,
                                  " ".join(money(bal.get(c)) for c in CARDS) + note))
    # What a column is, and whose balances: a name belongs to the player, not to a game.
    say("txns: how many transactions the game had")
    names = _shown_names(bank)
    if names:
        say("cards: " + ", ".join(card_label(int(c), names) for c in CARDS))
    say("bring one back with: bank restore <game>  (maintenance mode)")
    return EXIT_OK

