# The two set-up commands of the README, the input fuzzing at ten times its share, the suite with every core busy, the check of the built wheel and sdist, the benchmarks, how far the generators reach, mutation testing of the model, the wrong readings of the Node implementation, and a picture of the HTML report.
# Each target creates the virtual environment it needs on first use.

# The interpreter the environment is made with: the distribution's CPython where it is 3.10 or newer and can make a
# virtual environment (ensurepip is there), otherwise python3 on PATH; PYTHON=... chooses another. A distribution builds
# its CPython with profile-guided and link-time optimisation and links the interpreter into one executable; a CPython
# compiled from source (pyenv's, by default) has neither, and a verify campaign runs about a fifth slower on it.
SYSTEM_PYTHON := /usr/bin/python3
PYTHON ?= $(if $(shell $(SYSTEM_PYTHON) -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 10))' >/dev/null 2>&1 && echo yes),$(SYSTEM_PYTHON),python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test fuzz test-loaded package-check bench reach mutation variants report-screenshot clean

# What pip and the build say goes to a log, shown only when the install fails: a first make demo stays a short tour.
$(STAMP): pyproject.toml
	@echo "Installing gateproof and what it needs into $(VENV)/ (log: $(VENV)/install.log)"
	@$(PYTHON) -m venv $(VENV) && { $(BIN)/pip install --quiet --upgrade pip && $(BIN)/pip install --quiet -e '.[test]'; } \
		> $(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $(STAMP)

# The TypeScript MCP gateway, built with the npm packages its lock file names; without npm it is left unbuilt and
# reported unavailable (verify --list-builtins), the tests that need it skipped.
MCP_NODE   := conformance/implementations/mcp_node
NODE_STAMP := $(MCP_NODE)/dist/.built
$(NODE_STAMP): $(MCP_NODE)/package.json $(MCP_NODE)/package-lock.json $(MCP_NODE)/tsconfig.json $(wildcard $(MCP_NODE)/src/*.ts)
	@if command -v npm >/dev/null 2>&1; then \
		echo "Building the TypeScript MCP gateway (log: $(MCP_NODE)/build.log)"; \
		( cd $(MCP_NODE) && npm ci --no-audit --no-fund && npm run build ) > $(MCP_NODE)/build.log 2>&1 \
			|| { cat $(MCP_NODE)/build.log; exit 1; }; \
		touch $@; \
	else echo "npm is not on PATH: the TypeScript MCP gateway is not built"; fi

demo: $(STAMP) $(NODE_STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" sh examples/demo.sh

# The suite on every core (pytest-xdist); WORKERS=0 runs it in one process.
WORKERS ?= auto

test: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m pytest -n $(WORKERS)

# The input fuzzing with ten times the documents the suite tries.
fuzz: $(STAMP)
	GATEPROOF_FUZZ=10 $(BIN)/python -m pytest -n $(WORKERS) tests/test_input_fuzz.py

test-loaded: $(STAMP)
	sh .ci/test-loaded

package-check: $(STAMP)
	WORKERS=$(WORKERS) bash .ci/package-check $(BIN)/python

bench: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m gateproof.conformance.bench

reach: $(STAMP)
	$(BIN)/python -m gateproof.conformance.generation.reach
	$(BIN)/python -m gateproof.conformance.bench.catalog_reach model/catalogs/*.json

mutation: $(STAMP)
	$(BIN)/python -m gateproof.conformance.mutation

# Every one-change variant of the Node implementation through the default verify campaign (needs node).
variants: $(STAMP)
	$(BIN)/python -m gateproof.conformance.mutation.variants

# The HTML report of every built-in with 200 generated scenarios each, and a picture of it taken by headless Chromium.
SHOT := gateproof-screenshot
CHROMIUM ?= chromium
report-screenshot: $(STAMP)
	@command -v $(CHROMIUM) >/dev/null || { echo "report-screenshot needs Chromium: apt-get install chromium (or CHROMIUM=path)"; exit 2; }
	$(BIN)/gateproof verify --builtin all --examples 200 --out $(SHOT) --quiet --report html || test $$? -eq 1
	profile="$$(mktemp -d)"; $(CHROMIUM) --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --user-data-dir="$$profile" \
		--hide-scrollbars --window-size=1400,2000 --screenshot="$(CURDIR)/$(SHOT)/report.png" \
		"file://$(CURDIR)/$(SHOT)/report.html" 2>/dev/null; status=$$?; rm -rf "$$profile"; exit $$status
	@echo "$(SHOT)/report.png: the top of $(SHOT)/report.html"

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis gateproof-mutation $(SHOT) $(MCP_NODE)/node_modules $(MCP_NODE)/dist $(MCP_NODE)/build.log
