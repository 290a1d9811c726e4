# Every target sets up .venv from the project's own files first, so a fresh
# machine with Python >= 3.11 and make needs nothing else.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench proto clean

PROTO_SRC := proto/bideuchre/v1/arena.proto

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required (found " + sys.version.split()[0] + "); set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# A short match of the example bots over the real referee (a process per seat).
demo: $(STAMP)
	$(BIN)/arena match --games 3

# The replay viewer's tests drive Debian's Chromium through Playwright (pip's
# playwright package, with the system browser: its own download is not used).
# Installed here when missing; CI runs as root, elsewhere sudo asks.
CHROMIUM := /usr/bin/chromium
SUDO     := $(if $(filter 0,$(shell id -u)),,sudo)

test: $(STAMP) $(CHROMIUM)
	$(BIN)/python -m pytest -q

$(CHROMIUM):
	@command -v apt-get >/dev/null || { echo "the browser tests need Chromium at $(CHROMIUM) (Debian package chromium)"; exit 1; }
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/referee.py

# Regenerate the committed Python code from proto/ (grpcio-tools is pinned in
# pyproject.toml; tests/protocol fails when the committed code is stale).
proto: $(STAMP)
	$(BIN)/python -m grpc_tools.protoc -Ireferee/protocol=proto --python_out=. --pyi_out=. --grpc_python_out=. $(PROTO_SRC)

clean:
	rm -rf $(VENV) build *.egg-info
