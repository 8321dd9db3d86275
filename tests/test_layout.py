"""The firmware's tree shows its architecture, and its imports say so.

- No import cycle among the firmware's modules, counting imports inside functions (a lazy
  import is still a dependency a reader has to follow).
- Every call is a plain import a reader, mypy and ruff can follow: no `transient`, no
  `__import__` by name.
- What only a desktop runs (firmware/desktop/) is never imported by code the Pico runs, and
  `make deploy`'s plan (tools/deploy.py) leaves it out.
- docs/design.md's tree table names every firmware module, and every module it names exists;
  its imports column names what each row imports and nothing it does not.
- A reply two commands give is written once (one constant both use).
- The brain knows no pins, no board, no serial and no files: brain/ imports only brain/. What
  it needs from outside (the store, the random source) is handed in by startup.py.
- One object owns its state: no code outside the store reads or writes the store's fields, and
  the store writes none of the ledger's; only the ledger writes its fields, and only the unit
  and its game-night half write the unit's.
"""

import ast
import os
import re
import sys

from tests import importgraph

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")


def modules():
    """{dotted module name: path} for every firmware file."""
    return importgraph.modules(FIRMWARE)


def graph():
    """{module: the firmware modules it imports, anywhere in its code}, and the names each
    module's code uses (for transient and __import__)."""
    return importgraph.graph(modules())


cycles = importgraph.cycles


def test_the_firmware_has_no_import_cycle():
    deps, _ = graph()
    assert cycles(deps) == []


