# The two commands of the README's quick start, and the benchmarks.
# Each target creates the virtual environment it needs on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" sh examples/demo.sh

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m gateproof.conformance.bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
