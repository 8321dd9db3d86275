"""The terminal front end's screen: drawn with Python's own curses (the terminal's size, its
resize and sending only what changed are curses's), and the loop that sleeps until a key, a
resize (SIGWINCH), a served client or the unit's next change (terminal.py has the rest)."""

import os
import select
import signal


class Curses:
    """The screen, drawn with curses: each frame whole, curses sends only what changed."""

    def __init__(self, term, fd):
        import curses

        self.curses = curses
        self.term = term
        self.fd = fd
        self.scr = None
        self.frame = None
        self.attrs = {}

    def start(self):
        c = self.curses
        os.environ.setdefault("ESCDELAY", "25")  # a lone Esc is not the start of a sequence
        self.scr = c.initscr()
        c.noecho()
        c.cbreak()
        self.scr.keypad(True)
        self.scr.nodelay(True)
        try:
            c.curs_set(0)
        except c.error:
            pass  # a terminal that cannot hide its cursor
        bold = c.A_BOLD
        self.attrs = {"title": bold, "digits": bold, "said": bold, "text": 0, "help": c.A_DIM,
                      "red": bold, "green": bold}
        if c.has_colors():
            c.start_color()
            try:
                c.use_default_colors()
                back = -1
            except c.error:
                back = c.COLOR_BLACK
            for n, (name, colour) in enumerate((("red", c.COLOR_RED), ("green", c.COLOR_GREEN),
                                                ("said", c.COLOR_YELLOW)), 1):
                c.init_pair(n, colour, back)
                self.attrs[name] = c.color_pair(n) | bold

    def stop(self):
        c = self.curses
        if self.scr is not None:
            self.scr.keypad(False)
            c.nocbreak()
            c.echo()
            c.endwin()
            self.scr = None

    def resized(self):
        """The terminal's new size taken (SIGWINCH): the next draw is whole."""
        try:
            cols, rows = os.get_terminal_size(self.fd)
        except OSError:
            return
        self.curses.resizeterm(rows, cols)
        self.frame = None
        self.scr.clear()

    def draw(self):
        rows, cols = self.scr.getmaxyx()
        lines, lights = self.term.screen(cols, rows)
        frame = (lines[:rows], lights, cols, rows)
        if frame == self.frame:
            return
        self.frame = frame
        scr = self.scr
        scr.erase()
        for y, (text, kind) in enumerate(lines[:rows]):
            try:
                scr.addstr(y, 0, text, self.attrs.get(kind, 0))
            except self.curses.error:
                pass  # the bottom-right cell: curses cannot move past it, the text is there
        title = lines[0][0]
        for lit, name, at in ((lights[0], "red", title.find("(")),
                              (lights[1], "green", title.find("(", title.find("(") + 1))):
            if lit and 0 <= at < cols - 3:
                scr.addstr(0, at, "(*)", self.attrs[name])
        scr.refresh()

    def keys(self):
        """The keys typed since the last look; True in the list for a resize."""
        got = []
        while True:
            try:
                k = self.scr.get_wch()
            except self.curses.error:
                return got
            if k == self.curses.KEY_RESIZE:
                got.append(True)
            elif isinstance(k, str):
                got.append(k)


def loop(term, screen, fd):
    """Draw, sleep until a key, a resize, a served client or the unit's next change, repeat."""
    rd, wr = os.pipe()
    os.set_blocking(rd, False)
    os.set_blocking(wr, False)
    old_wakeup = signal.set_wakeup_fd(wr)
    old_winch = signal.signal(signal.SIGWINCH, lambda *_: None)  # the wakeup fd says it
    try:
        while not term.quit:
            screen.draw()
            fds = [fd, rd] + (term.server.fds() if term.server is not None else [])
            # Replies a client has yet to take: wake when it takes them (draw() sends).
            wfds = term.server.wfds() if term.server is not None else []
            ms = term.wait_ms()
            ready, _, _ = select.select(fds, wfds, [], None if ms is None else ms / 1000.0)
            term.timers()
            for r in ready:
                if r == rd:
                    try:
                        os.read(rd, 512)
                    except OSError:
                        pass
                    screen.resized()
                elif r == fd:
                    for k in screen.keys():
                        if k is True:
                            screen.resized()
                        else:
                            term.feed(k)
                elif term.server is not None:
                    term.server.ready(r)
    finally:
        signal.signal(signal.SIGWINCH, old_winch)
        signal.set_wakeup_fd(old_wakeup)
        os.close(rd)
        os.close(wr)
