"""firmware/manifest.py is the one list of what goes on a Pico: the frozen image's build
(tools/uf2.py), `make deploy` (tools/deploy.py), `bank deploy` (host_tools/deploy.py) and the
page's build (web/build.py) all read it, and desktop/ (code only a desktop runs) is never in it.
"""

import os
import shutil
import sys

import pytest

from host_tools import manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MANIFEST = os.path.join(FIRMWARE, "manifest.py")


def tool(name, folder="tools"):
    sys.path.insert(0, os.path.join(ROOT, folder))
    try:
        __import__(name)
        return sys.modules[name]
    finally:
        sys.path.pop(0)


def listed():
    return [rel for rel, _ in manifest.files(MANIFEST)]


def pico_modules():
    """Every module under firmware/ but desktop/'s (and the manifest itself)."""
    out = []
    for d, dirs, files in os.walk(FIRMWARE):
        dirs[:] = [x for x in dirs if x != "__pycache__"]
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), FIRMWARE).replace(os.sep, "/")
            if f.endswith(".py") and rel != "manifest.py" and not rel.startswith("desktop/"):
                out.append(rel)
    return sorted(out)


def test_the_manifest_lists_every_module_a_pico_runs_and_no_desktop_code():
    got = listed()
    assert got == pico_modules()
    assert "main.py" in got and "board/drivers/ht1621.py" in got and "brain/unit.py" in got
    assert not [rel for rel in got if rel.startswith("desktop/")]


def test_make_deploy_sends_what_the_manifest_lists(tmp_path):
    deploy = tool("deploy")
    assert [rel for rel, _ in deploy.sources()] == listed()
    # It reads the manifest, not the folder: a module the manifest leaves out stays home.
    fw = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, fw)
    text = (fw / "manifest.py").read_text()
    (fw / "manifest.py").write_text(text.replace('module("pins.py")\n', ""))
    sent = [rel for rel, _ in deploy.sources(str(fw))]
    assert "pins.py" not in sent and "app.py" in sent


def test_deploy_writes_which_build_it_is(tmp_path):
    deploy = tool("deploy")
    version = dict(deploy.sources())["version.py"]
    scope = {}
    exec(open(version).read(), scope)
    assert scope["VERSION"] == manifest.describe() + "+files"
    assert manifest.describe().startswith(manifest.base_version())


def test_bank_deploy_of_another_tree_follows_make_deploys_plan(tmp_path, capsys, monkeypatch):
    # One deployer: another tree goes by tools/deploy.py's plan, as the repository's own does:
    # what its manifest lists, compiled with --mpy (main.py kept as source), desktop/ and
    # anything else in the folder left at home.
    from host_tools import cli

    fw = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, fw)
    (fw / "notes.txt").write_text("not for the Pico")
    monkeypatch.setenv("MPREMOTE", "mpremote-never-run")
    code = cli.main(["--port", "/dev/ttyACM7", "deploy", "--firmware", str(fw), "--dry-run",
                     "--mpy"])
    out = capsys.readouterr().out
    assert code == 0
    sent = sorted(w[2:] for w in out.split() if w.startswith(":/"))
    assert sent == sorted(rel if rel == "main.py" else rel[:-3] + ".mpy" for rel in listed())
    assert str(fw / "main.py") in out  # the tree named, not the repository's
    assert "notes.txt" not in out and "desktop" not in out


def test_a_tree_without_a_manifest_is_refused_and_nothing_runs(tmp_path, capsys, monkeypatch):
    from host_tools import cli

    (tmp_path / "main.py").write_text("")
    monkeypatch.setenv("MPREMOTE", str(tmp_path / "no-such-mpremote"))
    pico = tmp_path / "ttyACM7"  # a Pico's port that is there: the manifest is what is missing
    pico.touch()
    code = cli.main(["--port", str(pico), "deploy", "--firmware", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "no manifest.py in %s" % tmp_path in err


def test_the_page_runs_the_manifest_and_the_desktop_code():
    build = tool("build", "web")
    desktop = sorted(os.path.relpath(os.path.join(d, f), FIRMWARE).replace(os.sep, "/")
                     for d, _, fs in os.walk(os.path.join(FIRMWARE, "desktop"))
                     for f in fs if f.endswith(".py"))
    assert desktop and build.firmware_files() == sorted(listed() + desktop)


def test_the_reader_refuses_what_means_nothing_on_the_flash(tmp_path):
    (tmp_path / "a.py").write_text("")
    (tmp_path / "manifest.py").write_text('module("a.py")\nrequire("aioble")\n')
    with pytest.raises(manifest.ManifestError, match="require"):
        manifest.files(str(tmp_path / "manifest.py"))
    (tmp_path / "manifest.py").write_text('module("b.py")\n')
    with pytest.raises(manifest.ManifestError, match="no file"):
        manifest.files(str(tmp_path / "manifest.py"))
