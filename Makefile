# The two commands of the README's quick start, the benchmarks, and how far the generators reach.
# Each target creates the virtual environment it needs on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench reach clean

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

reach: $(STAMP)
	$(BIN)/python -m gateproof.conformance.generation.reach

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
