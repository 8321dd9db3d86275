"""host_tools/ is a set of modules with one job each (docs/host_tools.md, "The modules"):
none imports another that imports it back, counting imports inside functions (a lazy import is
still a dependency a reader has to follow), and none grows past about 400 lines."""

import ast
import os

HOST_TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "host_tools")
MAX_LINES = 400


def modules():
    return sorted(f[:-3] for f in os.listdir(HOST_TOOLS) if f.endswith(".py"))


def source(name):
    with open(os.path.join(HOST_TOOLS, name + ".py"), encoding="utf-8") as f:
        return f.read()


def imports(text, mods):
    """The host_tools modules a module's text imports, anywhere in it."""
    got = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            inside = node.level == 1 or (node.module or "").split(".")[0] == "host_tools"
            if not inside:
                continue
            base = (node.module or "").split(".")[-1] if node.module else ""
            if base and base != "host_tools":
                got.add(base)
            else:  # `from . import link`
                got.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[0] == "host_tools" and len(parts) > 1:
                    got.add(parts[1])
    return {m for m in got if m in mods}


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


def test_no_import_cycle_in_host_tools():
    mods = set(modules())
    deps = {m: imports(source(m), mods) - {m} for m in mods}
    assert deps["cli"] >= {"bank", "errors"}  # the graph sees relative imports
    assert cycles(deps) == []


def test_a_cycle_through_a_lazy_relative_import_is_caught():
    mods = {"cli", "deploy", "errors"}
    deps = {
        "cli": imports("from . import deploy\nfrom .errors import BankError\n", mods),
        "deploy": imports("def main():\n    from .cli import UsageError\n", mods),
    }
    assert cycles(deps) == [["cli", "deploy", "cli"]]


def test_each_module_is_under_about_400_lines():
    long = {m: n for m in modules() if (n := source(m).count("\n")) > MAX_LINES}
    assert long == {}
