"""The pin suite's fixtures: one emulated Pico per MicroPython image, booted on the flash that
`make deploy` leaves (the frozen image: on a blank flash), shared by the scenarios of a module
(a boot costs ~10 s of wall time).

Every test here is parametrised by image version ("1.25.0", "1.28.0": stock MicroPython with the
deployed files; "frozen": the unit's own image, `make uf2`, on a blank flash). Where the
emulator or the images are missing the whole suite is skipped with one line saying which.
`-k 1.25` picks one version: `make test` runs them in parallel processes.
"""

import pytest

from tests.pico import rig

_MISSING = rig.emulator_missing()
_IMAGES = {} if _MISSING else rig.find_images()
VERSIONS = sorted(_IMAGES)


def pytest_collection_modifyitems(config, items):
    why = _MISSING or (None if _IMAGES else
                       "no MicroPython RPI_PICO image ($PICO_UF2, ../shared/pico/, no network)")
    if why:
        skip = pytest.mark.skip(reason="pin suite: " + why)
        for item in items:
            if "tests/pico/" in str(item.fspath).replace("\\", "/"):
                item.add_marker(skip)


def pytest_generate_tests(metafunc):
    if "version" in metafunc.fixturenames:
        metafunc.parametrize("version", VERSIONS or ["none"], scope="module")


@pytest.fixture(scope="module")
def image(version):
    return _IMAGES[version]
