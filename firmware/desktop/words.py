"""Every sentence a player or a banker reads, in English and French, and the one place that
turns a refusal (and the unit's state) into one: for the window, the terminal, the page (its
MicroPython runs this very file) and the host tools.

The unit says little: an error tone, `Err1` for a second, or nothing, and over serial a code
(`STATE`'s `error`: `insufficient-funds`, `go-taken`, ...). A front end knows more: the entry
as typed, the cards in the slots, the balances, the key just pressed. `explain(code, ...)`
puts the two together: "card 3 cannot pay 20 M: it has 14.5 M". Only what the front end can see
is used; no rule is re-decided here (the firmware refused already, this only says why). No
sentence names a rule id: those belong in docs/rules.md and the tests.

The codes are those the firmware produces: brain/unit.py and brain/money.py (a refused key or
commit), brain/ledger.py (`insufficient-funds`, `no-game`, `store-failed`), boot
(`store-damaged`, shown as Err5) and the card slots' replies (`slot-occupied`, `card-in-use`,
`slot-empty`).

Plain Python that MicroPython runs too: a table of sentences per language, `{name}` fields
filled by str.format. The language is the system's (LANG, LC_MESSAGES, LC_ALL) or the
browser's, or the one asked for (`set_lang`); the rulebooks of the seeds are French and English,
so French borrows their words ("carte", "Banque", "Départ").
"""

from brain import money
from brain import profiles
from brain.ledger import AMOUNT, CARDS, FROM, KIND, MOST, POT, SEQ, TO, UNDOES

LANGS = ("en", "fr")
NAMES = {"en": "English", "fr": "Fran\u00e7ais"}
_lang = ["en"]

CODES = ("insufficient-funds", "go-taken", "wrong-slot", "bad-entry", "no-amount", "no-suffix",
         "too-fine", "below-minimum", "above-maximum", "no-game", "store-failed",
         "store-damaged", "slot-occupied", "card-in-use", "slot-empty", "no-backup", "bad-key",
         "bad-argument", "game-damaged", "balance-limit", "counting", "no-count", "no-clock",
         "pot-empty", "pot-not-empty", "no-balance", "unknown-card", "no-tag", "not-writable",
         "write-failed", "maintenance-required", "unsupported", "too-many-keys")

MINUS = "\u2212"

