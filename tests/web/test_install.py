"""The page installs as an app (docs/web.md, "Installing it"): a web app manifest with its
icons, full screen, the offline copy; Chromium itself says it is installable."""

import struct
import urllib.request


def _png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_chromium_finds_the_page_installable(page):
    page.load()
    drv = page.drv
    # The offline copy first: an app that does not work offline is not one to install.
    assert drv.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(() => done(true), (e) => done(String(e)));""")
    got = drv.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert got["installabilityErrors"] == []
    manifest = drv.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["errors"] == []
    assert manifest["url"] == page.origin + "/manifest.webmanifest"
    assert '"display": "fullscreen"' in manifest["data"]
    assert page.console_errors() == []


def test_the_manifest_icons_are_pngs_of_their_sizes(origin):
    import json

    with urllib.request.urlopen(origin + "/manifest.webmanifest", timeout=10) as r:
        assert r.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(r)
    sizes = set()
    for icon in manifest["icons"]:
        with urllib.request.urlopen(origin + "/" + icon["src"], timeout=10) as r:
            assert r.headers["Content-Type"] == "image/png"
            w, h = _png_size(r.read())
        assert "%dx%d" % (w, h) == icon["sizes"]
        sizes.add(w)
    assert {192, 512} <= sizes
