"""The GUI and terminal front-end tests: a real X server (Xvfb) and real pseudo-terminals.

Xvfb is started once per session on a display number it picks itself (-displayfd), so the
tests never collide with a desktop or another run. Where Xvfb is missing the window tests are
skipped with the reason (`make gui-deps` installs it on Debian).
"""

import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


@pytest.fixture(scope="session")
def xdisplay():
    """A private X server for the session; yields its DISPLAY string (':N')."""
    exe = shutil.which("Xvfb")
    if exe is None:
        pytest.skip("Xvfb is not installed (make gui-deps installs it on Debian)")
    from tools.xvfb import Xvfb  # the same X server make screenshot uses

    try:
        server = Xvfb()
    except RuntimeError:
        pytest.skip("Xvfb did not start")
    display = server.display
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    yield display
    if old is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = old
    server.stop()


@pytest.fixture
def quiet_env(tmp_path):
    """Environment for a simulator child: no sound, its flash in a fresh directory."""
    env = dict(os.environ)
    env["BANK_SIM_SOUND"] = "off"
    env["BANK_SIM_STATE"] = str(tmp_path / "flash")
    env["PYTHONPATH"] = ROOT
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        env.pop(name, None)
    env["LANG"] = "C.UTF-8"  # English, whatever this machine speaks (a test may say --lang)
    return env


@pytest.fixture(autouse=True)
def english():
    """Each test starts in English and leaves it so: the language is the process's."""
    import simulator  # noqa: F401  (firmware/ on sys.path)
    from desktop import words

    words.set_lang("en")
    yield
    words.set_lang("en")


@pytest.fixture
def win(xdisplay):
    """The real window on Xvfb, driven in-process, on a virtual clock and seed 7."""
    tk = pytest.importorskip("tkinter")
    import simulator  # noqa: F401  (firmware/ on sys.path)
    from simulator import frontend, options
    from simulator.host import Host
    from simulator.window import app

    host = Host(options.parse(["--virtual-clock", "--seed", "7"]))
    root = tk.Tk()
    w = app.Window(host, root=root, sound=frontend.Sound(None))
    root.update()
    root.focus_force()  # no window manager under Xvfb: take the keyboard ourselves
    root.update()
    yield w
    w.close()
