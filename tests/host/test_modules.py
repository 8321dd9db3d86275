"""host_tools/ is a set of modules with one job each (docs/host_tools.md, "The modules"):
none imports another that imports it back, counting imports inside functions (a lazy import is
still a dependency a reader has to follow), and none grows past about 400 lines."""

import ast
import os

from tests import importgraph

HOST_TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "host_tools")
MAX_LINES = 400


def modules():
    return importgraph.modules(HOST_TOOLS, "host_tools.")


def deps_of(text, name, mods):
    """The host_tools modules a module's text imports, anywhere in it, by their short names."""
    got = importgraph.imported(ast.parse(text), "host_tools." + name,
                               {"host_tools." + m for m in mods})
    return {m.split(".", 1)[1] for m in got}


cycles = importgraph.cycles


def test_no_import_cycle_in_host_tools():
    deps = {m.split(".", 1)[1]: {d.split(".", 1)[1] for d in ds}
            for m, ds in importgraph.graph(modules())[0].items() if "." in m}
    assert deps["cli"] >= {"bank", "errors"}  # the graph sees relative imports
    assert cycles(deps) == []


def test_a_cycle_through_a_lazy_relative_import_is_caught():
    mods = {"cli", "deploy", "errors"}
    deps = {
        "cli": deps_of("from . import deploy\nfrom .errors import BankError\n", "cli", mods),
        "deploy": deps_of("def main():\n    from .cli import UsageError\n", "deploy", mods),
    }
    assert cycles(deps) == [["cli", "deploy", "cli"]]


def test_each_module_is_under_about_400_lines():
    assert importgraph.longer_than(modules(), MAX_LINES) == {}
