"""tools/deploy.py: what it asks mpremote to do (a fake mpremote records it)."""

import ast
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "tools", "deploy.py")

FAKE = """import json, os, sys
fails = os.environ.get("FAKE_FAILS")  # a file counting the runs that still fail
if fails and not any("implementation._mpy" in a for a in sys.argv):
    left = int(open(fails).read())
    if left:
        open(fails, "w").write(str(left - 1))
        sys.exit(1)
if any("implementation._mpy" in a for a in sys.argv):  # the board is asked which .mpy it imports
    if os.environ.get("FAKE_MPY"):
        print(os.environ["FAKE_MPY"])
        sys.exit(0)
    sys.exit(1)  # a board that cannot be asked
with open(sys.argv[1], "w") as f:
    json.dump(sys.argv[2:], f)
"""


def pico(tmp_path):
    """A Pico's port that is there: the fake mpremote is the one to talk to it."""
    port = tmp_path / "ttyACM7"
    port.touch()
    return str(port)


def run_deploy(tmp_path, *args, mpy=None, fails=0, code=0):
    fake = tmp_path / "fake_mpremote.py"
    fake.write_text(FAKE)
    record = tmp_path / "argv.json"
    env = dict(os.environ)
    env["MPREMOTE"] = "%s %s %s" % (sys.executable, fake, record)
    env.pop("BANK_PORT", None)
    env.pop("FAKE_MPY", None)
    if mpy is not None:
        env["FAKE_MPY"] = str(mpy)
    counter = tmp_path / "fails"
    counter.write_text(str(fails))
    env["FAKE_FAILS"] = str(counter)
    res = subprocess.run([sys.executable, DEPLOY] + list(args), cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == code, res.stderr
    if code:
        return res.stderr
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
    assert "os.mkdir(d)" in cmds[0][3] and "'/board/drivers'" in cmds[0][3]
    copied = {c[3] for c in cmds if c[:2] == ["fs", "cp"]}
    assert ":/main.py" in copied and ":/brain/unit.py" in copied and ":/pins.py" in copied
    assert ":/board/drivers/ht1621.py" in copied
    assert not any("/bank" in c for c in copied)  # the ledger is never touched
    assert not any(c.startswith(":/desktop/") for c in copied)  # host-only code stays home
    assert cmds[-1] == ["reset"]


def test_deploy_mpy_keeps_main_as_source(tmp_path):
    argv = run_deploy(tmp_path, "--port", pico(tmp_path), "--mpy", "--no-reset")
    cmds = chain(argv)
    copied = {c[3] for c in cmds if c[:2] == ["fs", "cp"]}
    assert ":/main.py" in copied and ":/brain/unit.mpy" in copied
    assert ":/board/drivers/keypad.mpy" in copied
    assert ":/brain/unit.py" not in copied
    assert "'/brain/unit.py'" in cmds[0][3]  # the stale source is removed so it cannot shadow
    # Only the other form of each file copied is removed: the ledger and anything else stay.
    removed = cmds[0][3].split("for f in ")[1].split(":\n")[0]
    twins = {"/" + c[2:-4] + ".py" for c in copied if c.endswith(".mpy")}
    twins |= {"/" + c[2:-3] + ".mpy" for c in copied if c.endswith(".py")}
    assert sorted(ast.literal_eval(removed)) == sorted(twins)
    assert "bank.a" not in cmds[0][3]
    assert cmds[-1][0] == "fs"


def copied_files(argv):
    return {c[3] for c in chain(argv) if c[:2] == ["fs", "cp"]}


def test_deploy_auto_compiles_for_a_board_that_imports_our_mpy(tmp_path):
    # sys.implementation._mpy of an rp2 board on MicroPython 1.23+: v6.3, arch armv6m (2)
    argv = run_deploy(tmp_path, "--port", pico(tmp_path), mpy=6 | (3 << 8) | (2 << 10))
    files = copied_files(argv)
    assert ":/brain/unit.mpy" in files and ":/main.py" in files and ":/brain/unit.py" not in files


def test_deploy_auto_sends_sources_to_an_older_micropython(tmp_path):
    # MicroPython 1.21 imports mpy v6.1 only: compiled modules would not import there
    argv = run_deploy(tmp_path, "--port", pico(tmp_path), mpy=6 | (1 << 8) | (2 << 10))
    files = copied_files(argv)
    assert ":/brain/unit.py" in files and ":/brain/unit.mpy" not in files


def test_deploy_auto_sends_sources_when_the_board_will_not_say(tmp_path):
    files = copied_files(run_deploy(tmp_path, "--port", pico(tmp_path)))
    assert ":/brain/unit.py" in files and ":/brain/unit.mpy" not in files
    files = copied_files(run_deploy(tmp_path, "--port", pico(tmp_path), "--mpy", "no",
                                    mpy=6 | (3 << 8)))
    assert ":/brain/unit.py" in files


def test_deploy_copies_again_once_when_mpremote_gives_up(tmp_path):
    # A board that went quiet for mpremote's 10 s (busy, or emulated on a loaded machine).
    argv = run_deploy(tmp_path, "--port", "socket://127.0.0.1:2217", "--mpy", "no", fails=1)
    assert chain(argv)[-1] == ["reset"]


def test_deploy_fails_when_mpremote_fails_twice(tmp_path):
    err = run_deploy(tmp_path, "--port", "socket://127.0.0.1:2217", "--mpy", "no", fails=2,
                     code=1)
    assert "copying again" in err and err.count("mpremote exited with 1") == 2


def _simulator(*args):
    p = subprocess.Popen([sys.executable, "-m", "simulator", "--headless", "--tcp", "0", *args],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline().decode()
    assert first.startswith("listening tcp 127.0.0.1:"), first
    return p, "socket://127.0.0.1:%s" % first.split(":")[-1].strip()


def test_deploy_onto_a_unit_in_play_is_refused_in_one_line_and_nothing_is_copied(tmp_path):
    # In play no host may stop the unit (docs/protocol.md): the deployer asks it first and says
    # what to do, rather than leaving mpremote to fail at the raw REPL.
    sim, port = _simulator()
    try:
        err = run_deploy(tmp_path, "--port", port, "--mpy", "no", code=1)
    finally:
        sim.terminate()
        sim.wait(10)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "in play" in lines[0] and "hold DEAL 3 s" in lines[0], err
    assert not (tmp_path / "argv.json").exists()  # mpremote was never run


def test_deploy_to_a_port_that_is_not_there_says_so_in_one_line(tmp_path):
    err = run_deploy(tmp_path, "--port", "/dev/ttyNOPE9", code=1)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("deploy: no unit at /dev/ttyNOPE9: no such "
                                                   "port"), err
    assert not (tmp_path / "argv.json").exists()  # mpremote was never run


def test_deploy_onto_a_unit_in_maintenance_goes_ahead(tmp_path):
    sim, port = _simulator("--maintenance")
    try:
        argv = run_deploy(tmp_path, "--port", port, "--mpy", "no")
    finally:
        sim.terminate()
        sim.wait(10)
    assert chain(argv)[-1] == ["reset"]
