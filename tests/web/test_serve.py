"""`python -m simulator --web [PORT] [--lan | --host ADDR]` builds the page and serves it, on
127.0.0.1 unless asked, with the types a browser needs to run the webassembly port
(docs/web.md). Real processes; nothing is sent to any address but 127.0.0.1."""

import os
import shutil
import socket
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


def test_web_serves_files_only_and_no_folder_listing():
    # A folder is no page: its listing would show what the site holds (/firmware/, /icons/),
    # and nothing of the page needs one. The site's root is the page.
    import urllib.error

    p = _start_web()
    try:
        first = p.stdout.readline()
        assert first.startswith("serving http://127.0.0.1:"), first + p.stderr.read()
        url = first.split()[1]
        for path in ("icons/", "icons", "firmware/", "firmware", "firmware/brain/",
                     "firmware/brain", "firmware/desktop/", "firmware/../icons/", "icons/.",
                     "x/%2f..", "x/%2f../"):  # the root by another name is no page either
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(url + path, timeout=10)
            assert e.value.code == 404, path
            assert b"Directory listing" not in e.value.read(), path
        with open(os.path.join(ROOT, "web", "index.html"), "rb") as f:
            page = f.read()
        for path in ("", "?game=x", "index.html", "./"):
            with urllib.request.urlopen(url + path, timeout=10) as r:
                assert r.read() == page, path  # the root serves the page
        with urllib.request.urlopen(url + "icons/icon-192.png", timeout=10) as r:
            assert r.read(8) == b"\x89PNG\r\n\x1a\n"  # a folder's files are served
    finally:
        p.terminate()
        p.wait(10)


