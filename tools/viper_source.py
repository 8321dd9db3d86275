"""board/drivers/sio.py's viper code as a file ruff and mypy read.

    python tools/viper_source.py DIR     # writes DIR/sio_viper.py

sio.py keeps its viper functions in a string (`CODE`) the Pico compiles at import, because
mpy-cross compiles viper only for a named architecture and every firmware file must also
compile without one. `make lint` and `make typecheck` run this first and check DIR/sio_viper.py:
the string's lines at the line numbers they have in sio.py, so what ruff or mypy reports points
into sio.py. tests/test_sio.py compiles the same source for the RP2040.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIO = os.path.join(ROOT, "firmware", "board", "drivers", "sio.py")
NAME = "sio_viper.py"


def source(path=SIO):
    """(CODE's text, the line of path its string starts on)."""
    with open(path) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] \
                == ["CODE"] and isinstance(node.value, ast.Constant):
            return node.value.value, node.lineno
    raise SystemExit("no CODE string in %s" % path)


def write(out_dir, path=SIO):
    text, lineno = source(path)
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, NAME)
    with open(out, "w") as f:
        f.write("# board/drivers/sio.py's CODE, at its line numbers (tools/viper_source.py)\n")
        f.write("\n" * (lineno - 2) + text)  # the string's first character on its own line
    return out


if __name__ == "__main__":
    print(write(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "viper")))
