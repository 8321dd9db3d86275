"""tools/deploy.py: what it asks mpremote to do (a fake mpremote records it)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "tools", "deploy.py")

FAKE = """import json, sys
with open(sys.argv[1], "w") as f:
    json.dump(sys.argv[2:], f)
"""


def run_deploy(tmp_path, *args):
    fake = tmp_path / "fake_mpremote.py"
    fake.write_text(FAKE)
    record = tmp_path / "argv.json"
    env = dict(os.environ)
    env["MPREMOTE"] = "%s %s %s" % (sys.executable, fake, record)
    env.pop("BANK_PORT", None)
    res = subprocess.run([sys.executable, DEPLOY] + list(args), cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    import json

    return json.loads(record.read_text())


def chain(argv):
    """mpremote's '+'-separated commands."""
    out = [[]]
    for a in argv:
        if a == "+":
            out.append([])
        else:
            out[-1].append(a)
    return out


def test_deploy_copies_firmware_flat_and_resets(tmp_path):
    argv = run_deploy(tmp_path, "--port", "socket://127.0.0.1:2217")
    cmds = chain(argv)
    assert cmds[0][:3] == ["connect", "socket://127.0.0.1:2217", "exec"]
    assert "os.mkdir(d)" in cmds[0][3] and "'/drivers'" in cmds[0][3]
    copied = {c[3] for c in cmds if c[:2] == ["fs", "cp"]}
    assert ":/main.py" in copied and ":/unit.py" in copied and ":/pins.py" in copied
    assert ":/drivers/ht1621.py" in copied
    assert not any("/bank" in c for c in copied)  # the ledger is never touched
    assert cmds[-1] == ["reset"]


def test_deploy_mpy_keeps_main_as_source(tmp_path):
    argv = run_deploy(tmp_path, "--port", "/dev/ttyACM7", "--mpy", "--no-reset")
    cmds = chain(argv)
    copied = {c[3] for c in cmds if c[:2] == ["fs", "cp"]}
    assert ":/main.py" in copied and ":/unit.mpy" in copied and ":/drivers/keypad.mpy" in copied
    assert ":/unit.py" not in copied
    assert "'/unit.py'" in cmds[0][3]  # the stale source is removed so it cannot shadow
    assert cmds[-1][0] == "fs"