TEXTS = {
    "en": {
        # who and what
        "card": "card {n}",
        "named": "{name} (card {n})",
        "bank": "the bank",
        "bank.short": "bank",
        "this-card": "this card",
        "kind.receive": "receive",
        "kind.pay": "pay",
        "kind.transfer": "transfer",
        "kind.go": "go",
        "kind.undo": "undo",
        "kind.set": "set",
        "kind.restore": "restore",
        "txn.restore": "#{seq} a previous game brought back",
        # game night (the count, the game clock, a bankruptcy, the Free Parking pot)
        "kind.bankrupt": "bankrupt",
        "kind.pot-in": "into the pot",
        "kind.pot-out": "pot collected",
        "pot.short": "pot",
        "counting": ("no money moves during the count: C with no card in leaves it, and play "
                     "goes on"),
        "no-count": "no card is in the count yet: put each remaining player's card in",
        "no-clock": "no game clock runs: type the minutes, then + to start one",
        "pot-empty": "the Free Parking pot is empty: nothing to collect",
        "pot-not-empty": "the pot holds {amount}: collect it before turning the pot off",
        "pot-not-empty.anon": "the pot holds money: collect it before turning the pot off",
        "no-balance": "{card} has nothing left to hand over",
        "no-balance.anon": "that card has nothing left to hand over",
        "night.pot": "Free Parking pot: {amount}",
        "night.clock": "game clock: {n} min left",
        "night.clock.stopped": "game clock stopped: {n} min left",
        "night.clock.over": "game clock: time is up",
        "night.clock.end": "time is up: any key starts the count",
        "night.count": "count: {rows}",
        "night.count.none": "count: put each remaining player's card in",
        "night.winner": "{who} wins with {amount}",
        "night.tie": "{who} share first place with {amount}",
        "night.and": " and ",
        "note.bankrupt": "{src} is bankrupt: {amount} to {dst}",
        "note.pot-out": "{dst} collects the Free Parking pot: {amount}",
        "txn.undoes": " (undoes #{seq})",
        # refusals
        "undo.short": ("C cannot reverse the last transaction: the card it paid no longer has "
                       "the money"),
        "pay.short": "{card} cannot pay {amount}: it has {has}",
        "pay.short.anon": "the paying card does not have that much",
        "go.taken": ("{card} has had its Go salary ({go}) on this insertion: take the card out "
                     "and put it back to collect Go again"),
        "slot.go": "Go (M) needs one card alone in the left slot L",
        "slot.two": ("with two cards in, press \u2212 to pay from R ({right}) to L ({left}); + "
                     "is for one card in L"),
        "slot.plus.r": "+ (receive) needs the card in the left slot L; {card} is in R",
        "slot.plus": "+ (receive) needs a card in the left slot L",
        "slot.minus.l": "\u2212 (pay) needs the paying card in the right slot R; {card} is in L",
        "slot.minus": "\u2212 (pay) needs a card in the right slot R",
        "slot.any": "that key does not fit the cards in the slots: + needs L, \u2212 needs R",
        "entry.m-alone": ("M alone is Go, and needs a card in the left slot L; for millions type "
                          "the digits first: 2 . 5 M"),
        "entry.finished": ("{entry} is finished: nothing can follow K or M. Press + or \u2212, "
                           "or C to clear it"),
        "entry.point": "an amount has one decimal point at most",
        "entry.suffix-first": "type the digits first, then K or M",
        "entry.digits": "an amount has at most 5 digits",
        "entry.refused": ("{entry} cannot take that key: an amount has at most 5 digits and one "
                          "point, then K or M"),
        "entry.point-digits": ("after a point typed first, at most 4 digits: the point takes a "
                               "cell of its own"),
        "no-amount": "type an amount first, then + or \u2212",
        "too-many-keys": "too many keys at once: press one key at a time",
        "no-suffix": "end the amount with K (thousands) or M (millions): {a} K or {b} M",
        "too-fine": ("{entry} is finer than the unit counts: amounts are whole multiples of "
                     "{step}"),
        "below-minimum": "{entry} is below the smallest amount at one time, {least}",
        "above-maximum": ("{entry} is above the largest amount at one time, {most}: split it "
                          "in two"),
        "balance-limit": "{card} would go past {most}, the most one balance holds",
        "balance-limit.anon": "a balance would go past {most}, the most one balance holds",
        "no-game": ("Err6: no good copy of the game was found. Hold C for 3 seconds for a new "
                    "game, or restore a backup with the host tools"),
        "store-damaged": ("Err5: the unit's memory was damaged; it is using the last good copy "
                          "of the game. Check the balances; a key on the unit goes on"),
        "store-failed": "the unit could not save to its memory, so nothing changed: try again",
        "slot-occupied": "slot {slot} holds {card} already: take it out first",
        "slot-occupied.anon": "that slot holds a card already",
        "card-in-use": "{card} is in the other slot already: one card cannot pay itself",
        "card-in-use.anon": "that card is in the other slot already",
        "slot-empty": "slot {slot} has no card to take out",
        "slot-empty.anon": "that slot is empty",
        "no-backup": "there is no previous game to bring back",
        "game-damaged": ("that previous game's copy in the unit's memory is damaged: it cannot "
                         "be brought back"),
        "bad-key": "the unit did not understand that (only its 17 keys, slots L/R and cards 1-6)",
        # the RFID build's cards (tags numbered in maintenance)
        "unknown-card": ("this card's tag has no card number yet: in maintenance, type its "
                         "number (1-6) and press DEAL with it on the left reader"),
        "no-tag": "no card answers on the reader: hold it flat on the reader and try again",
        "not-writable": ("that tag cannot carry a card number: use a MIFARE Classic card or "
                         "fob with its transport key, or an NTAG sticker"),
        "write-failed": ("the tag did not keep its number: hold it still on the reader and try "
                         "again"),
        "maintenance-required": ("that needs maintenance mode: hold DEAL for 3 seconds on the "
                                 "unit first"),
        "unsupported": ("this unit reads its cards by contacts: a card's number is in its "
                        "notches, cut, not written"),
        "refused": "the unit refused that ({code})",
        # what the unit is doing, and what just happened by itself
        "off": ("switched itself off after a minute without use: the next key only wakes it, "
                "a card wakes it and counts"),
        "maintenance": ("maintenance mode: the banker may bring a game back or set a "
                        "balance; hold DEAL 3 s to play again"),
        "shows": "{card}: {amount}",
        "hold.c": ("holding C: a new game in {s} s, every card back to the start; let go now "
                   "for a plain C"),
        "hold.deal.on": ("holding DEAL: maintenance mode on in {s} s; let go now to only run "
                         "the deal timer"),
        "hold.deal.off": ("holding DEAL: maintenance mode off in {s} s; let go now to only run "
                          "the deal timer"),
        "note.undo": "C reversed #{seq}: {amount} back from {src} to {dst}",
        "note.undo.to-pot": "C reversed #{seq}: {amount} back from {src} to the pot",
        "note.undo.from-pot": "C reversed #{seq}: {amount} back from the pot to {dst}",
        "note.new-game": "a new game: every card back to {amount}",
        "note.woke": "the unit was switched off: that key only woke it; press it again",
        "note.woke.key": "the unit was switched off: that key {key} only woke it; press it again",
        # the banker panel
        "panel.named": "{card} is {name}",
        "panel.unnamed": "{card} has no name now",
        "panel.name-refused": "the name was not kept: {why}",
        "name.long": "a name is at most {n} characters",
        "name.bytes": ("a name is at most {n} bytes of text, and an emoji or a rare character "
                       "takes 4"),
        "name.control": ("a name cannot hold control characters (tab, newline, overrides of "
                         "direction)"),
        "panel.back": "game {game} is back",
        "panel.back-needs": ("bringing a game back needs maintenance mode: hold DEAL for 3 "
                             "seconds on the unit, then try again"),
        "panel.back-refused": "game {game} was not brought back: {why}",
        "panel.pot": "Free Parking pot",
        "panel.pot-on": ("the Free Parking pot is on: a card in R, an amount and + put money "
                         "in it"),
        "panel.pot-off": "the Free Parking pot is off",
        "panel.pot-needs": ("turning the Free Parking pot on or off needs maintenance mode: hold "
                            "DEAL for 3 seconds on the unit, then try again"),
        "panel.pot-refused": "the Free Parking pot was not switched: {why}",
        "panel.every": "every player",
        # the terminal
        "term.help1": ("keys: 0-9 . m k c  +/= -  d/space: DEAL   h then a key: hold it 3 s   n: "
                       "new game (hold C 3 s)   S: maintenance (hold DEAL 3 s)"),
        "term.hold-which": ("hold which key for 3 s? + the count, k the game clock, - a "
                            "bankruptcy, c a new game, d maintenance (Esc: never mind)"),
        "term.help2": ("cards: l then 1-6 = into L, r then 1-6 = into R, L / R = take out   X: "
                       "bankruptcy (hold - 3 s)   b: banker   f: fran\u00e7ais   q: quit"),
        "term.ask.c": ("start a NEW GAME? every card back to the start, this game kept among "
                       "the last three: y = yes, any other key = no"),
        "term.ask.deal.on": "hold DEAL 3 s for maintenance mode on? y = yes, any other key = no",
        "term.ask.deal.off": ("hold DEAL 3 s for maintenance mode off? y = yes, any other key = "
                              "no"),
        "term.not-done": "not done",
        "hold.count": ("holding +: the count in {s} s (game night: who wins); let go now and "
                       "nothing starts"),
        "hold.clock": ("holding K: the game clock in {s} s, to type its minutes; let go now and "
                       "nothing opens"),
        "hold.bankrupt": ("holding -: the card in R goes bankrupt in {s} s, its whole balance "
                          "to the card in L or the bank; let go now and nothing moves"),
        "term.card-into": "card into {slot}: 1-6 (0 or x: take out, Esc: never mind)",
        "term.no-card": ("{key} is no card: 1-6 into {slot}, 0 or x: take out, Esc: never "
                         "mind"),
        "term.ask.minus": ("hold - 3 s: the card in R goes BANKRUPT, its whole balance to the "
                           "card in L (none: the bank)? y = yes, any other key = no"),
        "term.minus.no-card": ("a bankruptcy is the card in R's: put the bankrupt player's card "
                               "in R first (r, then its number)"),
        "term.holding": "holding {key} for 3 s ...",
        "term.power.on": "power: on",
        "term.power.off": "power: off (dark): the next key only wakes it",
        "term.slots": "slot L (credit +): {left}   slot R (debit -): {right}",
        "term.empty": "empty",
        "term.sound": "sound: {volume}   tone: {tone}   deal: {deal}",
        "term.entry": "entry: {entry}",
        "term.balances": "-- banker: balances --",
        "term.recent": "-- recent transactions --",
        "term.previous": "-- previous games --",
        "term.serving": "serving {mode} {address}",
        # the window
        "win.help": ("keys: 0-9 . m k c (hold c: new game)  d/space: DEAL (hold: maintenance)  "
                     "+ -   F1-F6: card in/out of L  Shift+F1-F6 or Ctrl+1-6: in/out of R  b: "
                     "banker panel  F11: large display  F12: fran\u00e7ais"),
        "win.panel": "banker panel (b)",
        "win.large": "large display (F11)",
        "win.whole": "whole unit (F11)",
        "win.other-lang": "FR",
        "win.name-hint": "name a card: type, then Return",
        "win.txns-of": "Transactions of",
        "win.previous": "Previous games",
        "win.none-kept": "(none kept)",
        "win.bring-back": "bring back",
        "win.game": "game {id} ({profile}), {n} transactions",
        "win.game.one": "game {id} ({profile}), {n} transaction",
        "win.game.unknown": "game {id} ({profile}), transactions unknown",
        "win.game.kept": "{game}, put away {when}",
        "win.game.damaged": "game {id}: damaged in the unit's memory",
        "win.game.lost": "cannot be brought back",
        "win.months": "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec",
        "win.cards-hint": "bank cards: drag one to a slot, or click it then a slot",
        "win.slot.L": "L  credit  +",
        "win.slot.R": "R  debit  -",
        "win.maintenance": "MAINTENANCE",
        "win.big.maintenance": "maintenance",
        "win.off-glass": "switched off: a key or a card wakes it",
        "win.pico": "emulated RP2040 running {image} ({kind}): Pico time {t} s, {pace}",
        "win.pico.in-step": "as fast as real time",
        "win.pico.slower": "{x}x slower than real time",
        "win.pico.booting": "booting: the image is starting",
        "win.pico.frozen": "the firmware frozen in",
        "win.pico.files": "a stock image, the firmware's files on its flash",
        "win.pico.help": ("keys: 0-9 . m k c (hold c: new game)  d/space: DEAL  + -   F1-F6: "
                          "card in/out of L  Shift+F1-F6 or Ctrl+1-6: in/out of R  F12: "
                          "fran\u00e7ais. The chip runs the image, played at its pins: no "
                          "banker panel here"),
        # the page
        "page.hint": ("Tap a card, then a slot (or drag it). Tap a card in a slot to take it "
                      "out."),
        "page.banker": "Banker",
        "page.recent": "Recent transactions",
        "page.none": "(none yet)",
        "page.console": "Serial console",
        "page.send": "Send",
        "page.foot": "The unit's own firmware, running in MicroPython's WebAssembly port.",
        "page.credit": "L credit",
        "page.debit": "R debit",
        "page.name-for": "Name for card {n} (empty: none)",
        "page.bad-profile": ("This page cannot start with ?profile={profile}: the money is one "
                             "of {names}, such as ?profile=classic. Nothing was changed."),
        # What the page says before its unit runs (web/build.py puts the page.* ones in
        # words.json, which the page reads first).
        "page.bad-game": ("This page cannot open the game \u201c{name}\u201d: a game's name "
                          "(?game=NAME) is 1 to 32 small letters a\u2013z, digits or "
                          "\u201c-\u201d, such as ?game=family. Nothing was read or kept."),
        "page.bad-seed": ("This page cannot start with ?seed={seed}: a seed is a whole number of "
                          "1 to 9 digits, such as ?seed=7. Nothing was read or kept."),
        "page.bad-option": ("This page cannot start with ?{option}={value}: the value is one of "
                            "{allowed}. Nothing was read or kept."),
        "page.loading": "Loading the unit\u2026 {n} %",
        "page.starting": "Starting the unit\u2026",
        "page.failed": "The unit could not start: {why}",
        "page.notice.waiting": ("This game is open in another tab or window of this browser. One "
                                "tab at a time runs it, so that no payment is lost between them. "
                                "It starts here when the other one closes, or now if you take it "
                                "over."),
        "page.notice.moved": ("This game is now played in another tab or window of this browser. "
                              "This tab stopped, so that the two never take payments for the "
                              "same game: nothing was lost."),
        "page.notice.taken": ("Another tab or window of this browser took this game over. This "
                              "tab stopped, so that the two never take payments for the same "
                              "game."),
        "page.notice.asking": "Asking the other tab to let this game go\u2026",
        "page.take-over": "Play here instead",
        # A URL option that would change the game kept in this browser, asked first
        "page.ask": ("This link asks to change the game kept in this browser: {what}. A link "
                     "on any web page can ask this, so the game changes only if you say so."),
        "page.ask.profile": ("a new game with the {profile} money (the game in play is kept "
                             "among the previous games)"),
        "page.ask.pot-on": "the Free Parking pot on",
        "page.ask.pot-off": "the Free Parking pot off",
        "page.ask.maintenance": ("maintenance mode (games brought back and balances set from "
                                 "the page and host tools)"),
        "page.ask.clock": ("time standing still (a virtual clock: the deal timer, the game "
                           "clock and the switch-off wait for ADVANCE)"),
        "page.ask.change": "Change the game",
        "page.ask.keep": "Keep the game as it is",
        "page.lang": "Language",
        "deal.idle": "idle",
        "deal.run": "running",
        "deal.end": "ending",
        "deal.over": "done",
        "term.front-end": "terminal front end",
        "term.no-display": "no display found: terminal front end",
        "term.no-window": "the display does not open: terminal front end",
        "deal.running": "deal: running",
        "deal.ending": "deal: ending",
        "deal.done": "deal: done",
        "win.deal-key": "DEAL  (handshake)",
        "tone.click": "click",
        "tone.card": "card",
        "tone.money-in": "money-in",
        "tone.money-out": "money-out",
        "tone.error": "error",
        "tone.new-game": "new-game",
        "tone.deal-warning": "deal-warning",
        "tone.deal-end": "deal-end",
        "tone.winner": "winner",
        "tone.clock-warning": "clock-warning",
        "tone.clock-end": "clock-end",
        # the table view (docs/table.md): a player's phone, read-only
        "table.title": "At the table",
        "table.pick": "Who are you? Tap your card.",
        "table.change": "Not you?",
        "table.history": "My transactions",
        "table.standings": "Standings",
        "table.none": "No transaction of yours yet in this game.",
        "table.from": "from {who}",
        "table.to": "to {who}",
        "table.go": "Go salary from the bank",
        "table.set": "balance set by the banker",
        "table.restore": "a kept game brought back",
        "table.after": "then {amount}",
        "table.you": "you",
        "table.live": "live",
        "table.not-live": "not connected",
        "table.connecting": "Connecting to the table\u2026",
        "table.offline": ("Not connected: this is what the table said at {time}. Trying "
                          "again\u2026"),
        "table.gone": ("The unit is not answering (unplugged, restarting, or its page closed): "
                       "these are the balances it last gave. This page comes back by itself."),
        "table.waiting": "Waiting for the unit: the balances show as soon as it answers.",
        "table.off": "The unit is switched off: a key or a card on it wakes it.",
        "table.maintenance": "The unit is in maintenance mode: the banker may set balances.",
        "table.damaged": ("The unit found its kept game damaged and plays on from the last good "
                          "copy: the banker should check the balances."),
        "table.no-game": ("The unit found no good copy of the game: the banker starts a new "
                          "game or brings a kept one back."),
        "table.read-only": "Read only: the banker moves the money on the unit.",
        "table.to-pot": "into the Free Parking pot",
        "table.from-pot": "from the Free Parking pot",
        "table.count": "The count",
        "page.own-unit": ("This phone is a unit of its own; scan the table's code to follow "
                          "the game."),
        # what a screen reader says of the page's parts
        "page.label.slot-L": "left slot (credit +)",
        "page.label.slot-R": "right slot (debit \u2212)",
        "page.label.card": "card {n}",
        "page.label.display": "display: {text}",
        "page.label.off": "off",
        "page.label.volume": "volume {n}",
        "page.label.red": "red light",
        "page.label.green": "green light",
        "page.label.plus": "plus",
        "page.label.minus": "minus",
        "page.label.name": "card {n}'s player: {name} (tap to change)",
        "page.label.no-name": "no name",
        "term.table": "phones at the table: {url} (t: its QR code)",
        "term.table-back": "t: back to the unit",
    },
    "fr": {
        "card": "carte {n}",
        "named": "{name} (carte {n})",
        "bank": "la Banque",
        "bank.short": "Banque",
        "this-card": "cette carte",
        "kind.receive": "re\u00e7u",
        "kind.pay": "pay\u00e9",
        "kind.transfer": "virement",
        "kind.go": "D\u00e9part",
        "kind.undo": "annulation",
        "kind.set": "r\u00e9glage",
        "kind.restore": "reprise",
        "txn.restore": "#{seq} une partie pr\u00e9c\u00e9dente reprise",
        "kind.bankrupt": "faillite",
        "kind.pot-in": "au pot",
        "kind.pot-out": "pot ramass\u00e9",
        "pot.short": "pot",
        "counting": ("aucun argent ne bouge pendant le d\u00e9compte : C sans carte le quitte, "
                     "et la partie reprend"),
        "no-count": ("aucune carte n'est encore dans le d\u00e9compte : ins\u00e9rez la carte "
                     "de chaque joueur restant"),
        "no-clock": ("aucun chrono de partie ne tourne : tapez les minutes, puis + pour en "
                     "lancer un"),
        "pot-empty": "le pot du Parc gratuit est vide : rien \u00e0 ramasser",
        "pot-not-empty": ("le pot contient {amount} : ramassez-le avant de d\u00e9sactiver le "
                          "pot"),
        "pot-not-empty.anon": ("le pot contient de l'argent : ramassez-le avant de "
                               "d\u00e9sactiver le pot"),
        "no-balance": "{card} n'a plus rien \u00e0 c\u00e9der",
        "no-balance.anon": "cette carte n'a plus rien \u00e0 c\u00e9der",
        "night.pot": "pot du Parc gratuit : {amount}",
        "night.clock": "chrono de partie : {n} min restantes",
        "night.clock.stopped": "chrono de partie arr\u00eat\u00e9 : {n} min restantes",
        "night.clock.over": "chrono de partie : le temps est \u00e9coul\u00e9",
        "night.clock.end": ("le temps est \u00e9coul\u00e9 : une touche lance le "
                            "d\u00e9compte"),
        "night.count": "d\u00e9compte : {rows}",
        "night.count.none": ("d\u00e9compte : ins\u00e9rez la carte de chaque joueur "
                             "restant"),
        "night.winner": "{who} gagne avec {amount}",
        "night.tie": "{who} partagent la premi\u00e8re place avec {amount}",
        "night.and": " et ",
        "note.bankrupt": "{src} fait faillite : {amount} \u00e0 {dst}",
        "note.pot-out": "{dst} ramasse le pot du Parc gratuit : {amount}",
        "txn.undoes": " (annule n\u00b0{seq})",
        "undo.short": ("C ne peut pas annuler la derni\u00e8re op\u00e9ration : la carte "
                       "pay\u00e9e n'a plus cet argent"),
        "pay.short": "{card} ne peut pas payer {amount} : elle n'a que {has}",
        "pay.short.anon": "la carte qui paie n'a pas autant",
        "go.taken": ("{card} a d\u00e9j\u00e0 touch\u00e9 son salaire de D\u00e9part ({go}) "
                     "depuis qu'elle est ins\u00e9r\u00e9e : retirez la carte et remettez-la "
                     "pour toucher D\u00e9part \u00e0 nouveau"),
        "slot.go": "D\u00e9part (M) demande une seule carte, dans la fente de gauche L",
        "slot.two": ("avec deux cartes, appuyez sur \u2212 pour payer de R ({right}) \u00e0 L "
                     "({left}) ; + est pour une seule carte dans L"),
        "slot.plus.r": ("+ (recevoir) demande la carte dans la fente de gauche L ; {card} est "
                        "dans R"),
        "slot.plus": "+ (recevoir) demande une carte dans la fente de gauche L",
        "slot.minus.l": ("\u2212 (payer) demande la carte qui paie dans la fente de droite R ; "
                         "{card} est dans L"),
        "slot.minus": "\u2212 (payer) demande une carte dans la fente de droite R",
        "slot.any": ("cette touche ne va pas avec les cartes ins\u00e9r\u00e9es : + demande L, "
                     "\u2212 demande R"),
        "entry.m-alone": ("M seul, c'est D\u00e9part, et demande une carte dans la fente de "
                          "gauche L ; pour des millions, tapez d'abord les chiffres : 2 . 5 M"),
        "entry.finished": ("{entry} est complet : rien ne peut suivre K ou M. Appuyez sur + ou "
                           "\u2212, ou sur C pour l'effacer"),
        "entry.point": "un montant a une seule virgule au plus",
        "entry.suffix-first": "tapez d'abord les chiffres, puis K ou M",
        "entry.digits": "un montant a 5 chiffres au plus",
        "entry.refused": ("{entry} ne peut pas prendre cette touche : un montant a 5 chiffres et "
                          "une virgule au plus, puis K ou M"),
        "entry.point-digits": ("apr\u00e8s un point tap\u00e9 en premier, 4 chiffres au plus : "
                               "le point prend une case \u00e0 lui"),
        "no-amount": "tapez d'abord un montant, puis + ou \u2212",
        "too-many-keys": ("trop de touches \u00e0 la fois : appuyez sur une seule touche \u00e0 "
                          "la fois"),
        "no-suffix": ("terminez le montant par K (milliers) ou M (millions) : {a} K ou "
                      "{b} M"),
        "too-fine": ("{entry} est plus fin que ce que compte l'appareil : les montants sont des "
                     "multiples de {step}"),
        "below-minimum": "{entry} est sous le plus petit montant en une fois, {least}",
        "above-maximum": ("{entry} d\u00e9passe le plus grand montant en une fois, {most} : "
                          "faites-le en deux fois"),
        "balance-limit": "{card} d\u00e9passerait {most}, le plus que tient un solde",
        "balance-limit.anon": "un solde d\u00e9passerait {most}, le plus que tient un solde",
        "no-game": ("Err6 : aucune copie valable de la partie n'a \u00e9t\u00e9 trouv\u00e9e. "
                    "Maintenez C 3 secondes pour une nouvelle partie, ou restaurez une "
                    "sauvegarde avec les outils de l'h\u00f4te"),
        "store-damaged": ("Err5 : la m\u00e9moire de l'appareil \u00e9tait ab\u00eem\u00e9e ; "
                          "il reprend la derni\u00e8re bonne copie de la partie. V\u00e9rifiez "
                          "les soldes ; une touche de l'appareil continue"),
        "store-failed": ("l'appareil n'a pas pu enregistrer dans sa m\u00e9moire, rien n'a "
                         "chang\u00e9 : r\u00e9essayez"),
        "slot-occupied": "la fente {slot} contient d\u00e9j\u00e0 {card} : retirez-la d'abord",
        "slot-occupied.anon": "cette fente contient d\u00e9j\u00e0 une carte",
        "card-in-use": ("{card} est d\u00e9j\u00e0 dans l'autre fente : une carte ne peut pas "
                        "se payer elle-m\u00eame"),
        "card-in-use.anon": "cette carte est d\u00e9j\u00e0 dans l'autre fente",
        "slot-empty": "la fente {slot} n'a pas de carte \u00e0 retirer",
        "slot-empty.anon": "cette fente est vide",
        "no-backup": "il n'y a pas de partie pr\u00e9c\u00e9dente \u00e0 reprendre",
        "game-damaged": ("la copie de cette partie pr\u00e9c\u00e9dente dans la m\u00e9moire de "
                         "l'appareil est ab\u00eem\u00e9e : elle ne peut pas \u00eatre "
                         "reprise"),
        "bad-key": ("l'appareil n'a pas compris (seulement ses 17 touches, les fentes L/R et "
                    "les cartes 1 \u00e0 6)"),
        "unknown-card": ("la puce de cette carte n'a pas encore de num\u00e9ro : en "
                         "maintenance, tapez son num\u00e9ro (1-6) et appuyez sur DEAL, la "
                         "carte pos\u00e9e sur le lecteur de gauche"),
        "no-tag": ("aucune carte ne r\u00e9pond sur le lecteur : posez-la bien \u00e0 plat "
                   "et r\u00e9essayez"),
        "not-writable": ("cette puce ne peut pas porter de num\u00e9ro de carte : prenez une "
                         "carte ou un badge MIFARE Classic avec sa cl\u00e9 d'origine, ou un "
                         "autocollant NTAG"),
        "write-failed": ("la puce n'a pas gard\u00e9 son num\u00e9ro : tenez-la immobile sur "
                         "le lecteur et r\u00e9essayez"),
        "maintenance-required": ("il faut le mode maintenance : maintenez DEAL 3 secondes sur "
                                 "l'appareil d'abord"),
        "unsupported": ("cet appareil lit ses cartes par contacts : le num\u00e9ro d'une carte "
                        "est dans ses encoches, d\u00e9coup\u00e9es, pas \u00e9crites"),
        "refused": "l'appareil a refus\u00e9 ({code})",
        "off": ("\u00e9teint de lui-m\u00eame apr\u00e8s une minute sans usage : la prochaine "
                "touche ne fait que le r\u00e9veiller, une carte le r\u00e9veille et compte"),
        "maintenance": ("mode maintenance : le banquier peut reprendre une partie ou "
                        "r\u00e9gler un solde ; DEAL maintenu 3 s pour rejouer"),
        "shows": "{card} : {amount}",
        "hold.c": ("C maintenu : nouvelle partie dans {s} s, chaque carte revient au "
                   "d\u00e9part ; l\u00e2chez maintenant pour un simple C"),
        "hold.deal.on": ("DEAL maintenu : mode maintenance dans {s} s ; l\u00e2chez maintenant "
                         "pour lancer seulement le minuteur des ench\u00e8res"),
        "hold.deal.off": ("DEAL maintenu : fin du mode maintenance dans {s} s ; l\u00e2chez "
                          "maintenant pour lancer seulement le minuteur des ench\u00e8res"),
        "note.undo": "C a annul\u00e9 n\u00b0{seq} : {amount} rendu de {src} \u00e0 {dst}",
        "note.undo.to-pot": "C a annul\u00e9 n\u00b0{seq} : {amount} rendu de {src} au pot",
        "note.undo.from-pot": "C a annul\u00e9 n\u00b0{seq} : {amount} rendu du pot \u00e0 {dst}",
        "note.new-game": "nouvelle partie : chaque carte revient \u00e0 {amount}",
        "note.woke": ("l'appareil \u00e9tait \u00e9teint : cette touche l'a seulement "
                      "r\u00e9veill\u00e9 ; appuyez de nouveau"),
        "note.woke.key": ("l'appareil \u00e9tait \u00e9teint : la touche {key} l'a seulement "
                          "r\u00e9veill\u00e9 ; appuyez de nouveau"),
        "panel.named": "{card} s'appelle {name}",
        "panel.unnamed": "{card} n'a plus de nom",
        "panel.name-refused": "le nom n'a pas \u00e9t\u00e9 gard\u00e9 : {why}",
        "name.long": "un nom a au plus {n} caract\u00e8res",
        "name.bytes": ("un nom tient en {n} octets au plus, et un \u00e9moji ou un caract\u00e8re "
                       "rare en prend 4"),
        "name.control": ("un nom ne peut pas contenir de caract\u00e8res de contr\u00f4le "
                         "(tabulation, saut de ligne, for\u00e7ages de direction)"),
        "panel.back": "la partie {game} est de retour",
        "panel.back-needs": ("reprendre une partie demande le mode maintenance : maintenez DEAL "
                             "3 secondes sur l'appareil, puis r\u00e9essayez"),
        "panel.back-refused": "la partie {game} n'a pas \u00e9t\u00e9 reprise : {why}",
        "panel.pot": "pot du Parc gratuit",
        "panel.pot-on": ("le pot du Parc gratuit est activ\u00e9 : une carte en R, un montant et "
                         "+ y mettent de l'argent"),
        "panel.pot-off": "le pot du Parc gratuit est d\u00e9sactiv\u00e9",
        "panel.pot-needs": ("activer ou d\u00e9sactiver le pot du Parc gratuit demande le mode "
                            "maintenance : maintenez DEAL 3 secondes sur l'appareil, puis "
                            "r\u00e9essayez"),
        "panel.pot-refused": "le pot du Parc gratuit n'a pas \u00e9t\u00e9 chang\u00e9 : {why}",
        "panel.every": "tous les joueurs",
        "term.help1": ("touches : 0-9 . m k c  +/= -  d/espace : DEAL   h puis une touche : la "
                       "maintenir 3 s   n : nouvelle partie (C maintenu 3 s)   S : maintenance "
                       "(DEAL maintenu 3 s)"),
        "term.hold-which": ("maintenir quelle touche 3 s ? + le d\u00e9compte, k l'horloge de "
                            "partie, - une faillite, c une nouvelle partie, d la maintenance "
                            "(\u00c9chap : laisser)"),
        "term.help2": ("cartes : l puis 1-6 = dans L, r puis 1-6 = dans R, L / R = retirer   "
                       "X : faillite (- maintenu 3 s)   b : banquier   f : English   q : "
                       "quitter"),
        "term.ask.c": ("commencer une NOUVELLE PARTIE ? chaque carte revient au d\u00e9part, "
                       "cette partie gard\u00e9e parmi les trois derni\u00e8res : y = oui, une "
                       "autre touche = non"),
        "term.ask.deal.on": ("maintenir DEAL 3 s pour le mode maintenance ? y = oui, une autre "
                             "touche = non"),
        "term.ask.deal.off": ("maintenir DEAL 3 s pour sortir du mode maintenance ? y = oui, "
                              "une autre touche = non"),
        "term.not-done": "rien n'a \u00e9t\u00e9 fait",
        "hold.count": ("+ maintenu : le d\u00e9compte dans {s} s (qui gagne) ; l\u00e2chez "
                       "maintenant et rien ne commence"),
        "hold.clock": ("K maintenu : l'horloge de partie dans {s} s, pour en taper les "
                       "minutes ; l\u00e2chez maintenant et rien ne s'ouvre"),
        "hold.bankrupt": ("- maintenu : la carte en R fait faillite dans {s} s, tout son solde "
                          "\u00e0 la carte en L ou \u00e0 la Banque ; l\u00e2chez maintenant et "
                          "rien ne bouge"),
        "term.card-into": ("carte dans {slot} : 1-6 (0 ou x : retirer, \u00c9chap : "
                           "laisser)"),
        "term.no-card": ("{key} n'est pas une carte : 1-6 dans {slot}, 0 ou x : retirer, "
                         "\u00c9chap : laisser"),
        "term.ask.minus": ("maintenir - 3 s : la carte en R fait FAILLITE, tout son solde \u00e0 "
                           "la carte en L (aucune : la Banque) ? y = oui, une autre touche = "
                           "non"),
        "term.minus.no-card": ("une faillite est celle de la carte en R : mettez d'abord la "
                               "carte du joueur en faillite en R (r, puis son num\u00e9ro)"),
        "term.holding": "{key} maintenu 3 s ...",
        "term.power.on": "allum\u00e9",
        "term.power.off": ("\u00e9teint (\u00e9cran noir) : la prochaine touche ne fait que le "
                           "r\u00e9veiller"),
        "term.slots": "fente L (cr\u00e9dit +) : {left}   fente R (d\u00e9bit -) : {right}",
        "term.empty": "vide",
        "term.sound": "son : {volume}   tonalit\u00e9 : {tone}   ench\u00e8res : {deal}",
        "term.entry": "saisie : {entry}",
        "term.balances": "-- banquier : soldes --",
        "term.recent": "-- derni\u00e8res op\u00e9rations --",
        "term.previous": "-- parties pr\u00e9c\u00e9dentes --",
        "term.serving": "sert {mode} {address}",
        "win.help": ("touches : 0-9 . m k c (c tenu : nouvelle partie)  d/espace : DEAL (tenu : "
                     "maintenance)  + -   F1-F6 : carte dans/hors de L  Maj+F1-F6 ou Ctrl+1-6 : "
                     "de R  b : banquier  F11 : grand \u00e9cran  F12 : English"),
        "win.panel": "banquier (b)",
        "win.large": "grand \u00e9cran (F11)",
        "win.whole": "appareil (F11)",
        "win.other-lang": "EN",
        "win.name-hint": "nommer une carte : tapez, puis Entr\u00e9e",
        "win.txns-of": "Op\u00e9rations de",
        "win.previous": "Parties pr\u00e9c\u00e9dentes",
        "win.none-kept": "(aucune gard\u00e9e)",
        "win.bring-back": "reprendre",
        "win.game": "partie {id} ({profile}), {n} op\u00e9rations",
        "win.game.one": "partie {id} ({profile}), {n} op\u00e9ration",
        "win.game.unknown": "partie {id} ({profile}), op\u00e9rations inconnues",
        "win.game.kept": "{game}, rang\u00e9e le {when}",
        "win.game.damaged": "partie {id} : ab\u00eem\u00e9e dans la m\u00e9moire de l'appareil",
        "win.game.lost": "elle ne peut pas \u00eatre reprise",
        "win.months": ("janv. f\u00e9vr. mars avr. mai juin juil. ao\u00fbt sept. oct. nov. "
                       "d\u00e9c."),
        "win.cards-hint": ("cartes : glissez-en une vers une fente, ou cliquez-la puis une "
                           "fente"),
        "win.slot.L": "L  cr\u00e9dit  +",
        "win.slot.R": "R  d\u00e9bit  -",
        "win.maintenance": "MAINTENANCE",
        "win.big.maintenance": "maintenance",
        "win.off-glass": "\u00e9teint : une touche ou une carte le r\u00e9veille",
        "win.pico": ("RP2040 \u00e9mul\u00e9 avec {image} ({kind}) : temps du Pico {t} s, "
                     "{pace}"),
        "win.pico.in-step": "au rythme du temps r\u00e9el",
        "win.pico.slower": "{x} fois plus lent que le temps r\u00e9el",
        "win.pico.booting": "d\u00e9marrage : l'image se lance",
        "win.pico.frozen": "le firmware int\u00e9gr\u00e9",
        "win.pico.files": "une image d'origine, les fichiers du firmware sur sa flash",
        "win.pico.help": ("touches : 0-9 . m k c (c tenu : nouvelle partie)  d/espace : DEAL  "
                          "+ -   F1-F6 : carte dans/hors de L  Maj+F1-F6 ou Ctrl+1-6 : "
                          "dans/hors de R  F12 : English. La puce fait tourner l'image, "
                          "jou\u00e9e \u00e0 ses broches : pas de panneau du banquier ici"),
        "page.hint": ("Touchez une carte, puis une fente (ou glissez-la). Touchez une carte "
                      "dans une fente pour la retirer."),
        "page.banker": "Banquier",
        "page.recent": "Derni\u00e8res op\u00e9rations",
        "page.none": "(aucune encore)",
        "page.console": "Console s\u00e9rie",
        "page.send": "Envoyer",
        "page.foot": ("Le micrologiciel de l'appareil lui-m\u00eame, dans le portage "
                      "WebAssembly de MicroPython."),
        "page.credit": "L cr\u00e9dit",
        "page.debit": "R d\u00e9bit",
        "page.name-for": "Nom de la carte {n} (vide : aucun)",
        "page.bad-profile": ("Cette page ne peut pas d\u00e9marrer avec ?profile={profile} : "
                             "la monnaie est l'une de {names}, par exemple ?profile=classic. "
                             "Rien n'a \u00e9t\u00e9 chang\u00e9."),
        "page.bad-game": ("Cette page ne peut pas ouvrir la partie \u00ab {name} \u00bb : le nom "
                          "d'une partie (?game=NOM) a de 1 \u00e0 32 lettres minuscules a\u2013z, "
                          "chiffres ou \u00ab - \u00bb, par exemple ?game=famille. Rien n'a "
                          "\u00e9t\u00e9 lu ni gard\u00e9."),
        "page.bad-seed": ("Cette page ne peut pas d\u00e9marrer avec ?seed={seed} : une graine "
                          "est un nombre entier de 1 \u00e0 9 chiffres, par exemple ?seed=7. "
                          "Rien n'a \u00e9t\u00e9 lu ni gard\u00e9."),
        "page.bad-option": ("Cette page ne peut pas d\u00e9marrer avec ?{option}={value} : la "
                            "valeur est l'une de {allowed}. Rien n'a \u00e9t\u00e9 lu ni "
                            "gard\u00e9."),
        "page.loading": "Chargement de l'appareil\u2026 {n} %",
        "page.starting": "D\u00e9marrage de l'appareil\u2026",
        "page.failed": "L'appareil n'a pas pu d\u00e9marrer : {why}",
        "page.notice.waiting": ("Cette partie est ouverte dans un autre onglet ou une autre "
                                "fen\u00eatre de ce navigateur. Un seul onglet \u00e0 la fois la "
                                "joue, pour qu'aucun paiement ne se perde entre eux. Elle "
                                "d\u00e9marre ici quand l'autre se ferme, ou tout de suite si "
                                "vous la reprenez."),
        "page.notice.moved": ("Cette partie se joue maintenant dans un autre onglet ou une autre "
                              "fen\u00eatre de ce navigateur. Cet onglet s'est arr\u00eat\u00e9, "
                              "pour que les deux ne prennent jamais de paiements pour la "
                              "m\u00eame partie : rien n'a \u00e9t\u00e9 perdu."),
        "page.notice.taken": ("Un autre onglet ou une autre fen\u00eatre de ce navigateur a "
                              "repris cette partie. Cet onglet s'est arr\u00eat\u00e9, pour que "
                              "les deux ne prennent jamais de paiements pour la m\u00eame "
                              "partie."),
        "page.notice.asking": "On demande \u00e0 l'autre onglet de laisser cette partie\u2026",
        "page.take-over": "Jouer ici plut\u00f4t",
        "page.ask": ("Ce lien demande de changer la partie gard\u00e9e dans ce navigateur : "
                     "{what}. Un lien sur n'importe quelle page web peut le demander : la "
                     "partie ne change que si vous le dites."),
        "page.ask.profile": ("une nouvelle partie avec la monnaie {profile} (la partie en cours "
                             "est gard\u00e9e parmi les parties pr\u00e9c\u00e9dentes)"),
        "page.ask.pot-on": "le pot du Parc gratuit activ\u00e9",
        "page.ask.pot-off": "le pot du Parc gratuit d\u00e9sactiv\u00e9",
        "page.ask.maintenance": ("le mode maintenance (parties reprises et soldes "
                                 "fix\u00e9s depuis la page et les outils de l'h\u00f4te)"),
        "page.ask.clock": ("le temps arr\u00eat\u00e9 (une horloge virtuelle : le minuteur "
                           "des ench\u00e8res, l'horloge de partie et la mise en veille "
                           "attendent ADVANCE)"),
        "page.ask.change": "Changer la partie",
        "page.ask.keep": "Garder la partie telle quelle",
        "page.lang": "Langue",
        "deal.idle": "arr\u00eat\u00e9es",
        "deal.run": "en cours",
        "deal.end": "se terminent",
        "deal.over": "termin\u00e9es",
        "term.front-end": "interface en terminal",
        "term.no-display": "pas d'\u00e9cran graphique : interface en terminal",
        "term.no-window": "\u00e9cran graphique injoignable : interface en terminal",
        "deal.running": "ench\u00e8res : en cours",
        "deal.ending": "ench\u00e8res : se terminent",
        "deal.done": "ench\u00e8res : termin\u00e9es",
        "win.deal-key": "DEAL  (ench\u00e8res)",
        "tone.click": "clic",
        "tone.card": "carte",
        "tone.money-in": "argent re\u00e7u",
        "tone.money-out": "argent pay\u00e9",
        "tone.error": "erreur",
        "tone.new-game": "nouvelle partie",
        "tone.deal-warning": "fin des ench\u00e8res proche",
        "tone.deal-end": "ench\u00e8res termin\u00e9es",
        "tone.winner": "vainqueur",
        "tone.clock-warning": "fin de partie proche",
        "tone.clock-end": "fin de partie",
        "table.title": "\u00c0 la table",
        "table.pick": "Qui \u00eates-vous ? Touchez votre carte.",
        "table.change": "Pas vous ?",
        "table.history": "Mes op\u00e9rations",
        "table.standings": "Classement",
        "table.none": "Aucune op\u00e9ration pour vous encore dans cette partie.",
        "table.from": "de {who}",
        "table.to": "\u00e0 {who}",
        "table.go": "salaire du D\u00e9part, de la Banque",
        "table.set": "solde r\u00e9gl\u00e9 par le banquier",
        "table.restore": "une partie gard\u00e9e reprise",
        "table.after": "puis {amount}",
        "table.you": "vous",
        "table.live": "en direct",
        "table.not-live": "pas connect\u00e9",
        "table.connecting": "Connexion \u00e0 la table\u2026",
        "table.offline": ("Pas connect\u00e9 : voici ce que disait la table \u00e0 {time}. "
                          "Nouvel essai\u2026"),
        "table.gone": ("L'appareil ne r\u00e9pond pas (d\u00e9branch\u00e9, en red\u00e9marrage "
                       "ou sa page ferm\u00e9e) : voici les derniers soldes qu'il a donn\u00e9s. "
                       "Cette page revient d'elle-m\u00eame."),
        "table.waiting": ("En attente de l'appareil : les soldes s'affichent d\u00e8s qu'il "
                          "r\u00e9pond."),
        "table.off": ("L'appareil est \u00e9teint : une touche ou une carte le "
                      "r\u00e9veille."),
        "table.maintenance": ("L'appareil est en mode maintenance : le banquier peut "
                              "r\u00e9gler les soldes."),
        "table.damaged": ("L'appareil a trouv\u00e9 sa partie gard\u00e9e ab\u00eem\u00e9e et "
                          "continue depuis la derni\u00e8re bonne copie : le banquier doit "
                          "v\u00e9rifier les soldes."),
        "table.no-game": ("L'appareil n'a trouv\u00e9 aucune bonne copie de la partie : le "
                          "banquier lance une nouvelle partie ou en reprend une gard\u00e9e."),
        "table.read-only": ("Lecture seule : le banquier fait les op\u00e9rations sur "
                            "l'appareil."),
        "table.to-pot": "au pot du Parc gratuit",
        "table.from-pot": "du pot du Parc gratuit",
        "table.count": "Le d\u00e9compte",
        "page.own-unit": ("Ce t\u00e9l\u00e9phone est un appareil \u00e0 part ; scannez le code "
                          "de la table pour suivre la partie."),
        "page.label.slot-L": "fente gauche (cr\u00e9dit +)",
        "page.label.slot-R": "fente droite (d\u00e9bit \u2212)",
        "page.label.card": "carte {n}",
        "page.label.display": "\u00e9cran : {text}",
        "page.label.off": "\u00e9teint",
        "page.label.volume": "volume {n}",
        "page.label.red": "voyant rouge",
        "page.label.green": "voyant vert",
        "page.label.plus": "plus",
        "page.label.minus": "moins",
        "page.label.name": "joueur de la carte {n} : {name} (toucher pour changer)",
        "page.label.no-name": "sans nom",
        "term.table": "t\u00e9l\u00e9phones \u00e0 la table : {url} (t : son code QR)",
        "term.table-back": "t : retour \u00e0 l'appareil",
    },
}


