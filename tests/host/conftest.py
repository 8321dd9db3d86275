"""Targets for the host tests. `pytest tests/host --port /dev/ttyACM0` adds a real unit."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import targets  # noqa: E402
from host_tools.bank import Bank  # noqa: E402

TARGETS = ("inproc", "pty", "tcp", "unit")


# --port is registered in tests/conftest.py, so `pytest tests --port X` works too.


def _unit_port(config):
    try:
        return config.getoption("--port")
    except ValueError:  # the option was not registered (conftest loaded late)
        return None


def _need_simulator():
    if not targets.simulator_available():
        pytest.skip("python -m simulator is not in this checkout yet")


@pytest.fixture(scope="session")
def sims(tmp_path_factory):
    """Simulators started on demand, one per (mode, flags), shared by the whole session."""
    running = {}

    def get(mode, *extra):
        key = (mode,) + extra
        if key not in running:
            _need_simulator()
            state = tmp_path_factory.mktemp("state-%s" % mode)
            running[key] = targets.Simulator(mode, state, *extra)
        return running[key]

    yield get
    for sim in running.values():
        sim.stop()


def reset(bank, virtual):
    """Bring any target to the same start, using only the protocol: awake, no cards, events
    off, volume 2, no deal, a new game (B11)."""
    bank.exchange("EVENTS OFF")
    state = bank.wake()
    for slot in ("L", "R"):
        if state["slots"][slot] is not None:
            state = bank.remove(slot)
    if state["deal"] in ("running", "ending"):
        state = bank.press("DEAL")  # B13: stops it, straight to the end
    if state["deal"] == "done" and virtual:
        state = bank.advance(5000)
    bank.new_game()  # B11: also clears the entry and the tally
    state = bank.state()
    while state["sound"] != 2:
        state = bank.press(".")  # B12
    bank.events.clear()
    return state


def open_target(request, sims, name, maintenance=False):
    extra = ("--maintenance",) if maintenance else ()
    if name == "inproc":
        bank = targets.in_process_bank(maintenance=maintenance)
        virtual = True
    elif name in ("pty", "tcp"):
        sim = sims(name, *extra)
        bank = Bank.open(sim.url, timeout=5.0)
        virtual = True
    else:
        port = _unit_port(request.config)
        if not port:
            pytest.skip("no real unit: give `pytest tests/host --port /dev/ttyACM0` to run it")
        bank = Bank.open(port, timeout=5.0)
        virtual = bank.exchange("ADVANCE 0").ok
        if maintenance and not bank.maintenance():
            bank.close()
            pytest.skip("the unit is not in maintenance mode: hold DEAL 3 s on it to run these")
    bank.virtual = virtual
    bank.target = name
    return bank


@pytest.fixture(params=TARGETS)
def bank(request, sims):
    """A Bank on each target, reset to a new game."""
    b = open_target(request, sims, request.param)
    try:
        reset(b, b.virtual)
        yield b
    finally:
        b.close()


@pytest.fixture(params=TARGETS)
def maint_bank(request, sims):
    """A Bank on each target in maintenance mode (granted by the simulator's flag)."""
    b = open_target(request, sims, request.param, maintenance=True)
    try:
        reset(b, b.virtual)
        yield b
    finally:
        b.close()


@pytest.fixture
def virtual(bank):
    if not bank.virtual:
        pytest.skip("needs a virtual clock (ADVANCE)")
    return bank


def run(capsys, *argv):
    """`bank ARGV...` in process: (exit code, stdout, stderr)."""
    from host_tools import cli

    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _fresh(sims, *args):
    sim = sims("tcp", *args)
    with Bank.open(sim.url) as b:
        reset(b, True)
    return sim.url


@pytest.fixture
def url(sims):
    """A simulator over TCP, in a new game: its URL."""
    return _fresh(sims)


@pytest.fixture
def murl(sims):
    """The same, in maintenance."""
    return _fresh(sims, "--maintenance")