def test_a_cycle_is_caught():
    assert cycles({"app": {"startup"}, "startup": {"app"}}) == [["app", "startup", "app"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_call_is_dispatched_by_a_string():
    deps, names = graph()
    assert "transient" not in modules()
    assert not [m for m, used in names.items() if "__import__" in used]


def test_the_pico_never_imports_desktop_code():
    deps, _ = graph()
    bad = {m: sorted(d for d in ds if d.split(".")[0] == "desktop")
           for m, ds in deps.items() if m.split(".")[0] != "desktop"}
    assert {m: d for m, d in bad.items() if d} == {}


def test_deploy_leaves_desktop_code_at_home():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import deploy
    finally:
        sys.path.pop(0)
    sent = [rel for rel, _ in deploy.sources()]
    assert "brain/unit.py" in sent and "main.py" in sent and "board/drivers/ht1621.py" in sent
    assert not [rel for rel in sent if rel.startswith("desktop/")]


def test_the_brain_knows_no_body():
    deps, _ = graph()
    for m, ds in deps.items():
        if m.split(".")[0] == "brain":
            outside = {d for d in ds if d.split(".")[0] != "brain"}
            assert not outside, (m, outside)


def test_the_store_reads_its_files_through_one_reader():
    # The store is FileStore (store/__init__.py) and its files' format, store/slot.py: the
    # lines written and the one reader of them, which imports no other part of the store.
    deps, _ = graph()
    store = {m: {d for d in ds if d.split(".")[0] == "store"} for m, ds in deps.items()}
    assert sorted(m for m in modules() if m.split(".")[0] == "store") == ["store", "store.slot"]
    assert store["store"] == {"store.slot"} and store["store.slot"] == set()


def store_fields_used(path):
    """The names of `store.<name>` / `<...>.store.<name>` a module uses, other than a call's."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    got = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and id(n) not in called:
            v = n.value
            if (isinstance(v, ast.Name) and v.id == "store") or (
                    isinstance(v, ast.Attribute) and v.attr == "store"):
                got.add(n.attr)
    return got


def test_only_the_store_reads_or_writes_its_state():
    # One store that owns its state: the brain, the protocol and the bodies in firmware/ ask it
    # (its methods) and are told; none reads or writes its fields (its folder, given to it, is
    # the crash file's too).
    used = {m: store_fields_used(path) - {"dir"} for m, path in modules().items()
            if m.split(".")[0] != "store"}
    assert {m: u for m, u in used.items() if u} == {}


def fields_written(path):
    """Every `<object>.<field>` a module assigns to, but self's, as written."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    got = set()
    for n in ast.walk(tree):
        targets = n.targets if isinstance(n, ast.Assign) else (
            [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else [])
        for t in targets:
            for a in ast.walk(t):
                if isinstance(a, ast.Attribute) and ast.unparse(a.value) != "self":
                    got.add(ast.unparse(a))
    return got


def test_the_store_writes_no_field_but_its_own():
    # An object owns its state, the other way round too: the store reads the ledger to write
    # the game and tells boot what it read back (Ledger.load puts it in play); it
    # writes no field of the ledger's, only its own and the Slot its reader fills (s).
    written = set()
    for m, path in modules().items():
        if m.split(".")[0] == "store":
            written |= fields_written(path)
    assert written <= {"s.state", "s.size"}, written


def ledger_fields_written(path):
    return {w for w in fields_written(path)
            if w.startswith(("ledger.", "led.")) or ".ledger." in w}


def unit_fields_written(path):
    return {w for w in fields_written(path) if w.startswith(("unit.", "u.")) or ".unit." in w}


def every_body():
    """{path: path} of the firmware's modules and the bodies' (simulator/, web/, host_tools/)."""
    got = dict(modules())
    for top in ("simulator", "web", "host_tools"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            got.update({os.path.join(d, f): os.path.join(d, f) for f in files
                        if f.endswith(".py")})
    return got


def test_only_the_ledger_writes_its_fields():
    # The ledger owns the game's money and settings: the unit, the protocol, boot and the
    # bodies ask it (move, set, load, reset, restore, set_balance) and are told.
    written = {m: ledger_fields_written(path) for m, path in every_body().items()
               if m != "brain.ledger"}
    assert {m: w for m, w in written.items() if w} == {}


def test_only_the_unit_and_its_game_night_half_write_the_units_fields():
    # brain/night.py, gameclock.py and pot.py are the unit's game-night half, functions of
    # the unit kept apart so that unit.py reads as B1-B18; the protocol, boot and the bodies
    # ask the unit (key_down, card_in, new_game, ...) and are told.
    half = ("brain.unit", "brain.night", "brain.gameclock", "brain.pot")
    written = {m: unit_fields_written(path) for m, path in every_body().items()
               if m not in half}
    assert {m: w for m, w in written.items() if w} == {}


def test_a_field_of_the_store_used_from_outside_is_caught():
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write("def f(ledger, store):\n    ledger.store.games.append(1)\n"
                "    store.number = 2\n    ledger.store.kept()\n")
    try:
        assert store_fields_used(f.name) == {"games", "number"}
    finally:
        os.remove(f.name)


def design_text():
    with open(os.path.join(ROOT, "docs/design.md")) as f:
        return f.read()


def design_tree(text):
    """The firmware files docs/design.md's tree table names: a folder's row names its files in
    its job column (`unit.py`), a file's row is the file."""
    section = text.split("\n## The tree\n")[1].split("\n## ")[0]
    named = set()
    for line in section.splitlines():
        if not line.startswith("| `firmware/"):
            continue
        where, job = [c.strip() for c in line.strip().strip("|").split("|")][:2]
        where = where.strip("`")
        if where.endswith("/"):
            named.update(where + name for name in re.findall(r"`(\w+\.py)`", job))
        else:
            named.add(where)
    return named


def test_the_design_tree_names_every_firmware_module_and_only_those():
    files = {"firmware/" + os.path.relpath(path, FIRMWARE).replace(os.sep, "/")
             for path in modules().values()}
    named = design_tree(design_text())
    assert sorted(files - named) == [], "in firmware/ but not in docs/design.md's tree"
    assert sorted(named - files) == [], "in docs/design.md's tree but not in firmware/"


def test_a_row_or_a_name_left_out_of_the_design_tree_is_caught():
    text = design_text()
    assert {"firmware/version.py", "firmware/board/drivers/latch.py"} <= design_tree(text)
    row = [line for line in text.splitlines() if line.startswith("| `firmware/version.py`")]
    assert "firmware/version.py" not in design_tree(text.replace(row[0] + "\n", ""))
    assert "firmware/board/drivers/latch.py" not in design_tree(
        text.replace("`latch.py`", "latch"))


def all_modules():
    """{dotted name: path} for the firmware (by bare names, as it imports), simulator/ and web/:
    the modules docs/design.md's tree table maps."""
    mods = modules()
    mods.update(importgraph.modules(os.path.join(ROOT, "simulator"), "simulator."))
    mods.update(importgraph.modules(os.path.join(ROOT, "web"), "web."))
    return mods


def design_imports(text):
    """[(the row's folders and files as module prefixes, the modules its imports column
    names)] for each row of docs/design.md's tree table. A name is a module or a package in
    backticks (`brain`, `brain.clock`, `simulator.frontend`); a file named with .py is one of
    the row's own, said in passing."""
    section = text.split("\n## The tree\n")[1].split("\n## ")[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        where, _, imports = [c.strip() for c in line.strip().strip("|").split("|")][:3]
        prefixes = []
        for path in re.findall(r"`([^`]+)`", where):
            path = path[len("firmware/"):] if path.startswith("firmware/") else path
            path = path[:-3] if path.endswith(".py") else path.rstrip("/")
            prefixes.append(path.replace("/", "."))
        names = {n for n in re.findall(r"`([A-Za-z_][\w.]*)`", imports)
                 if not n.endswith(".py")}
        rows.append((tuple(prefixes), names))
    return rows


def map_drift(text, deps):
    """(imported but not in its row's column, in a row's column but not imported), as
    {row: sorted modules}. A row's modules are those under its prefixes and in no row of a
    subfolder; what they import from outside the row's folders is what its column must name,
    each name covering the module or the package it names."""
    rows = design_imports(text)

    def within(m, prefix):
        return m == prefix or m.startswith(prefix + ".")

    def row_of(m):
        best = None
        for prefixes, _ in rows:
            for prefix in prefixes:
                if within(m, prefix) and (best is None or len(prefix) > len(best[0])):
                    best = (prefix, prefixes)
        return best[1] if best else None

    unlisted, unimported = {}, {}
    for prefixes, names in rows:
        out = set()
        for m, ds in deps.items():
            if row_of(m) == prefixes:
                out |= {d for d in ds if not any(within(d, p) for p in prefixes)}
        key = ", ".join(prefixes)
        missing = sorted(d for d in out if not any(within(d, n) for n in names))
        extra = sorted(n for n in names if not any(within(d, n) for d in out))
        if missing:
            unlisted[key] = missing
        if extra:
            unimported[key] = extra
    return unlisted, unimported


def test_the_design_tree_says_what_each_folder_imports_and_only_that():
    deps, _ = importgraph.graph(all_modules())
    unlisted, unimported = map_drift(design_text(), deps)
    assert unlisted == {}, "imported, but not in its row's imports column of docs/design.md"
    assert unimported == {}, "in a row's imports column of docs/design.md, but not imported"


def test_an_import_left_out_of_the_map_or_one_it_names_in_vain_is_caught():
    deps = {"app": {"startup", "protocol"}, "startup": set(), "protocol": {"jsonw"},
            "jsonw": set()}
    text = ("\n## The tree\n\n| folder | job | imports |\n| --- | --- | --- |\n"
            "| `firmware/app.py` | the loop | `protocol`, `startup` |\n"
            "| `firmware/startup.py` | boot | nothing |\n"
            "| `firmware/protocol/` | the protocol | `jsonw` |\n"
            "| `firmware/jsonw.py` | JSON | nothing |\n")
    assert map_drift(text, deps) == ({}, {})
    left_out = text.replace("`protocol`, `startup`", "`protocol`")
    assert map_drift(left_out, deps) == ({"app": ["startup"]}, {})
    in_vain = text.replace("| boot | nothing |", "| boot | `jsonw` |")
    assert map_drift(in_vain, deps) == ({}, {"startup": ["jsonw"]})


def replies_written(paths):
    """{an ERR reply's sentence as written in the source: [where]}, for every string literal
    that starts one (a code alone, "ERR " + err, is not a sentence)."""
    out = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            value = getattr(node, "value", None)
            if isinstance(node, ast.Constant) and isinstance(value, str):
                if value.startswith("ERR ") and " " in value[4:].strip():
                    out.setdefault(value, []).append("%s:%d" % (path, node.lineno))
    return out


def test_each_refusal_of_the_protocol_is_written_once():
    # One fact in one place: a reply given by two commands (the maintenance refusal of every
    # extension that changes money, the bad key of KEY and HOLD) is one constant both use.
    twice = {text: where for text, where in replies_written(modules().values()).items()
             if len(where) > 1}
    assert twice == {}

