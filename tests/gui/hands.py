"""A person's hands on a window under test (the window, or the --pico one): keys clicked, the
autorepeat grace let pass, a virtual clock moved on."""

from simulator.window import inputs, layout


def click(w, key):
    """A click on key's drawn face: press and release at once, where the window draws it now."""
    x0, y0, x1, y1 = layout.key_rects()[key]
    x, y = w.to_canvas((x0 + x1) / 2, (y0 + y1) / 2)
    w.canvas.event_generate("<ButtonPress-1>", x=x, y=y)
    w.canvas.event_generate("<ButtonRelease-1>", x=x, y=y)
    w.root.update()


def settle(w):
    # Key releases wait out an autorepeat grace period (inputs.RELEASE_GRACE_MS) before they count.
    w.root.update()
    w.root.after(inputs.RELEASE_GRACE_MS + 10)
    w.root.update()


def advance(w, ms):
    """The window's virtual clock moved on ms, and what that changed drawn."""
    w.host.clock.advance(w.unit, ms)
    w.refresh()
    w.root.update()
