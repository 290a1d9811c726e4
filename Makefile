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
GO_BOT   := example_bots/go
GO_BIN   := $(GO_BOT)/build/bot
JAVA_BOT := example_bots/java
JAVA_BIN := $(JAVA_BOT)/build/bot

.PHONY: demo check test bench proto cpp-bot go-bot java-bot sdk-wheel clean

PROTO_SRC := proto/bideuchre/v1/arena.proto

# The install builds the double-dummy solver (referee/solver, C++: setup.py) with Debian's g++ and Python's headers,
# installed as below when missing; an edit of its source builds it again.
SOLVER_SRC := $(wildcard referee/solver/*.cpp referee/solver/*.hpp)
HAS_PYTHON_H := $(PYTHON) -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'

$(STAMP): pyproject.toml setup.py $(SOLVER_SRC)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required (found " + sys.version.split()[0] + "); set PYTHON=python3.11")'
	@if ! command -v g++ >/dev/null; then \
	  $(call apt_install,the double-dummy solver,g++); \
	fi
	@if ! $(HAS_PYTHON_H); then \
	  $(call apt_install,the double-dummy solver,python3-dev); \
	fi
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
	  || { echo "missing for $(1): the Debian packages $(2), and installing them needs root: run 'apt-get update && apt-get install $(2)' as root, then make again"; exit 1; }; \
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

# The checks every change must pass: ruff, mypy, and lint-imports for the layers of pyproject.toml's
# [tool.importlinter] (pinned in the dev extra that $(STAMP) installs).
define CHECKS
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
endef

# The loop while editing, in about a minute: the checks, then the tests that run in the test process alone
# (no process, socket or browser: those are listed in tests/conftest.py PROCESSES), on two workers.
check: $(STAMP)
	$(CHECKS)
	$(BIN)/python -m pytest -q -n 2 -m "not processes"

# Everything, before a commit and in CI: the checks, then the whole suite on TEST_WORKERS workers (pytest-xdist, a
# test file per worker at a time, in the order tests/conftest.py gives: the slowest files first), then the tests
# marked serial (they measure time or CPU) one at a time. The suite is bound by the CPU (bench/suite.py): four
# workers on two cores were no faster, and made the tests that race a tournament's last games
# (tests/tournament/test_workers.py) miss it.
TEST_WORKERS ?= 2
test: $(STAMP) $(CHROMIUM) $(BWRAP) $(JS_STAMP) $(CPP_BIN) $(GO_BIN) $(JAVA_BIN)
	$(CHECKS)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not serial"
	$(BIN)/python -m pytest -q -m serial

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

# The compiled example bots (example_bots/cpp, go and java) each build with their own Makefile, from
# proto/ into their build/ folder (not committed); here, the Debian packages each needs are installed as
# above when a tool or library is missing, then its Makefile runs.

# C++: Debian's gRPC (libgrpc++-dev, protobuf-compiler-grpc), pkg-config and g++.
CPP_PACKAGES := g++ pkg-config libgrpc++-dev protobuf-compiler-grpc
CPP_HAS_TOOLS := command -v protoc >/dev/null && command -v grpc_cpp_plugin >/dev/null \
	&& command -v g++ >/dev/null && pkg-config --exists grpc++ protobuf 2>/dev/null

cpp-bot: $(CPP_BIN)

$(CPP_BIN): $(CPP_BOT)/bot.cc $(CPP_BOT)/Makefile $(PROTO_SRC)
	@if ! { $(CPP_HAS_TOOLS); }; then \
	  $(call apt_install,the C++ bot,$(CPP_PACKAGES)); \
	fi
	$(MAKE) --no-print-directory -C $(CPP_BOT)

# Go: Debian's Go 1.19 and its packaged libraries in /usr/share/gocode, built in GOPATH mode (no module
# download). grpc-go's package alone brings the 1.3 line of github.com/golang/protobuf, which panics at the
# first Send (nil pointer in makeOneOfMarshaler): the 1.5 line is named, and checked for.
GOCODE := /usr/share/gocode/src
GO_PACKAGES := golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev \
	golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev
GO_HAS_TOOLS := command -v go >/dev/null && command -v protoc >/dev/null && command -v protoc-gen-go >/dev/null \
	&& command -v protoc-gen-go-grpc >/dev/null && test -d $(GOCODE)/google.golang.org/grpc \
	&& grep -qs google.golang.org/protobuf $(GOCODE)/github.com/golang/protobuf/go.mod

go-bot: $(GO_BIN)

$(GO_BIN): $(wildcard $(GO_BOT)/*.go) $(GO_BOT)/Makefile $(PROTO_SRC)
	@if ! { $(GO_HAS_TOOLS); }; then \
	  $(call apt_install,the Go bot,$(GO_PACKAGES)); \
	fi
	$(MAKE) --no-print-directory -C $(GO_BOT)

# Java: the JDK, Debian's grpc-java with the jars it runs on (Netty, Guava, perfmark), and the
# javax.annotation.Generated the generated stubs carry (not in JDK 17).
JAVA_JARS := grpc-api grpc-core grpc-netty grpc-protobuf grpc-stub protobuf guava perfmark-api netty-codec-http2 \
	geronimo-annotation-1.3-spec
JAVA_PACKAGES := default-jdk protobuf-compiler protobuf-compiler-grpc-java-plugin libgrpc-java libprotobuf-java \
	libnetty-java libguava-java libperfmark-java libgeronimo-annotation-1.3-spec-java
JAVA_HAS_TOOLS := command -v javac >/dev/null && command -v java >/dev/null && command -v protoc >/dev/null \
	&& command -v grpc_java_plugin >/dev/null && $(foreach j,$(JAVA_JARS),test -f /usr/share/java/$(j).jar &&) true

java-bot: $(JAVA_BIN)

$(JAVA_BIN): $(wildcard $(JAVA_BOT)/*.java) $(JAVA_BOT)/Makefile $(PROTO_SRC)
	@if ! { $(JAVA_HAS_TOOLS); }; then \
	  $(call apt_install,the Java bot,$(JAVA_PACKAGES)); \
	fi
	$(MAKE) --no-print-directory -C $(JAVA_BOT)

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/claim.py
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/referee.py
	$(BIN)/python bench/wire.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/sandbox.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/analyze.py
	$(BIN)/python bench/kits.py

# Regenerate the committed Python code from proto/ (grpcio-tools is pinned in
# pyproject.toml; tests/protocol fails when the committed code is stale). The
# descriptor names the file bideuchre/v1/arena.proto, as clients import it.
proto: $(STAMP)
	$(BIN)/python tools/gen_proto.py

# The slim SDK for Python bot authors (sdk-dist/README.md): a wheel of the engine, the double-dummy solver, the
# wire conversion, the SDK and the Python example bots, needing only grpcio and protobuf, in dist/. pip fetches
# its build backend (setuptools) into a build environment of its own; the solver is compiled where a C++
# compiler works, and left out otherwise (the engine then falls back to its pure-Python claim search).
sdk-wheel: $(STAMP)
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir dist ./sdk-dist

clean:
	rm -rf $(VENV) build dist *.egg-info $(JS_BOT)/node_modules $(CPP_BOT)/build $(GO_BOT)/build $(JAVA_BOT)/build
