# The two commands of the README's quick start, the check of the built wheel and sdist, the benchmarks, how far the generators reach, and mutation testing of the model.
# Each target creates the virtual environment it needs on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test package-check bench reach mutation clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" sh examples/demo.sh

test: $(STAMP)
	$(BIN)/python -m pytest

package-check: $(STAMP)
	bash .ci/package-check $(BIN)/python

bench: $(STAMP)
	$(BIN)/python -m gateproof.conformance.bench

reach: $(STAMP)
	$(BIN)/python -m gateproof.conformance.generation.reach

mutation: $(STAMP)
	$(BIN)/python -m gateproof.conformance.mutation

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis gateproof-mutation
