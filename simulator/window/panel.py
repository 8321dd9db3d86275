"""The banker panel: the cards' names (NAME), their balances, the Free Parking pot's switch
(SET POT), the log by player and the previous games (GAMES, RESTORE GAME), spoken to the unit in
the protocol on a line of its own, as a host tool would.
"""

import json

import tkinter as tk

from brain.ledger import CARDS, FROM, POT, TO
from desktop import words
from desktop.reads import LOG_KEPT
from simulator.window.layout import CARD_COLOURS

NAME_MAX = 16  # names.MAX_LEN: the unit refuses longer ones
NAME_SHOWN = 12  # the name field's width in characters: a longer name scrolls in it
COLUMN_CHARS = 36  # the log's width, and the previous games' beside it
LOG_LINES = 12  # the log's height where the screen has room (sizes.py may make it shorter)


class BankerPanel:
    """The Window's banker panel in `self.panel` (app.py builds the frame)."""

    def _build_panel(self, p):
        bg = "#f5f1e6"
        title = self._font("panel-title", 14, "bold")
        head = self._font("panel-head", 11, "bold")
        text = self._font("panel", 11)
        mono = self._font("panel-mono", 11, family="Courier")
        small = self._font("panel-small", 10, family="Courier")
        self.worded(tk.Label(p, font=title, bg=bg), "page.banker").pack(anchor="w")
        # Two columns: the players and their log, and the previous games beside them; one
        # under the other would not fit a small screen's height.
        cols = tk.Frame(p, bg=bg)
        cols.pack(fill="both", expand=True)
        left = tk.Frame(cols, bg=bg)
        left.pack(side="left", fill="both", expand=True)
        right = tk.Frame(cols, bg=bg)
        right.pack(side="left", fill="y", padx=(14, 0))
        p = left
        grid = tk.Frame(p, bg=bg)
        grid.pack(anchor="w", pady=(6, 4))
        self.bal_labels = {}
        self.name_entries = {}
        for n in range(1, CARDS + 1):
            tk.Label(grid, text=" %d " % n, bg=CARD_COLOURS[n], fg="white", font=head).grid(
                row=n, column=0, sticky="w", pady=1)
            # The banker names the card here (NAME, kept with the game); Return keeps it.
            ent = tk.Entry(grid, width=NAME_SHOWN, font=text, relief="flat", bg="#fffdf7")
            ent.grid(row=n, column=1, sticky="w", padx=(6, 0))
            ent.bind("<Return>", lambda ev, n=n: self.name_card(n, ev.widget.get()))
            ent.bind("<KP_Enter>", lambda ev, n=n: self.name_card(n, ev.widget.get()))
            ent.bind("<Escape>", lambda ev: self._entry_given_up())
            self.name_entries[n] = ent
            lab = tk.Label(grid, text="", bg=bg, font=mono, anchor="e", width=11)
            lab.grid(row=n, column=2, sticky="e", padx=(6, 4))
            short = tk.Label(grid, text="", bg=bg, fg="#555555", font=small, anchor="w", width=8)
            short.grid(row=n, column=3, sticky="w")
            self.bal_labels[n] = (lab, short)
        # The Free Parking pot (B22), an account under the cards': its switch asks the unit, as
        # a host's SET POT does, and shows what the unit keeps (a refusal leaves it as it was).
        self.pot_var = tk.BooleanVar(master=self.root, value=False)
        self.pot_switch = self.worded(tk.Checkbutton(
            grid, variable=self.pot_var, command=self.switch_pot, bg=bg, font=text, anchor="w",
            takefocus=0, highlightthickness=0, activebackground=bg), "panel.pot")
        self.pot_switch.grid(row=CARDS + 1, column=0, columnspan=2, sticky="w", pady=(3, 0))
        lab = tk.Label(grid, text="", bg=bg, font=mono, anchor="e", width=11)
        lab.grid(row=CARDS + 1, column=2, sticky="e", padx=(6, 4), pady=(3, 0))
        short = tk.Label(grid, text="", bg=bg, fg="#555555", font=small, anchor="w", width=8)
        short.grid(row=CARDS + 1, column=3, sticky="w", pady=(3, 0))
        self.pot_labels = (lab, short)
        self.worded(tk.Label(p, bg=bg, fg="#777777", font=self._font("panel-hint", 9)),
                    "win.name-hint").pack(anchor="w")
        top = tk.Frame(p, bg=bg)
        top.pack(anchor="w", fill="x", pady=(8, 0))
        self.worded(tk.Label(top, font=head, bg=bg), "win.txns-of").pack(side="left")
        self.filter_var = tk.StringVar(master=self.root, value=words.say("panel.every"))
        self.filter_menu = tk.OptionMenu(top, self.filter_var, words.say("panel.every"))
        self.filter_menu.configure(font=text, takefocus=0, highlightthickness=0)
        self.filter_menu.pack(side="left", padx=(6, 0))
        self.log_text = tk.Text(p, width=COLUMN_CHARS, height=LOG_LINES, font=small,
                                bg="#fffdf7", relief="flat", state="disabled", takefocus=0)
        self.log_text.pack(anchor="w", fill="both", expand=True)
        self.worded(tk.Label(right, font=head, bg=bg), "win.previous").pack(anchor="w",
                                                                            pady=(6, 0))
        self.games_frame = tk.Frame(right, bg=bg)
        self.games_frame.pack(anchor="w", fill="x")
        # The column keeps its width with no game kept yet: the window is sized with it.
        tk.Frame(right, bg=bg, height=1, width=small.measure("0" * COLUMN_CHARS)).pack()
        self._panel_key = None

    # -- names ---------------------------------------------------------------------------------

    def ask(self, line):
        """One protocol line from the banker panel: (ok, payload or the ERR line)."""
        reply = self.desk.handle(line)[-1]
        if reply == "OK":
            return True, None
        if reply.startswith("OK "):
            return True, json.loads(reply[3:])
        return False, reply

    def read_names(self):
        ok, got = self.ask("NAMES")
        # Only the cards: a damaged names file adds "store": "damaged" (B17)
        self.names = {int(k): v for k, v in got.items() if v and k.isdigit()} if ok else {}
        return self.names

    def name_card(self, card, text):
        """The banker panel's NAME: the unit keeps it with the game (protocol/names.py)."""
        # Spaces only, as the unit splits words: a wide space is part of a name
        text = " ".join(w for w in text.split(" ") if w)
        said = words.name_refused(text)
        if said:  # the unit's check, said in the player's language; nothing is sent
            ok, got = False, ""
        else:
            ok, got = self.ask("NAME %d %s" % (card, text) if text else "NAME %d" % card)
        if said:
            self.status = words.say("panel.name-refused", why=said)
        elif ok:
            self.names = {int(k): v for k, v in got.items() if v and k.isdigit()}
            self.status = words.say("panel.named", card=words.who(card), name=text) if text \
                else words.say("panel.unnamed", card=words.who(card))
        else:
            self.status = words.say("panel.name-refused", why=got.split(" ", 2)[-1])
        if ok:
            self._entry_done()
        # else the text typed stays in its field, to be mended (Escape gives it up)
        self._panel_key = None
        self.refresh()
        return ok

    def switch_pot(self):
        """The pot's switch, as the banker ticked it: SET POT on the panel's line (maintenance
        mode, B22); what the unit answered said in words, the switch showing what it keeps."""
        on = bool(self.pot_var.get())
        ok, got = self.ask("SET POT %s" % ("ON" if on else "OFF"))
        led = self.unit.ledger
        self.status = words.pot_switched(on, "OK" if ok else got, led.bal[POT], led.profile)
        self._panel_key = None
        self.refresh()
        return ok

    def _entry_done(self):
        self.root.focus_set()  # the keyboard goes back to the unit

    def _entry_given_up(self):
        self._entry_done()
        self._panel_key = None  # the field shows the name kept again
        self.refresh()

    # -- the panel -----------------------------------------------------------------------------

    def toggle_panel(self):
        if self.panel_shown:
            self.panel.pack_forget()
        else:
            # Packed first, the panel keeps its room and the unit gives way when the screen
            # cannot take both at their size.
            self.panel.pack(side="right", fill="y", before=self.main)
        self.panel_shown = not self.panel_shown
        self._make_room(self.panel, self.panel_shown)
        self._panel_key = None
        self._draw_panel()

    def set_filter(self, card):
        """Show only card's transactions in the panel's log (0: every player's)."""
        self.log_filter = card
        self.filter_var.set(self._player(card) if card else words.say("panel.every"))
        self._panel_key = None
        self._draw_panel()

    def _player(self, card):
        return words.who(card, self.names)

    def _draw_panel(self):
        if not self.panel_shown:
            return
        led = self.unit.ledger
        key = (led.ready, led.seq, led.store.writes, tuple(led.bal), led.pot_on, self.log_filter)
        if key == self._panel_key:
            return
        self._panel_key = key
        self.read_names()
        prof = led.profile
        for n, bal in self.session.balances():
            lab, short = self.bal_labels[n]
            # as the language groups digits; none where the unit has no game (B17: none invented)
            lab.configure(text=words.grouped(bal) if led.ready else words.NO_BALANCE)
            short.configure(text=words.amount(bal, prof) if led.ready else "")
            ent = self.name_entries[n]
            if self.root.focus_get() is not ent:
                ent.delete(0, "end")
                ent.insert(0, self.names.get(n, ""))
        self.pot_var.set(led.pot_on)
        lab, short = self.pot_labels
        # its money shows whenever it holds some, as STATE's
        shown = led.ready and (led.pot_on or led.bal[POT])
        lab.configure(text=words.grouped(led.bal[POT]) if shown else "")
        short.configure(text=words.amount(led.bal[POT], prof) if shown else "")
        menu = self.filter_menu["menu"]
        menu.delete(0, "end")
        for n in range(7):
            menu.add_command(label=self._player(n) if n else words.say("panel.every"),
                             command=lambda n=n: self.set_filter(n))
        self.filter_var.set(self._player(self.log_filter) if self.log_filter
                            else words.say("panel.every"))
        recs = self.session.recent(LOG_KEPT if self.log_filter else 16)
        if self.log_filter:
            recs = [r for r in recs if self.log_filter in (r[FROM], r[TO])][-16:]
        lines = [words.txn_line(r, prof, self.names) for r in reversed(recs)]
        self.log_text.configure(state="normal")
        self.log_text.delete("1.0", "end")
        self.log_text.insert("end", "\n".join(lines) if lines else words.say("page.none"))
        self.log_text.configure(state="disabled")
        self.draw_games()

    def draw_games(self):
        """The previous games the unit keeps (GAMES), each with a button that brings it back
        (RESTORE GAME, maintenance mode)."""
        ok, got = self.ask("GAMES")  # the unit lists the kept games that read
        self.games = got if ok else []
        for w in self.games_frame.winfo_children():
            w.destroy()
        bg = "#f5f1e6"
        font = self._fonts["panel-small"][0]
        if not self.games:  # none, or the unit's words why it could not list them
            tk.Label(self.games_frame, text=words.say("win.none-kept") if ok else got,
                     bg=bg, fg="#777777", font=font).pack(anchor="w")
            return
        for g in self.games:
            row = tk.Frame(self.games_frame, bg=bg)
            row.pack(anchor="w", fill="x", pady=(2, 4))
            # A longer line wraps rather than widen the panel (and the window) past the screen.
            tk.Label(row, text=self.game_text(g), bg=bg, font=font, justify="left", anchor="w",
                     wraplength=font.measure("0" * COLUMN_CHARS)).pack(anchor="w")
            tk.Button(row, text=words.say("win.bring-back"), takefocus=0,
                      font=self._fonts["button"][0],
                      command=lambda g=g: self.restore_game(g)).pack(anchor="e")

    def game_text(self, g):
        """One previous game in short lines: what it was, then who had what, as many players
        to a line as fit the column."""
        head, parts = words.kept_game(g, self.names)
        lines = [head, ""]
        for part in parts:
            if lines[-1] and len(lines[-1]) + 2 + len(part) > COLUMN_CHARS:
                lines.append(part)
            else:
                lines[-1] = lines[-1] + "  " + part if lines[-1] else part
        return "\n".join(lines)

    def restore_game(self, game):
        """game (an entry of GAMES' list) brought back, said by the number the panel lists."""
        ok, got = self.ask("RESTORE GAME %s" % game.get("id"))
        self.status = words.brought_back(game, "OK" if ok else got)
        self._panel_key = None
        self._view = None
        self.refresh()
        return ok
