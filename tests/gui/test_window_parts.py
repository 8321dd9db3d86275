"""The simulator's code is in parts a reader can hold: every module under about 400 lines, each
with one job (docs/design.md, "The tree"), and no module importing one that imports it back,
imports inside functions counted, as tests/test_layout.py holds for the firmware."""

import os

from tests import importgraph

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_LINES = 400


def modules():
    """{dotted name: path} for every module of simulator/."""
    return importgraph.modules(os.path.join(ROOT, "simulator"), "simulator.")


def graph():
    return importgraph.graph(modules())[0]


cycles = importgraph.cycles


def test_every_simulator_module_is_short():
    assert importgraph.longer_than(modules(), MAX_LINES) == {}


def test_the_window_is_in_parts_with_one_job_each():
    deps = graph()
    parts = {m.rsplit(".", 1)[1] for m in deps if m.startswith("simulator.window.")}
    assert {"app", "layout", "unit", "panel", "big", "inputs", "words", "sizes"} <= parts
    # The drawing's geometry needs no Tk: the tools that drive the window from outside use it.
    assert deps["simulator.window.layout"] == set()
    # Only app.py puts the parts together; no part imports another but the geometry.
    for p in parts - {"app", "layout"}:
        inside = {d for d in deps["simulator.window." + p] if d.startswith("simulator.window")}
        assert inside <= {"simulator.window.layout"}, p


def test_the_simulator_has_no_import_cycle():
    assert cycles(graph()) == []