def test_web_option_refuses_a_bad_port():
    p = subprocess.run([sys.executable, "-m", "simulator", "--web", "http"], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert "--web takes one port number" in p.stderr


def _listening(port):
    """The local addresses a TCP socket listens on at port, read from the kernel's own table
    (Linux's /proc/net/tcp): what the server bound, not what it says it bound."""
    if not os.path.exists("/proc/net/tcp"):
        pytest.skip("no /proc/net/tcp to read the bound address from (not Linux)")
    found = []
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            addr, p = local.split(":")
            if int(p, 16) == port and state == "0A":  # LISTEN
                found.append(".".join(str(b) for b in reversed(bytes.fromhex(addr))))
    return found


def _start_web(*args):
    if shutil.which("npm") is None and not os.path.isdir(os.path.join(ROOT, "build", "wasm32")):
        pytest.skip("npm is needed once, to install the webassembly port")
    return subprocess.Popen([sys.executable, "-m", "simulator", "--web", "0"] + list(args),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, encoding="utf-8")


def _qr_lines(p):
    """The QR code block printed after the first line: lines of block characters, square."""
    lines = []
    while True:
        line = p.stdout.readline().rstrip("\n")
        if not line or not set(line) <= set(" \u2580\u2584\u2588"):
            return lines, line
        lines.append(line)


def test_web_serves_this_machine_only_by_default():
    p = _start_web()
    try:
        first = p.stdout.readline()
        port = int(first.split(":")[2].rstrip("/\n"))
        assert first == "serving http://127.0.0.1:%d/\n" % port
        assert _listening(port) == ["127.0.0.1"]
    finally:
        p.terminate()
        p.wait(10)


def test_what_the_site_has_not_is_the_tables_ten_bytes_and_python_is_not_named():
    # docs/table.md, "Safe on a café's network": the page's server is the table's too (--web).
    import http.client

    from simulator.table.server import NOT_FOUND

    p = _start_web()
    try:
        first = p.stdout.readline()
        port = int(first.split()[1].rsplit(":", 1)[1].rstrip("/"))
        for method, path in (("GET", "/no-such-secret/"), ("GET", "/icons/"),
                             ("DELETE", "/"), ("PUT", "/index.html"), ("PROPFIND", "/"),
                             ("OPTIONS", "*"), ("GET", "/index.html")):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request(method, path)
            r = c.getresponse()
            data = r.read()
            assert "Python" not in (r.getheader("Server") or ""), (method, path)
            if path != "/index.html" or method != "GET":
                assert (r.status, data) == (404, NOT_FOUND), (method, path, r.status, data)
            c.close()
    finally:
        p.terminate()
        p.wait(10)


def test_lan_serves_every_address_and_its_qr_code_leads_to_the_table_view():
    from simulator import web

    addr = web.lan_address()
    if addr is None:
        pytest.skip("this machine has no local network address to print")
    p = _start_web("--lan")
    try:
        first = p.stdout.readline()
        assert first.startswith("serving http://%s:" % addr), first + p.stderr.read()
        url = first.split()[1]
        assert first == "serving %s\n" % url
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        assert url == "http://%s:%d/" % (addr, port)
        # The unit is the page on this machine (where it also installs and runs offline); the
        # phones' code leads to the table view of that unit (docs/table.md).
        assert "http://127.0.0.1:%d/ on this machine" % port in p.stdout.readline()
        table = p.stdout.readline()
        assert table.startswith("table http://%s:%d/" % (addr, port)), table
        link = table.split()[1]
        qr, after = _qr_lines(p)
        assert len(qr) >= 15 and len({len(x) for x in qr}) == 1  # a square block of modules
        assert "\n".join(qr) + "\n" == web.qr_block(link)  # the code is the table's link
        assert "plain http" in after
        assert _listening(port) == ["0.0.0.0"]
        # Reached here over loopback only: the tests send nothing to the network.
        with urllib.request.urlopen("http://127.0.0.1:%d/index.html" % port, timeout=10) as r:
            assert b"<title>Bank unit</title>" in r.read()
        with urllib.request.urlopen(link.replace(addr, "127.0.0.1"), timeout=10) as r:
            assert b"<title>Bank unit: the table</title>" in r.read()
    finally:
        p.terminate()
        p.wait(10)


def test_host_serves_the_given_address_with_its_qr_code():
    p = _start_web("--host", "127.0.0.2")  # a loopback address that is not 127.0.0.1
    try:
        first = p.stdout.readline()
        assert first.startswith("serving http://127.0.0.2:"), first + p.stderr.read()
        port = int(first.split()[1].rsplit(":", 1)[1].rstrip("/"))
        assert p.stdout.readline().startswith("the unit: http://127.0.0.2:%d/" % port)
        assert p.stdout.readline().startswith("table http://127.0.0.2:%d/" % port)
        qr, _ = _qr_lines(p)
        assert len(qr) >= 15
        assert _listening(port) == ["127.0.0.2"]
    finally:
        p.terminate()
        p.wait(10)


def test_help_lists_web_and_its_options():
    p = subprocess.run([sys.executable, "-m", "simulator", "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0
    for words in ("--web [PORT] [--lan | --host ADDR]", "  --web [PORT]", "  --lan ",
                  "  --host ADDR"):
        assert words in p.stdout, words


@pytest.mark.parametrize("args,says", [
    (["--lan", "--host", "127.0.0.1"], "choose one of --lan and --host"),
    (["--host"], "--host needs an address"),
    (["--headless"], "--headless does not go with --web"),
    (["--host", "192.0.2.254"], "192.0.2.254 is not an address of this machine"),
])
def test_web_refuses_what_it_cannot_do_in_one_line(args, says):
    p = subprocess.run([sys.executable, "-m", "simulator", "--web", "0"] + args, cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert says in p.stderr.splitlines()[0] and "Traceback" not in p.stderr


def test_a_port_in_use_is_one_line_and_exit_2():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        p = subprocess.run([sys.executable, "-m", "simulator", "--web", str(port)], cwd=ROOT,
                           capture_output=True, text=True, timeout=30)
    finally:
        taken.close()
    assert p.returncode == 2
    assert p.stderr == ("simulator: port %d is in use on 127.0.0.1 (another --web?); "
                        "--web 0 picks a free one\n" % port)
    assert p.stdout == ""


def test_a_browser_gone_mid_file_leaves_no_traceback():
    import struct
    import time

    p = _start_web()
    try:
        port = int(p.stdout.readline().split(":")[2].rstrip("/\n"))
        for _ in range(5):  # a phone's tab closed while the port's binary is on its way
            c = socket.create_connection(("127.0.0.1", port), timeout=5)
            c.sendall(b"GET /micropython.wasm HTTP/1.1\r\nHost: x\r\n\r\n")
            c.recv(100)
            c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            c.close()  # reset, not a polite close
        time.sleep(0.05)
        with urllib.request.urlopen("http://127.0.0.1:%d/unit.js" % port, timeout=10) as r:
            assert r.status == 200  # still serving
    finally:
        p.terminate()
        _, err = p.communicate(timeout=10)
    assert "Traceback" not in err, err


def test_web_takes_its_port_as_web_equals_port_too():
    p = subprocess.run([sys.executable, "-m", "simulator", "--web=http"], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert p.stderr.splitlines()[0] == "simulator: --web takes one port number"
