"""The README's commands run as written, from the repository's folder once `make sim` has built
.venv: each line of its ```sh blocks is run, briefly (a `--help` to its end; a server until it
says it serves, then stopped; a make target with `make -n`, which runs nothing, since `make sim`
and `make test` take minutes), and a command in its prose is one of these kinds too: never a
bare `python` or `bank`, which a fresh clone's shell does not have with the packages."""

import os
import re
import select
import shlex
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
VENV_PY = os.path.join(ROOT, ".venv", "bin", "python")
FIRST_LINE_S = 90  # a server's first line: the page's build, on a busy machine


def sh_lines(text):
    """Each command of the ```sh blocks, its comment cut off."""
    out = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def prose_commands(text):
    """The inline code spans outside the blocks that are commands: `make ...`, `.venv/bin/...`,
    and those that name the venv's tools bare (`python -m ...`, `bank ...`)."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    spans = re.findall(r"`([^`\n]+)`", prose)
    return [s for s in spans if re.match(r"(make|python3?|bank|\.venv/bin/\S+)( |$)", s)]


def make_n(line):
    """`make -n` of a make command: its targets exist and its variables parse; nothing runs."""
    args = shlex.split(line)
    got = subprocess.run(["make", "-n"] + args[1:], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert got.returncode == 0, "%s: %s" % (line, got.stderr.strip()[-500:])


def bounded(line):
    """line run in the repository's folder by a shell: to its end (exit 0) if it asks for help,
    else until its first line of output, then stopped (a server or a window's protocol)."""
    env = dict(os.environ, BANK_SIM_STATE="none", BANK_SIM_SOUND="off")
    env.pop("DISPLAY", None)
    if "--help" in shlex.split(line):
        got = subprocess.run(line, shell=True, cwd=ROOT, capture_output=True, text=True,
                             timeout=60, env=env)
        assert got.returncode == 0 and got.stdout.strip(), "%s: %s" % (
            line, got.stderr.strip()[-800:])
        return got.stdout
    proc = subprocess.Popen(line, shell=True, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        first = ""
        end = time.monotonic() + FIRST_LINE_S
        while not first.strip() and time.monotonic() < end:
            ready, _, _ = select.select([proc.stdout], [], [], end - time.monotonic())
            if not ready:
                break
            first = proc.stdout.readline()
            if not first:
                break  # it ended
        if not first:  # its output ended: it is ending, and says why on stderr
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        proc.poll()
        assert first.strip() and proc.returncode in (None, 0), "%s said %r; stderr: %s" % (
            line, first, proc.stderr.read()[-800:] if proc.returncode is not None else "")
        return first
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def readme():
    with open(README, encoding="utf-8") as f:
        return f.read()


@pytest.fixture(scope="module")
def venv():
    if not os.path.exists(VENV_PY):
        pytest.skip("no .venv here: the README's commands run after make sim (make setup)")
    return VENV_PY


def test_the_readme_s_commands_name_the_venv_or_make_never_a_bare_python():
    text = readme()
    cmds = sh_lines(text) + prose_commands(text)
    bare = [c for c in cmds if re.match(r"(python3?|bank) ", c)]  # a command, not the name
    assert bare == [], "not as written on a fresh clone (use .venv/bin/ or make): %s" % bare
    assert len(sh_lines(text)) >= 8  # the blocks are found


def test_the_readme_s_make_commands_name_targets_that_exist(venv):
    text = readme()
    makes = [c for c in sh_lines(text) + prose_commands(text) if c.startswith("make")]
    assert {"make sim", "make test", "make web-serve", "make pico"} <= set(makes)
    for line in makes:
        make_n(line)


def test_a_make_target_that_does_not_exist_fails_the_check():
    with pytest.raises(AssertionError, match="No rule to make target"):
        make_n("make no-such-target")


def test_each_command_of_the_readme_s_blocks_runs_as_written(venv):
    ran = []
    for line in sh_lines(readme()):
        if line.startswith("make"):
            continue  # above: make -n
        prog = line.split("|")[-1].split()[0]  # a pipe's last command: the venv's
        assert prog.startswith(".venv/bin/"), line
        assert os.access(os.path.join(ROOT, prog), os.X_OK), line
        first = bounded(line)
        ran.append((line, first.splitlines()[0] if first else ""))
    said = dict(ran)
    served = ".venv/bin/python -m simulator --headless --tcp 5000"
    assert said[served] == "listening tcp 127.0.0.1:5000"
    played = "printf 'HELLO\\nINSERT L 3\\nKEY 1 5 0 K +\\n' | %s" % served[:-11]
    assert said[played].startswith('OK {"device": "bank-unit", ')  # HELLO's reply
    assert said[".venv/bin/python -m simulator --web --lan"].startswith("serving http://")
    assert said[".venv/bin/bank --help"].startswith("usage: bank")
    # The inline commands of the prose that are the venv's own run too (their programs).
    for span in prose_commands(readme()):
        if span.startswith(".venv/bin/"):
            assert os.access(os.path.join(ROOT, span.split()[0]), os.X_OK), span


def test_a_command_that_fails_as_written_fails_the_check(venv):
    # The README's commands of before: a system python without the venv's packages (-S: none
    # of site-packages) ends in ModuleNotFoundError, which the check reports.
    with pytest.raises(AssertionError, match="ModuleNotFoundError"):
        bounded("%s -S -m host_tools --help" % shlex.quote(sys.executable))
    with pytest.raises(AssertionError, match="ModuleNotFoundError"):
        bounded("%s -S -m simulator --web 0" % shlex.quote(sys.executable))
