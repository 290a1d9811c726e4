# Every target sets up .venv from the project's own files first, so a fresh
# machine with Python >= 3.11 and make needs nothing else.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JS_BOT   := example_bots/js
JS_STAMP := $(JS_BOT)/node_modules/.installed

.PHONY: demo test bench proto clean

PROTO_SRC := proto/bideuchre/v1/arena.proto

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required (found " + sys.version.split()[0] + "); set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# A short round-robin of the example bots over the real referee (a process per
# seat, a table per CPU), then the standings; the Monte Carlo bot thinks for
# half of its 200 ms per decision. Everything lands in logs/tournament-*/.
demo: $(STAMP)
	$(BIN)/arena tournament --games 4 --move-time 200 \
	    --bot random='python -m example_bots.random_bot' \
	    --bot rules='python -m example_bots.rules_bot' \
	    --bot montecarlo='python -m example_bots.montecarlo_bot'

# The replay viewer's tests drive Debian's Chromium through Playwright (pip's
# playwright package, with the system browser: its own download is not used).
# Installed here when missing; CI runs as root, elsewhere sudo asks.
CHROMIUM := /usr/bin/chromium
SUDO     := $(if $(filter 0,$(shell id -u)),,sudo)

test: $(STAMP) $(CHROMIUM) $(JS_STAMP)
	$(BIN)/python -m pytest -q

$(CHROMIUM):
	@command -v apt-get >/dev/null || { echo "the browser tests need Chromium at $(CHROMIUM) (Debian package chromium)"; exit 1; }
	$(SUDO) apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# The JavaScript example bot (example_bots/js) needs Node.js >= 18 and its npm
# packages, at the exact versions of its package-lock.json. `npm ci` runs again
# when package.json or package-lock.json changes. Node.js and npm come from
# Debian (packages nodejs and npm) when missing; as above, sudo unless root.
$(JS_STAMP): $(JS_BOT)/package.json $(JS_BOT)/package-lock.json
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  command -v apt-get >/dev/null || { echo "the JavaScript bot needs Node.js >= 18 and npm; install both and run make again"; exit 1; }; \
	  echo "installing Node.js and npm from Debian"; \
	  { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; } \
	    || { echo "could not install Node.js and npm with apt-get (Debian packages nodejs, npm)"; exit 1; }; \
	fi
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' \
	  || { echo "the JavaScript bot needs Node.js >= 18 (found $$(node --version))"; exit 1; }
	cd $(JS_BOT) && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/referee.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/scale.py

# Regenerate the committed Python code from proto/ (grpcio-tools is pinned in
# pyproject.toml; tests/protocol fails when the committed code is stale).
proto: $(STAMP)
	$(BIN)/python -m grpc_tools.protoc -Ireferee/protocol=proto --python_out=. --pyi_out=. --grpc_python_out=. $(PROTO_SRC)

clean:
	rm -rf $(VENV) build *.egg-info $(JS_BOT)/node_modules
