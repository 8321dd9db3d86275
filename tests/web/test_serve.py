"""`python -m simulator --web [PORT]` builds the page and serves it on 127.0.0.1 only, with
the types a browser needs to run the webassembly port (docs/web.md)."""

import os
import shutil
import subprocess
import sys
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_web_option_serves_the_built_page():
    if shutil.which("npm") is None and not os.path.isdir(os.path.join(ROOT, "build", "wasm32")):
        pytest.skip("npm is needed once, to install the webassembly port")
    p = subprocess.Popen([sys.executable, "-m", "simulator", "--web", "0"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = p.stdout.readline()
        assert first.startswith("serving http://127.0.0.1:"), first + p.stderr.read()
        url = first.split()[1]
        with urllib.request.urlopen(url + "micropython.wasm", timeout=10) as r:
            assert r.headers["Content-Type"] == "application/wasm"
            assert r.read(4) == b"\0asm"
        with urllib.request.urlopen(url + "firmware/brain/unit.py", timeout=10) as r:
            with open(os.path.join(ROOT, "firmware", "brain", "unit.py"), "rb") as f:
                assert r.read() == f.read()  # the firmware as it is
        with urllib.request.urlopen(url + "unit.js", timeout=10) as r:
            assert r.headers["Content-Type"].startswith("text/javascript")
    finally:
        p.terminate()
        p.wait(10)


def test_web_option_refuses_a_bad_port():
    p = subprocess.run([sys.executable, "-m", "simulator", "--web", "http"], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert "--web takes one port number" in p.stderr