# -- the language ----------------------------------------------------------------------------

def lang_of(text):
    """'fr' from 'fr_FR.UTF-8', 'fr-CA', 'fr'; 'en' from 'en_GB', 'C', '' or anything else."""
    code = (text or "").strip().lower()[:2]
    return code if code in LANGS else "en"


def lang_from_env(environ):
    """The system's language, as gettext reads it: LC_ALL, then LC_MESSAGES, then LANG (the
    first one set and not empty)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return lang_of(value)
    return "en"


def set_lang(code):
    """Speak `code` from now on ('en' or 'fr'); anything else is refused with a ValueError."""
    if code not in LANGS:
        raise ValueError("unknown language %s (%s)" % (code, ", ".join(LANGS)))
    _lang[0] = code


def lang():
    return _lang[0]


def sentences(kinds, also=(), lang=None):
    """{sentence id: text} in lang (the one set when None) of a surface: the ids of the kinds
    it speaks ("page.": page.*), and those in also. The page and the table view are given
    theirs so."""
    return {k: v for k, v in TEXTS[lang or _lang[0]].items()
            if k[:k.find(".") + 1] in kinds or k in also}


def say(sid, lang=None, **fields):
    """The sentence `sid` in `lang` (the one set when None), its {fields} filled."""
    return TEXTS[lang or _lang[0]][sid].format(**fields)


# -- amounts, cards, the log -----------------------------------------------------------------

def _profile(profile):
    if profile is None or isinstance(profile, str):
        return profiles.get(profile or profiles.DEFAULT) or profiles.get(profiles.DEFAULT)
    return profile


def amount(value, profile=None):
    """An amount as the unit's display puts it, in one line: '14.5 M', '150 k', '1500'; one
    past its five cells (B1: `-----`) whole, '100,015,000,000'."""
    text, k, m = money.fmt(value, _profile(profile))
    if text == "-----":
        return grouped(value)
    return text + (" M" if m else " k" if k else "")


NO_BALANCE = "\u2014"  # a balance where the unit has no good copy of the game (Err6, B17)
GROUP = {"en": ",", "fr": "\u202f"}  # French groups digits with a narrow no-break space


def grouped(value, lang=None):
    """1500000 -> '1,500,000' in English, '1\u202f500\u202f000' in French (the banker panel's
    whole amounts)."""
    sep = GROUP[lang or _lang[0]]
    s = str(value)
    neg = s.startswith("-")
    if neg:
        s = s[1:]
    out = ""
    while len(s) > 3:
        out = sep + s[-3:] + out
        s = s[:-3]
    return ("-" if neg else "") + s + out


def tone_name(name, lang=None):
    """A tone's name in the language ('clic' for click in French); a name not the firmware's
    (the --pico window's '3000 Hz') as it is."""
    return TEXTS[lang or _lang[0]].get("tone." + name, name)


def decimal(value, lang=None):
    """A measure with one decimal, as the language writes it: '12.3' in English, '12,3' in
    French."""
    text = "%.1f" % value
    return text.replace(".", ",") if (lang or _lang[0]) == "fr" else text


def woke(key, lang=None):
    """What a key that only woke the unit says (B16): the key named, but for DEAL (a word)."""
    return say("note.woke", lang) if len(key) > 1 else say("note.woke.key", lang, key=key)


def who(card, names=None, lang=None):
    """'card 3', or 'Ann (card 3)' when the banker named it."""
    name = names.get(card) if names else None
    if name:
        return say("named", lang, name=name, n=card)
    return say("card", lang, n=card)


def name_refused(text, lang=None):
    """Why the unit would refuse text as a name, in a sentence (the unit's own check,
    protocol/names.py), or None if it takes it."""
    from protocol import names

    why = names.refusal(text)
    if why is None:
        return None
    n = names.MAX_BYTES if why == "bytes" else names.MAX_LEN
    return say("name." + why, lang, n=n)


def typed(entry):
    """The entry as a player reads it: '2.5M' -> '2.5 M'."""
    if entry and entry[-1] in "KM":
        return entry[:-1] + " " + entry[-1]
    return entry


def txn_line(rec, profile=None, names=None, lang=None):
    """A log record in one short line: '#7 transfer 3>1 250 k' ('Ann>1' with names, a dict
    card -> the name the banker gave it). rec: the ledger's record (brain/ledger.py's layout:
    seq, kind, from, to, amount, undoes, ...)."""
    seq, kind, src, dst, value, undoes = rec[SEQ], rec[KIND], rec[FROM], rec[TO], \
        rec[AMOUNT], rec[UNDOES]

    def side(c):
        if not c:
            return say("bank.short", lang)
        if c == POT:
            return say("pot.short", lang)
        return (names or {}).get(c) or str(c)

    texts = TEXTS[lang or _lang[0]]
    if kind == "restore":  # no money moved: the game it brought back is the news
        return say("txn.restore", lang, seq=seq)
    line = "#%d %s %s>%s %s" % (seq, texts.get("kind." + kind, kind), side(src), side(dst),
                                amount(value, profile))
    if undoes:
        line += say("txn.undoes", lang, seq=undoes)
    return line


# -- refusals --------------------------------------------------------------------------------

def explain(code, entry="", slots=None, balances=None, profile=None, key=None, names=None,
            lang=None):
    """The sentence for a refusal `code`.

    entry: the keys typed (the unit keeps them after a refused commit); slots: {'L': card or
    None, 'R': ...}; balances: {card: amount}; profile: a profiles.Profile or its name; key:
    the key that was refused ('+', '-', 'M', a digit, ...), or the slot a card went to; names:
    {card: name} of the cards the banker named.
    """
    slots = slots or {"L": None, "R": None}
    balances = balances or {}
    profile = _profile(profile)
    left, right = slots.get("L"), slots.get("R")

    def s(k, **fields):
        return say(k, lang, **fields)

    def amt(v):
        return amount(v, profile)

    def card(n):
        return who(n, names, lang)

    if code == "insufficient-funds":
        if key == "C":
            return s("undo.short")
        value, _err = money.parse(entry, profile, False)
        if right is not None and value is not None and right in balances:
            return s("pay.short", card=card(right), amount=amt(value), has=amt(balances[right]))
        return s("pay.short.anon")
    if code == "go-taken":
        return s("go.taken", card=card(left) if left else s("this-card"), go=amt(profile.go))
    if code == "wrong-slot":
        if key == "M":
            return s("slot.go")
        if key == "+" and left is not None and right is not None:
            return s("slot.two", right=card(right), left=card(left))
        if key == "+":
            return s("slot.plus.r", card=card(right)) if right else s("slot.plus")
        if key == "-":
            return s("slot.minus.l", card=card(left)) if left else s("slot.minus")
        return s("slot.any")
    if code == "bad-entry":
        if key == "M" and not entry:
            return s("entry.m-alone")
        if entry and entry[-1] in "KM":
            return s("entry.finished", entry=typed(entry))
        if key is None:  # a host that only read STATE (bank status): which key is not known
            return s("entry.refused", entry=entry) if entry else s("entry.suffix-first")
        if key == ".":
            return s("entry.point")
        if key in ("K", "M"):
            return s("entry.suffix-first")
        return s("entry.point-digits" if entry[:1] == "." else "entry.digits")
    if code == "no-suffix":
        return s("no-suffix", a=entry or "150", b=entry or "2")
    if code == "too-fine":
        return s("too-fine", entry=typed(entry), step=amt(profile.resolution))
    if code == "below-minimum":
        return s("below-minimum", entry=typed(entry), least=amt(profile.minimum))
    if code == "above-maximum":
        return s("above-maximum", entry=typed(entry), most=amt(profile.maximum))
    if code == "balance-limit":  # the card that would receive it is the one on the left
        most = grouped(MOST)
        return s("balance-limit", card=card(left), most=most) if left else s(
            "balance-limit.anon", most=most)
    if code in ("no-amount", "no-game", "store-damaged", "store-failed", "no-backup",
                "game-damaged", "counting", "no-count", "no-clock", "pot-empty", "unknown-card",
                "no-tag", "not-writable", "write-failed", "maintenance-required", "unsupported",
                "too-many-keys"):
        return s(code)
    if code == "pot-not-empty":
        return s(code, amount=amt(balances[POT])) if POT in balances else s(
            "pot-not-empty.anon")
    if code == "no-balance":
        return s(code, card=card(right)) if right else s("no-balance.anon")
    if code == "slot-occupied":
        held = slots.get(key)
        return s("slot-occupied", slot=key, card=card(held)) if held else s(
            "slot-occupied.anon")
    if code == "card-in-use":
        other = slots.get("R" if key == "L" else "L")
        return s("card-in-use", card=card(other)) if other else s("card-in-use.anon")
    if code == "slot-empty":
        return s("slot-empty", slot=key) if key else s("slot-empty.anon")
    if code in ("bad-key", "bad-argument"):
        return s("bad-key")
    return s("refused", code=code)


def on_display(text):
    """The code behind an error the display shows by itself (Err1, Err5, Err6), or None."""
    return {"Err1": "insufficient-funds", "Err5": "store-damaged", "Err6": "no-game"}.get(text)


def refused(unit, key=None, names=None, balances=None, lang=None):
    """What the unit refused last, or the error its display shows by itself, in a sentence;
    '' when there is none. The window, the terminal and the page all say this line, so the
    same unit state gives the same sentence in each. key: the key just pressed."""
    led = unit.ledger
    if balances is None:
        balances = {c: led.bal[c] for c in range(1, CARDS + 1)}
    code = unit.error
    if code == "store-damaged" and not led.ready:
        code = "no-game"  # damaged with no good copy at all (Err6): none is in use
    if code:
        return explain(code, unit.entry, unit.slots, balances, led.profile, key, names, lang)
    shown = on_display(unit.display()[0])
    if shown and shown != "insufficient-funds":
        return explain(shown, lang=lang)
    return ""


def state_refusal(state, profile=None, balances=None, names=None, lang=None, key=None):
    """STATE's `error` (a host's view of the unit) in the same words, or None when the unit
    refused nothing. balances: {card: amount}, when the host read them; key: the last key the
    host pressed, which the refusal is about."""
    code = state.get("error")
    if not code:
        return None
    return explain(code, state.get("entry") or "", state.get("slots"), balances, profile,
                   key, names, lang)


def txn_note(txn, profile=None, names=None, lang=None):
    """What a host's `! txn` event did that the display alone does not say (an undo, a
    bankruptcy, the pot collected), as note() says it on the window; None for the rest."""
    def account(side):  # the ledger's number of a side, or None for none of the unit's
        if side in ("pot", "bank"):
            return POT if side == "pot" else 0
        return side if type(side) is int and 1 <= side <= CARDS else None

    rec = [txn.get("seq"), txn.get("kind"), account(txn.get("from")), account(txn.get("to")),
           txn.get("amount"), None, None, txn.get("undoes"), None]
    if (rec[KIND] not in ("undo", "bankrupt", "pot-out") or None in (rec[FROM], rec[TO])
            or [x for x in (rec[AMOUNT], rec[SEQ], rec[UNDOES] if rec[KIND] == "undo" else 0)
                if type(x) is not int]
            or not 0 <= rec[AMOUNT] <= MOST):
        return None  # a reply the unit would not send: said by its balance alone
    return note("txn", rec, _profile(profile), names, lang)


def note(kind, arg, profile, names=None, lang=None):
    """What the unit did by itself, from its listeners' event (kind, arg): an undo, a new game
    say so; another transaction or a switch-off ends the last note (''); None: no change."""
    def side(c):
        if c == POT:
            return say("pot.short", lang)
        return who(c, names, lang) if c else say("bank", lang)

    if kind == "txn" and arg[KIND] in ("undo", "bankrupt", "pot-out"):
        value = amount(arg[AMOUNT], profile)
        if arg[KIND] == "undo":
            sid = "note.undo.to-pot" if arg[TO] == POT else "note.undo.from-pot" \
                if arg[FROM] == POT else "note.undo"  # the pot with its article (au, du)
            return say(sid, lang, seq=arg[UNDOES], amount=value, src=side(arg[FROM]),
                       dst=side(arg[TO]))
        return say("note." + arg[KIND], lang, amount=value, src=side(arg[FROM]),
                   dst=side(arg[TO]))
    if kind == "txn" or (kind == "power" and arg == "off"):
        return ""
    if kind == "game":
        return say("note.new-game", lang, amount=amount(profile.start, profile))
    return None


# The keys whose 3 s hold does something: C, DEAL, and game night's while the unit holds one.
HOLDS = ("C", "DEAL", "+", "-", "K")


def holding(unit, key, held_ms, lang=None):
    """What holding `key` down on the unit's keypad for held_ms will do, and in how long: C a
    new game, DEAL maintenance mode on or off, + the count, K the game clock, - a bankruptcy
    (game night's, while the unit counts their hold: unit.held); '' for another key, once it
    is done, or with the unit off. The window and the page count it down under the unit."""
    night = unit.held is not None and unit.held[0] == key
    if not (key in ("C", "DEAL") or night) or not unit.power:
        return ""
    left = unit.hold_ms - held_ms
    if left <= 0:
        return ""
    s = decimal(left / 1000.0, lang)
    if key == "C":
        return say("hold.c", lang, s=s)
    if night:
        return say({"+": "hold.count", "K": "hold.clock", "-": "hold.bankrupt"}[key], lang, s=s)
    return say("hold.deal.off" if unit.maintenance else "hold.deal.on", lang, s=s)


def under_unit(unit, status="", key=None, names=None, hold="", note="", lang=None):
    """The line under the unit, as the window and the page say it: what the front end itself
    was told (a refused card movement, a game brought back: `status`), else the unit's refusal,
    else a hold counting down (`hold`, from holding()), else what the unit just did by itself
    (`note`, from note()), else the mode it is in."""
    if status:
        return status
    said = refused(unit, key, names, lang=lang)
    if said:
        return said
    if hold:
        return hold
    if unit.power and note:
        return note
    return what_now(unit, lang, names)


def game_number(game):
    """The one number a person knows a kept game by (an entry of GAMES' list): its `number`
    (game 1, 2, ... in the order the games were started), or its id from a firmware that
    numbers none. The window, the page and the host tools list it, and say it back."""
    return game.get("number") or game.get("id")


# The counts a noun is singular for: in English one alone, in French one and none.
SINGULAR = {"en": (1,), "fr": (0, 1)}


def kept_game(game, names=None, lang=None):
    """A kept game of GAMES' list in words: its head ('game 2 (world), 38 transactions, put away
    03 Dec 14:05': its game_number, and when it was put away where the unit knew the time) and
    who had what at the end ('Ann 21 M', '2 9.5 M', ...), the banker's names for the cards; a
    damaged one, only that it cannot be brought back."""
    prof = game.get("profile") or profiles.DEFAULT
    n = game.get("transactions")
    number = game_number(game)
    if game.get("damaged"):
        return say("win.game.damaged", lang, id=number), [say("win.game.lost", lang)]
    if isinstance(n, int):
        one = n in SINGULAR[lang or _lang[0]]
        head = say("win.game.one" if one else "win.game", lang, id=number, profile=prof, n=n)
    else:
        head = say("win.game.unknown", lang, id=number, profile=prof)
    kept = game.get("kept")
    if isinstance(kept, int) and not isinstance(kept, bool):
        head = say("win.game.kept", lang, game=head, when=when(kept, lang))
    bal = game.get("balances") or {}
    parts = ["%s %s" % ((names or {}).get(int(c)) or c, amount(v, prof))
             for c, v in sorted(bal.items()) if isinstance(v, int)]
    return head, parts


def brought_back(game, reply, lang=None):
    """What a banker panel's "bring back" says of RESTORE GAME's reply for a kept game of
    GAMES' list: the game by the number the panel listed it by."""
    if reply.startswith("OK"):
        return say("panel.back", lang, game=game_number(game))
    if reply.split()[1:2] == ["maintenance-required"]:
        return say("panel.back-needs", lang)
    return say("panel.back-refused", lang, game=game_number(game), why=reply[4:])


def pot_switched(on, reply, pot=0, profile=None, lang=None):
    """What a banker panel's pot switch says of SET POT's reply (B22): on, off, or the unit's
    refusal in words (maintenance mode needed; the money in it to collect first, `pot`)."""
    if reply.startswith("OK"):
        return say("panel.pot-on" if on else "panel.pot-off", lang)
    code = (reply.split() + [""])[1]
    if code == "maintenance-required":
        return say("panel.pot-needs", lang)
    if code == "pot-not-empty":
        return explain(code, balances={POT: pot}, profile=profile, lang=lang)
    return say("panel.pot-refused", lang, why=reply[4:])


def when(t, lang=None):
    """Seconds since 1970 as the day and time here: '03 Dec 14:05' (strftime's "%d %b %H:%M",
    which MicroPython has not), the month in the language's words."""
    import time

    local = getattr(time, "localtime", time.gmtime)(t)
    month = say("win.months", lang).split()[local[1] - 1]
    return "%02d %s %02d:%02d" % (local[2], month, local[3], local[4])


def what_now(unit, lang=None, names=None):
    """The unit's own state in words when nothing was refused: switched off, maintenance, game
    night's pot, clock and count (night()); with two cards in, whose balance the display shows
    (the payer's, or the payee's after a transfer: B3, B6), while it shows it."""
    if not unit.power:
        return say("off", lang)
    from brain import night as brain_night

    pot, clock, count = brain_night.state(unit)
    said = night(pot, _plain(clock), _plain(count), unit.ledger.profile, names, lang)
    if unit.maintenance:
        said.insert(0, say("maintenance", lang))
        return "  \u00b7  ".join(said)
    slots = unit.slots
    card = unit.shown_card()
    if slots["L"] and slots["R"] and card and not unit.entry:
        bal = unit.ledger.bal[card]
        if unit.display() == money.fmt(bal, unit.ledger.profile):
            said.insert(0, say("shows", lang, card=who(card, names, lang),
                               amount=amount(bal, unit.ledger.profile)))
    return "  \u00b7  ".join(said)


def _plain(pairs):
    """STATE's JSON pairs (brain/night.py's state) as the dict a host reads."""
    if not isinstance(pairs, tuple):
        return pairs
    return dict((k, _plain(v)) for k, v in pairs)


def night(pot, clock, count, profile=None, names=None, lang=None):
    """Game night in sentences, from STATE's "pot", "clock" and "count" (a host's, or a unit's:
    what_now): the pot's money, the time left, the count by the players' names and who wins;
    [] when none of it is on. names: {card: name}."""
    out = []
    if pot is not None:
        out.append(say("night.pot", lang, amount=amount(pot, profile)))
    if clock:
        m = minutes_left(clock.get("left") or 0)
        if clock.get("over"):
            out.append(say("night.clock.over", lang))
        else:
            out.append(say("night.clock" if clock.get("running") else "night.clock.stopped",
                           lang, n=m))
    if count and count.get("on"):
        out.append(counted(count, profile, names, lang))
    return out


def minutes_left(left):
    """The game clock's milliseconds left as the minutes said (B20): whole minutes, rounded up,
    so that "1 min left" lasts until the end."""
    return (left + 59999) // 60000


def counted(count, profile=None, names=None, lang=None):
    """The count in one sentence: each card by its player's name, richest first, and who wins
    (they who share first place when they tie)."""
    from brain.count import ranking

    cards = count.get("cards") or {}
    rows = ranking([(int(c), n) for c, n in cards.items()])
    if not rows:
        return say("night.count.none", lang)
    listed = ", ".join("%d. %s %s" % (r[0], who(r[1], names, lang), amount(r[2], profile))
                       for r in rows)
    first = [who(r[1], names, lang) for r in rows if r[0] == 1]
    best = amount(rows[0][2], profile)
    end = say("night.winner", lang, who=first[0], amount=best) if len(first) == 1 else say(
        "night.tie", lang, who=say("night.and", lang).join(first), amount=best)
    return say("night.count", lang, rows=listed) + "; " + end
