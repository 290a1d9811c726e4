# Every target sets up .venv from the project's own files first, so a fresh
# machine with Python >= 3.11 and make needs nothing else.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JS_BOT   := example_bots/js
JS_STAMP := $(JS_BOT)/node_modules/.installed
CPP_BOT  := example_bots/cpp
CPP_BIN  := $(CPP_BOT)/build/bot

.PHONY: demo test bench proto cpp-bot sdk-wheel clean

PROTO_SRC := proto/bideuchre/v1/arena.proto

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required (found " + sys.version.split()[0] + "); set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# A short round-robin of the example bots over the real referee (a process per
# seat, a table per CPU), then the standings; the Monte Carlo bot thinks for
# half of its 200 ms per decision. Everything lands in logs/tournament-*/; the last
# line printed says where its report is (report.html: open it in a browser).
demo: $(STAMP)
	$(BIN)/arena tournament --games 4 --move-time 200 \
	    --bot random='python -m example_bots.random_bot' \
	    --bot rules='python -m example_bots.rules_bot' \
	    --bot montecarlo='python -m example_bots.montecarlo_bot'

# Debian packages a target needs, installed with apt-get when missing: as root,
# or through sudo, which asks for your password (the line before it says why).
# Without apt-get, or neither root nor sudo, it stops with one line saying what
# to install. $(call apt_install,WHAT,PACKAGES)
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
apt_install = command -v apt-get >/dev/null \
	  || { echo "missing for $(1): the Debian packages $(2); install them, then run make again"; exit 1; }; \
	[ -z "$(SUDO)" ] || command -v $(SUDO) >/dev/null \
	  || { echo "missing for $(1): the Debian packages $(2), and installing them needs root: run 'apt-get install $(2)' as root, then make again"; exit 1; }; \
	echo "installing $(2) for $(1) with $(if $(SUDO),sudo )apt-get"; \
	{ $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2); } \
	  || { echo "could not install $(2) with apt-get: install them as root, then run make again"; exit 1; }

# The replay viewer's tests drive Debian's Chromium through Playwright (pip's
# playwright package, with the system browser: its own download is not used).
CHROMIUM := /usr/bin/chromium

# Bots run in a bubblewrap sandbox (docs/security.md); tests/hostile checks it
# holds, and fails where bubblewrap is missing. Installed from Debian when missing.
# (Defined before the rule that names it: make expands a prerequisite as it reads it.)
BWRAP := /usr/bin/bwrap

# The checks first (ruff, mypy: pinned in the dev extra that $(STAMP) installs), then the suite.
test: $(STAMP) $(CHROMIUM) $(BWRAP) $(JS_STAMP) $(CPP_BIN)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

$(CHROMIUM):
	@$(call apt_install,the browser tests,chromium)

$(BWRAP):
	@$(call apt_install,the bot sandbox,bubblewrap)

# The JavaScript example bot (example_bots/js) needs Node.js >= 18 and its npm
# packages, at the exact versions of its package-lock.json. `npm ci` runs again
# when package.json or package-lock.json changes. Node.js and npm come from
# Debian (packages nodejs and npm) when missing, as above.
$(JS_STAMP): $(JS_BOT)/package.json $(JS_BOT)/package-lock.json
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
	  $(call apt_install,the JavaScript bot,nodejs npm); \
	fi
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' \
	  || { echo "the JavaScript bot needs Node.js >= 18 (found $$(node --version))"; exit 1; }
	cd $(JS_BOT) && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

# The C++ example bot (example_bots/cpp): its protocol code is generated from
# proto/ by protoc and grpc_cpp_plugin into $(CPP_BOT)/build/ (not committed),
# then compiled against Debian's gRPC (packages libgrpc++-dev,
# protobuf-compiler-grpc, pkg-config, g++), installed as above when missing.
CPP_GEN := $(CPP_BOT)/build/gen
CPP_HAS_TOOLS := command -v protoc >/dev/null && command -v grpc_cpp_plugin >/dev/null \
	&& command -v g++ >/dev/null && pkg-config --exists grpc++ protobuf 2>/dev/null

cpp-bot: $(CPP_BIN)

$(CPP_BIN): $(CPP_BOT)/bot.cc $(PROTO_SRC)
	@if ! { $(CPP_HAS_TOOLS); }; then \
	  $(call apt_install,the C++ bot,g++ pkg-config libgrpc++-dev protobuf-compiler-grpc); \
	fi
	@mkdir -p $(CPP_GEN)
	protoc -Iproto --cpp_out=$(CPP_GEN) --grpc_out=$(CPP_GEN) --plugin=protoc-gen-grpc=$$(command -v grpc_cpp_plugin) $(PROTO_SRC)
	g++ -std=c++17 -O2 -I$(CPP_GEN) -o $@ $(CPP_BOT)/bot.cc \
	    $(CPP_GEN)/bideuchre/v1/arena.pb.cc $(CPP_GEN)/bideuchre/v1/arena.grpc.pb.cc \
	    $$(pkg-config --cflags --libs grpc++ protobuf)

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/referee.py
	$(BIN)/python bench/wire.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/sandbox.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/analyze.py

# Regenerate the committed Python code from proto/ (grpcio-tools is pinned in
# pyproject.toml; tests/protocol fails when the committed code is stale). The
# descriptor names the file bideuchre/v1/arena.proto, as clients import it.
proto: $(STAMP)
	$(BIN)/python tools/gen_proto.py

# The slim SDK for Python bot authors (sdk-dist/README.md): a wheel of the engine, the wire conversion, the
# SDK and the Python example bots, needing only grpcio and protobuf, in dist/. pip fetches its build backend
# (hatchling) into a build environment of its own.
sdk-wheel: $(STAMP)
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir dist ./sdk-dist

clean:
	rm -rf $(VENV) build dist *.egg-info $(JS_BOT)/node_modules $(CPP_BOT)/build
