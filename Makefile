# The two commands of the README's quick start, the suite with every core busy, the benchmarks, how far the generators reach, and mutation testing of the model.
# Each target creates the virtual environment it needs on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-loaded bench reach mutation clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" sh examples/demo.sh

test: $(STAMP)
	$(BIN)/python -m pytest

test-loaded: $(STAMP)
	sh .ci/test-loaded

bench: $(STAMP)
	$(BIN)/python -m gateproof.conformance.bench

reach: $(STAMP)
	$(BIN)/python -m gateproof.conformance.generation.reach

mutation: $(STAMP)
	$(BIN)/python -m gateproof.conformance.mutation

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis gateproof-mutation
