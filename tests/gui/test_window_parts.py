"""The simulator's code is in parts a reader can hold: every module under about 400 lines, each
with one job (docs/design.md, "The tree"), and no module importing one that imports it back,
imports inside functions counted, as tests/test_layout.py holds for the firmware."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_LINES = 400


def modules():
    """{dotted name: path} for every module of simulator/ (a package by its __init__)."""
    out = {}
    for d, dirs, files in os.walk(os.path.join(ROOT, "simulator")):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), ROOT)[:-3].replace(os.sep, ".")
                out[rel[:-len(".__init__")] if rel.endswith(".__init__") else rel] = \
                    os.path.join(d, f)
    return out


def graph():
    mods = modules()
    deps = {}
    for name, path in mods.items():
        with open(path) as f:
            tree = ast.parse(f.read())
        got = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    sub = node.module + "." + a.name
                    got.add(sub if sub in mods else node.module)
            elif isinstance(node, ast.Import):
                got.update(a.name for a in node.names)
        deps[name] = {m for m in got if m in mods and m != name}
    return deps


def cycles(deps):
    found, path, done = [], [], set()

    def visit(m):
        if m in path:
            found.append(path[path.index(m):] + [m])
            return
        if m in done:
            return
        path.append(m)
        for d in sorted(deps.get(m, ())):
            visit(d)
        path.pop()
        done.add(m)

    for m in sorted(deps):
        visit(m)
    return found


def test_every_simulator_module_is_short():
    long = {}
    for name, path in modules().items():
        with open(path) as f:
            n = len(f.read().splitlines())
        if n > MAX_LINES:
            long[name] = n
    assert long == {}


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


def test_a_cycle_is_caught():
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]
