"""The firmware's manifest (firmware/manifest.py) read in Python, as MicroPython's freezer does.

The file is MicroPython's manifest format: `module(path)` names one file, `package(name)` every
`.py` under a folder (sub-packages too), paths relative to the manifest's folder (or to
`base_path=`); `files=` picks some of a package's files. `include(path)` reads another manifest.
The freezer's other calls (`freeze`, `require`, `metadata`, `options`) mean nothing on a Pico's
flash and are refused here, so what the tools copy is exactly what the image freezes.

`files(manifest)` -> [(path on the Pico, local path)], sorted by the path on the Pico.
`describe()` and `version_module()`: the version.py a Pico gets, which says which build it is.
"""

import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ManifestError(Exception):
    pass


def _walk(root):
    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
        for name in sorted(names):
            if name.endswith(".py"):
                out.append(os.path.relpath(os.path.join(d, name), root).replace(os.sep, "/"))
    return out


def files(manifest):
    """[(path on the Pico, absolute local path)] the manifest lists, sorted; each path once."""
    found = {}

    def read(path):
        path = os.path.abspath(path)
        here = os.path.dirname(path)

        def base(base_path):
            return os.path.normpath(os.path.join(here, base_path))

        def add(dest, local):
            if not os.path.isfile(local):
                raise ManifestError("%s: no file %s" % (path, local))
            if found.setdefault(dest, local) != local:
                raise ManifestError("%s: %s listed twice, from two files" % (path, dest))

        def module(module_path, base_path=".", opt=None):
            if not module_path.endswith(".py"):
                raise ManifestError("%s: module(%r) is not a .py file" % (path, module_path))
            add(module_path.replace(os.sep, "/"), os.path.join(base(base_path), module_path))

        def package(package_path, files=None, base_path=".", opt=None):
            root = os.path.join(base(base_path), package_path)
            if not os.path.isdir(root):
                raise ManifestError("%s: no package folder %s" % (path, root))
            for rel in files if files is not None else _walk(root):
                add(package_path + "/" + rel, os.path.join(root, rel))

        def include(other, **kwargs):
            read(os.path.join(here, other))

        def refused(name):
            def call(*args, **kwargs):
                raise ManifestError("%s: %s() has no meaning on the flash; the tools read only "
                                    "module(), package() and include()" % (path, name))
            return call

        env = {"module": module, "package": package, "include": include}
        for name in ("freeze", "require", "metadata", "options"):
            env[name] = refused(name)
        with open(path) as f:
            code = compile(f.read(), path, "exec")
        exec(code, env)

    read(manifest)
    return sorted(found.items())


FIRMWARE = os.path.join(REPO, "firmware")


def base_version(firmware=FIRMWARE):
    """firmware/version.py's VERSION (what the simulator and the tests report)."""
    scope = {}
    with open(os.path.join(firmware, "version.py")) as f:
        exec(f.read(), scope)
    return scope["VERSION"]


def describe(repo=REPO):
    """`git describe` of the checkout: a tag's (its v dropped), else VERSION and the commit
    ("0.1.0-gd3e0867", "-dirty" with uncommitted changes); VERSION alone outside git."""
    def git(*args):
        try:
            got = subprocess.run(["git", "-C", repo] + list(args), capture_output=True,
                                 text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return ""
        return got.stdout.strip() if got.returncode == 0 else ""

    tagged = git("describe", "--tags", "--dirty", "--match", "v[0-9]*")
    if tagged:
        return tagged[1:]
    commit = git("describe", "--always", "--dirty", "--abbrev=7")
    return base_version() + ("-g" + commit if commit else "")


def version_module(version, kind):
    """version.py as a Pico gets it. HELLO's firmware string (and `bank status`) then says
    which build it is and how it got there: "+frozen" in the unit's own image (`make uf2`),
    "+files" deployed onto a stock MicroPython image (`make deploy`)."""
    return ('"""Written at build time by tools/%s (firmware/version.py is the source tree\'s)."""'
            '\n\nVERSION = "%s+%s"\n' % ("uf2.py" if kind == "frozen" else "deploy.py",
                                          version, kind))
