"""The real simulator window on a private X server, driven like a person would drive it.

Used by the live GUI tests (tests/gui/test_live.py), `make screenshot` (tools/screenshot.py) and
the idle-CPU bench (bench/idle_cpu.py). Needs Xvfb, xdotool and ImageMagick's `import`
(`make gui-deps`). Mouse and keys go through xdotool (XTEST: real X input events, as from a
real mouse); what the window shows is read back from a screen grab's pixels. The window scales
the unit to its size and centres it: `locate` finds where it is drawn from the banner's pixels
(its red is drawn nowhere else), and every position of the drawing (layout.py) is mapped there.
"""

import os
import shutil
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from host_tools import procs  # noqa: E402
from simulator.window import layout  # noqa: E402  (geometry and colours of the drawing)
from board import segments  # noqa: E402  (firmware/, on sys.path once simulator is imported)

TOOLS = ("Xvfb", "xdotool", "import")


def missing_tools():
    return [t for t in TOOLS if shutil.which(t) is None]


class Xvfb:
    """A private X server on a display number it picks itself (-displayfd)."""

    def __init__(self, size="1024x900x24"):
        if shutil.which("Xvfb") is None:
            raise RuntimeError("Xvfb is not installed (make gui-deps installs it on Debian)")
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", size, "-nolisten", "tcp"],
            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        num = b""
        while not num.endswith(b"\n"):
            ch = os.read(r, 1)
            if not ch:
                break
            num += ch
        os.close(r)
        if not num.strip():
            self.proc.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = ":" + num.decode().strip()

    def env(self, extra=None):
        env = dict(os.environ)
        env["DISPLAY"] = self.display
        env.update(extra or {})
        return env

    def stop(self):
        procs.stop(self.proc)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _hex(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _find_px(row, colour, last=False):
    """The x of the first (or the last) pixel of that colour in a row of RGB bytes, or None."""
    i = row.rfind(colour) if last else row.find(colour)
    while i >= 0 and i % 3:  # the colour's bytes across two pixels: look further
        i = row.rfind(colour, 0, i + 2) if last else row.find(colour, i + 1)
    return i // 3 if i >= 0 else None


def _near(px, colour, tol=40):
    return sum(abs(a - b) for a, b in zip(px, _hex(colour), strict=True)) <= tol


class LiveWindow:
    """`python -m simulator --tcp 0 ...` on display, found by its title, and its TCP port."""

    def __init__(self, display, args=(), env=None, timeout=15.0):
        env = dict(env or os.environ)
        env["DISPLAY"] = display
        env.setdefault("PYTHONPATH", ROOT)
        self.display = display
        self.env = env
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "simulator", "--tcp", "0"] + list(args), cwd=ROOT, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = procs.first_line(self.proc, timeout)
        if not line.startswith("listening tcp 127.0.0.1:"):
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError("simulator said %r; stderr: %s"
                               % (line, self.proc.stderr.read().decode()[-2000:]))
        self.port = int(line.rsplit(":", 1)[1])
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        self.rfile = self.sock.makefile("rb")
        title = "^" + layout.TITLE.replace("(", "\\(").replace(")", "\\)") + "$"  # a regex
        out = self.xdo("search", "--sync", "--onlyvisible", "--name", title, timeout=timeout)
        self.wid = out.split()[0]
        self.xdo("windowfocus", "--sync", self.wid)
        self._origin = None
        self.where = None  # (x, y, scale): the drawing's (0, 0) in the window, and its scale
        self._located = False

    # -- X input ---------------------------------------------------------------------------------

    def xdo(self, *args, timeout=10.0):
        return subprocess.run(["xdotool"] + list(args), env=self.env, check=True,
                              capture_output=True, timeout=timeout).stdout.decode()

    def origin(self):
        """The window's top-left on the screen: the canvas starts there."""
        if self._origin is None:
            out = self.xdo("getwindowgeometry", "--shell", self.wid)
            vals = dict(line.split("=", 1) for line in out.split())
            self._origin = (int(vals["X"]), int(vals["Y"]))
        return self._origin

    def _abs(self, x, y):
        ox, oy = self.origin()
        return str(ox + x), str(oy + y)

    def locate(self, timeout=5.0):
        """Where the unit is drawn in the window now: (x, y, scale) of the drawing's origin.
        Call it again after the window is resized."""
        self._located = False
        banner = bytes(_hex(layout.BANNER))
        x0, y0, x1, y1 = layout.BANNER_BOX
        end = time.monotonic() + timeout
        while True:
            w, h, rgb = self.grab()
            rows = []
            for y in range(h):
                row = rgb[y * w * 3:(y + 1) * w * 3]
                first = _find_px(row, banner)
                if first is not None:
                    rows.append((y, first, _find_px(row, banner, last=True)))
            found = None
            if rows:
                left = min(r[1] for r in rows)
                right = max(r[2] for r in rows)
                s = (right - left + 1) / float(x1 - x0)
                found = (left - x0 * s, rows[0][0] - y0 * s, s)
            # The same twice in a row: a window just mapped or resized may still be redrawing.
            if found is not None and found == self.where:
                self._located = True
                return found
            self.where = found
            if time.monotonic() > end:
                raise AssertionError("the unit's banner is not drawn still in the window")
            time.sleep(0.05)

    def at(self, x, y):
        """The point (x, y) of the drawing, in the window's pixels."""
        if not self._located:
            self.locate()
        ox, oy, s = self.where
        return int(round(ox + x * s)), int(round(oy + y * s))

    def click(self, x, y):
        self.xdo("mousemove", "--sync", *self._abs(x, y), "click", "1")

    def click_key(self, key):
        x0, y0, x1, y1 = layout.key_rects()[key]
        self.click(*self.at((x0 + x1) / 2, (y0 + y1) / 2))

    def drag(self, x, y, tx, ty):
        self.xdo("mousemove", "--sync", *self._abs(x, y), "mousedown", "1")
        for i in range(1, 6):
            self.xdo("mousemove", "--sync", *self._abs(x + (tx - x) * i // 5,
                                                       y + (ty - y) * i // 5))
        self.xdo("mouseup", "1")

    def drag_card(self, card, slot):
        x, y = layout.tray_pos(card)
        x0, x1 = layout.SLOTS_X[slot]
        self.drag(*self.at(x + layout.CARD_W / 2, y + layout.CARD_H / 2),
                  *self.at((x0 + x1) / 2, layout.SLOT_Y + 10))

    def keys(self, *names):
        self.xdo("key", "--delay", "20", *names)

    def key_down(self, name):
        self.xdo("keydown", name)

    def key_up(self, name):
        self.xdo("keyup", name)

    # -- the protocol, live --------------------------------------------------------------------

    def command(self, line):
        """One protocol command; returns the reply line (event lines are skipped)."""
        self.sock.sendall((line + "\n").encode())
        while True:
            reply = self.rfile.readline().decode().rstrip("\n")
            if not reply:
                raise RuntimeError("the simulator closed the connection")
            if not reply.startswith("! "):
                return reply

    # -- reading the screen back ---------------------------------------------------------------

    def grab(self):
        """(width, height, rgb bytes) of the window as it is on the screen now."""
        out = subprocess.run(["import", "-window", self.wid, "-depth", "8", "rgb:-"],
                             env=self.env, check=True, capture_output=True, timeout=10).stdout
        out2 = self.xdo("getwindowgeometry", "--shell", self.wid)
        vals = dict(line.split("=", 1) for line in out2.split())
        w, h = int(vals["WIDTH"]), int(vals["HEIGHT"])
        return w, h, out

    def shown(self):
        """(text, k, M, glass lit) decoded from the pixels of the drawn display."""
        if not self._located:
            self.locate()
        w, _h, rgb = self.grab()

        def px(x, y):
            x, y = self.at(x, y)
            i = (y * w + x) * 3
            return tuple(rgb[i:i + 3])

        def any_on(cx, cy, r):
            return any(_near(px(x, y), layout.SEG_ON) for x in range(int(cx - r), int(cx + r) + 1)
                       for y in range(int(cy - r), int(cy + r) + 1))

        by_byte = {}
        for ch, g in zip(segments.CHARS, segments.CODES, strict=True):
            by_byte.setdefault(g, ch)
        text = ""
        for i in range(5):
            x = layout.CELL_X0 + i * (layout.CELL_W + layout.CELL_GAP)
            polys, dp = layout.segment_polys(x, layout.CELL_Y0, layout.CELL_W, layout.CELL_H,
                                             layout.SEG_T)
            byte = 0
            for s, pts in enumerate(polys):
                cx = sum(pts[0::2]) / 6.0
                cy = sum(pts[1::2]) / 6.0
                if _near(px(cx, cy), layout.SEG_ON):
                    byte |= 1 << s
            if byte:
                text += by_byte.get(byte, "?")
            if _near(px((dp[0] + dp[2]) / 2, (dp[1] + dp[3]) / 2), layout.SEG_ON):
                text += "."
        ax = layout.DISPLAY[2] - 20
        m = any_on(ax, layout.CELL_Y0 + 12, 6)
        k = any_on(ax, layout.CELL_Y0 + layout.CELL_H - 10, 6)
        lit = _near(px(layout.DISPLAY[0] + 12, layout.DISPLAY[1] + 50), layout.GLASS_ON)
        return text, k, m, lit

    def wait_shown(self, want, timeout=5.0):
        end = time.monotonic() + timeout
        while True:
            got = self.shown()
            if got[:len(want)] == tuple(want):
                return got
            if time.monotonic() > end:
                raise AssertionError("display shows %r, not %r" % (got, want))
            time.sleep(0.02)

    def stop(self):
        try:
            self.sock.close()
        except OSError:
            pass
        procs.stop(self.proc)
