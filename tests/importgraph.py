"""The import graph of a tree of Python modules, read from their source: what the layout tests
(tests/test_layout.py, tests/gui/test_window_parts.py, tests/host/test_modules.py) hold about
the firmware, the simulator and the host tools. Imports inside functions count: a lazy import is
still a dependency a reader has to follow."""

import ast
import os


def modules(top, prefix=""):
    """{dotted name: path} for every .py file under top (a package by its __init__), each name
    prefixed with `prefix` (e.g. "simulator.") where the tree is imported by that name."""
    out = {}
    for d, dirs, files in os.walk(top):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), top)[:-3].replace(os.sep, ".")
                rel = rel[:-len(".__init__")] if rel.endswith(".__init__") else rel
                name = prefix + rel if rel != "__init__" else prefix.rstrip(".")
                out[name] = os.path.join(d, f)
    return out


def imported(tree, name, mods):
    """The modules of mods that a module's syntax tree imports, anywhere in it: absolute
    imports, and relative ones resolved from the module's own package."""
    package = name.rsplit(".", 1)[0] if "." in name else ""
    got = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join(parts + ([base] if base else []))
            for a in node.names:
                sub = base + "." + a.name if base else a.name
                got.add(sub if sub in mods else base)
        elif isinstance(node, ast.Import):
            got.update(a.name for a in node.names)
    return {m for m in got if m in mods and m != name}


def graph(mods):
    """({module: the modules of mods it imports}, {module: the names its code uses})."""
    deps, names = {}, {}
    for name, path in mods.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        deps[name] = imported(tree, name, mods)
        names[name] = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return deps, names


def cycles(deps):
    """Every import cycle, each as the path that closes it: [a, b, a]."""
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


def longer_than(mods, most):
    """{module: its lines} for those over `most` lines."""
    out = {}
    for name, path in mods.items():
        with open(path, encoding="utf-8") as f:
            n = len(f.read().splitlines())
        if n > most:
            out[name] = n
    return out
