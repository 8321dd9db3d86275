"""Issue 15: the store package imports downwards only (no cycle among firmware/store/'s modules,
counting imports inside functions too), and names every module it uses in a plain import that
mypy, ruff and a reader can follow (no transient.call)."""

import ast
import os

STORE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware",
                     "store")


def _graph():
    """{module: the store modules it imports}, and the modules that import transient."""
    files = sorted(f for f in os.listdir(STORE) if f.endswith(".py"))
    leaves = {f[:-3] for f in files}
    graph, transient = {}, []
    for f in files:
        name = "store" if f == "__init__.py" else "store." + f[:-3]
        with open(os.path.join(STORE, f)) as src:
            tree = ast.parse(src.read())
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "store":
                deps.update("store." + a.name if a.name in leaves else "store"
                            for a in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("store."):
                deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.split(".")[0] == "store")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [node.module] if isinstance(node, ast.ImportFrom) else [
                    a.name for a in node.names]
                if "transient" in names:
                    transient.append(name)
        deps.discard(name)
        graph[name] = deps
    return graph, transient


def test_the_store_package_has_no_import_cycle_and_no_transient_call():
    graph, transient = _graph()
    # a depth-first walk: a module met again on the path it is reached by is a cycle
    path = []

    def visit(m):
        assert m not in path, "import cycle: " + " -> ".join(path + [m])
        path.append(m)
        for d in sorted(graph.get(m, ())):
            visit(d)
        path.pop()

    for m in graph:
        visit(m)
    assert transient == []
    # boot's loader reads the slots through the format's one reader, as LOG and checkpoints do
    assert graph["store.load"] == {"store.slot"} and "store.slot" in graph["store.checkpoint"]
