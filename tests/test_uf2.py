"""tools/uf2.py (`make uf2`): what it stages for the freezer, and the one line it says when this
machine cannot build the image (then `make test` skips only the pin suite on that image).
The image itself is built by `make test` and played by the pin suite (tests/pico/)."""

import hashlib
import os
import subprocess
import sys

from host_tools import manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")

sys.path.insert(0, os.path.join(ROOT, "tools"))
try:
    import uf2
finally:
    sys.path.pop(0)


def listed():
    return [rel for rel, _ in manifest.files(os.path.join(FIRMWARE, "manifest.py"))]


def test_the_image_freezes_what_the_manifest_lists(tmp_path):
    stale = tmp_path / "firmware" / "brain" / "gone.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("x = 1\n")  # a module a former build staged, since left out
    frozen = uf2.stage(str(tmp_path), "9.9.9-gabc1234")
    assert 'include("$(PORT_DIR)/boards/manifest.py")' in open(frozen).read()
    staged = manifest.files(str(tmp_path / "firmware" / "manifest.py"))
    assert sorted(rel for rel, _ in staged) == sorted(listed())
    assert not stale.exists()
    scope = {}
    exec((tmp_path / "firmware" / "version.py").read_text(), scope)
    assert scope["VERSION"] == "9.9.9-gabc1234+frozen"
    with open(os.path.join(FIRMWARE, "brain", "unit.py")) as f:
        assert (tmp_path / "firmware" / "brain" / "unit.py").read_text() == f.read()
    # Unchanged files are not rewritten: the freezer recompiles only what changed.
    before = os.stat(tmp_path / "firmware" / "brain" / "unit.py").st_mtime_ns
    os.utime(tmp_path / "firmware" / "brain" / "unit.py", ns=(before - 10**9, before - 10**9))
    uf2.stage(str(tmp_path), "9.9.9-gabc1234")
    assert os.stat(tmp_path / "firmware" / "brain" / "unit.py").st_mtime_ns == before - 10**9


def check(capsys):
    code = uf2.main(["--check"])
    err = capsys.readouterr().err.strip()
    return code, err


def no_archive(tmp_path, monkeypatch):
    monkeypatch.delenv("MICROPY_DIR", raising=False)
    monkeypatch.setattr(uf2, "check_toolchain", lambda: None)
    monkeypatch.setattr(uf2, "SHARED", str(tmp_path / "shared"))
    monkeypatch.setenv("BANK_UNIT_CACHE", str(tmp_path / "cache"))
    # Nothing here reaches a network: every command tools/uf2.py runs is answered here.
    ran = []

    def refuse(cmd, **kw):
        ran.append(cmd)
        raise subprocess.CalledProcessError(128, cmd)

    monkeypatch.setattr(uf2, "run", refuse)
    monkeypatch.setattr(uf2.subprocess, "run", refuse)
    return ran


def test_no_source_is_one_line_that_says_what_is_missing(tmp_path, monkeypatch, capsys):
    no_archive(tmp_path, monkeypatch)
    real_which = uf2.shutil.which
    monkeypatch.setattr(uf2.shutil, "which", lambda n: None if n == "git" else real_which(n))
    code, err = check(capsys)
    assert code == 3 and len(err.splitlines()) == 1
    assert "MICROPY_DIR" in err and uf2.ARCHIVE in err and "git" in err
    monkeypatch.setenv("MICROPY_DIR", str(tmp_path))
    code, err = check(capsys)
    assert code == 3 and "MICROPY_DIR=%s holds no MicroPython tree" % tmp_path in err


def test_a_damaged_archive_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("MICROPY_DIR", raising=False)
    monkeypatch.setattr(uf2, "check_toolchain", lambda: None)
    monkeypatch.setattr(uf2, "SHARED", str(tmp_path))
    monkeypatch.setenv("BANK_UNIT_CACHE", str(tmp_path / "cache"))
    (tmp_path / uf2.ARCHIVE).write_bytes(b"not the sources")
    (tmp_path / "SHA256SUMS").write_text("%s  %s\n" % (hashlib.sha256(b"the sources")
                                                     .hexdigest(), uf2.ARCHIVE))
    code = uf2.main([])
    err = capsys.readouterr().err
    assert code == 3 and "is damaged" in err
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").rglob("*.c"))


def test_no_toolchain_names_the_packages(monkeypatch, capsys):
    monkeypatch.setattr(uf2.shutil, "which", lambda name: None)
    code, err = check(capsys)
    assert code == 3 and len(err.splitlines()) == 1
    assert "gcc-arm-none-eabi" in err and "libnewlib-arm-none-eabi" in err and "cmake" in err


def test_a_micropython_dir_of_another_version_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(uf2, "check_toolchain", lambda: None)
    (tmp_path / "ports" / "rp2").mkdir(parents=True)
    (tmp_path / "ports" / "rp2" / "Makefile").write_text("")
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR 25\n"
        "#define MICROPY_VERSION_MICRO 0\n")
    monkeypatch.setenv("MICROPY_DIR", str(tmp_path))
    code, err = check(capsys)
    assert code == 3 and "is MicroPython 1.25.0; the image is built from v1.28.0" in err
    (tmp_path / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR 28\n"
        "#define MICROPY_VERSION_MICRO 0\n")
    code, err = check(capsys)
    assert code == 3 and "has no pico-sdk" in err



def test_with_no_archive_the_pinned_tag_is_fetched_where_a_network_exists(tmp_path, monkeypatch,
                                                                          capsys):
    ran = no_archive(tmp_path, monkeypatch)
    monkeypatch.setattr(uf2.shutil, "which", lambda n: "/usr/bin/" + n)
    # No network: --check asks for the tag and says, in one line, that it cannot be had.
    code, err = check(capsys)
    assert code == 3 and len(err.splitlines()) == 1
    assert uf2.GIT_URL + " cannot be reached" in err and uf2.ARCHIVE in err
    assert ran[-1][:2] == ["git", "ls-remote"] and ran[-1][-1] == "refs/tags/v1.28.0"
    # The build too: one line, status 3, and no half checkout taken for a whole one later.
    assert uf2.main([]) == 3
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "fetching it from %s failed" % uf2.GIT_URL in err
    home = tmp_path / "cache" / "micropython-1.28.0-git"
    assert not (home / ".checked-out").exists()
    # A network: a shallow clone of the tag, then the rp2 port's submodules, once.
    ran.clear()

    def fetch(cmd, **kw):
        ran.append(cmd)
        if cmd[:2] == ["git", "clone"]:
            os.makedirs(os.path.join(cmd[-1], "ports", "rp2"))

    monkeypatch.setattr(uf2, "run", fetch)
    mp, picotool, got_home = uf2.sources()
    assert mp == str(home / "micropython") and picotool is None and got_home == str(home)
    assert ran == [["git", "clone", "--depth", "1", "--branch", "v1.28.0", uf2.GIT_URL, mp],
                   ["make", "-C", os.path.join(mp, "ports", "rp2"), "BOARD=RPI_PICO",
                    "submodules"]]
    ran.clear()
    assert uf2.sources()[0] == mp and ran == []  # the cache's checkout, not a second fetch
