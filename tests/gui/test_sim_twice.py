"""`make sim` twice: the second window finds the default game's flash held by the first and
refuses in one line (B17: two simulators on one state folder lose acknowledged money)."""

import os
import subprocess
import sys

from conftest import ROOT


def test_a_second_window_on_the_default_state_refuses(xdisplay, quiet_env, tmp_path):
    env = dict(quiet_env)
    env.pop("BANK_SIM_STATE")  # the default place, as make sim has it
    env["XDG_STATE_HOME"] = str(tmp_path)
    env["DISPLAY"] = xdisplay
    first = subprocess.Popen([sys.executable, "-m", "simulator", "--tcp", "0"], cwd=ROOT,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert first.stdout.readline().startswith(b"listening tcp 127.0.0.1:")
        state = os.path.join(str(tmp_path), "bank-unit-simulator")
        before = sorted(os.listdir(state))
        second = subprocess.run([sys.executable, "-m", "simulator"], cwd=ROOT, env=env,
                                capture_output=True, timeout=60)
        err = second.stderr.decode()
        assert second.returncode == 2, err
        assert err.count("\n") == 1 and "process %d" % first.pid in err, err
        assert sorted(os.listdir(state)) == before
    finally:
        first.terminate()
        first.wait(timeout=10)
