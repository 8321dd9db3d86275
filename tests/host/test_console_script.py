"""`make setup` installs the host tools as the `bank` console script."""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BANK = os.path.join(ROOT, ".venv", "bin", "bank")


def test_bank_console_script_runs_the_cli():
    assert os.path.exists(BANK), "make setup did not install the bank console script"
    p = subprocess.run([BANK, "--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    assert "balances" in p.stdout and "monitor" in p.stdout
    p = subprocess.run([BANK, "--port", "/dev/no-such-port", "balances"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 3 and "Traceback" not in p.stderr
