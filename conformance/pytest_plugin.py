"""A pytest plugin: run the conformance corpus and generated scenarios against a Python gateway's own ``run``.

Installed with gateproof and registered through ``pytest11``, it does nothing
until told which callable to test, as ``module:function`` taking a scenario
document and returning an outcome document, in the ini file or on the
command line::

    [tool.pytest.ini_options]
    gateproof_implementation = "my_gateway.conformance:run"
    gateproof_kinds = "gateway"          # what it implements: ceiling, gateway or both (the default)
    gateproof_rules = "lab-001"          # the rule versions it implements; default the latest of each kind
    gateproof_examples = "200"           # generated scenarios for each rule version; default 100

    pytest --gateproof my_gateway.conformance:run --gateproof-examples 500

It adds one test per corpus case of those kinds and rules, and one per rule
version that generates scenarios, shrinks the first disagreement and reports
it. Each failure shows the scenario and the differing step, expected beside
actual, compared in full as ``gateproof verify`` does by default.
"""

from __future__ import annotations

import copy
import importlib
import json
from random import Random
from typing import Callable

import pytest
from hypothesis import HealthCheck, find, settings
from hypothesis.errors import NoSuchExample

from gateproof.model.gateway.gate import DEFAULT_GATEWAY_VERSION
from gateproof.model.versions import DEFAULT_VERSION

from .generation.strategy import strategy_for
from .harness.campaign import KINDS, RULES_OF_KIND, model_outcome
from .harness.compare import compare
from .harness.corpus import CorpusCase, load_corpus
from .harness.protocol import scenario_rules

LATEST_OF_KIND = {"ceiling": DEFAULT_VERSION, "gateway": DEFAULT_GATEWAY_VERSION}


class Disagreement(Exception):
    """The implementation's outcome departs from the model's on a scenario."""

    def __init__(self, scenario: dict, expected: dict, actual: object, where: str):
        super().__init__(where)
        self.scenario, self.expected, self.actual, self.where = scenario, expected, actual, where

    def text(self) -> str:
        return "\n".join([
            f"gateproof: the outcome departs from the model's: {self.where}",
            f"scenario: {json.dumps(self.scenario)}",
            f"expected: {json.dumps(self.expected)}",
            f"actual:   {json.dumps(self.actual, default=repr)}",
        ])


def departure(expected: dict, actual: object) -> str | None:
    """Where ``actual`` departs from ``expected``, compared in full; None when they agree."""
    if not isinstance(actual, dict) or not isinstance(actual.get("results"), list):
        return "the implementation did not return an outcome document"
    mismatch = compare(expected, actual, "full")
    if mismatch is None:
        return None
    where = "the outcome" if mismatch.step is None else f"step {mismatch.step}"
    return f"{where} differs in {', '.join(mismatch.keys)}"


def check(run: Callable[[dict], dict], scenario: dict, expected: dict) -> None:
    """Raise :class:`Disagreement` unless ``run`` gives the expected outcome; ``run`` gets its own copy to change."""
    actual = run(copy.deepcopy(scenario))
    where = departure(expected, actual)
    if where is not None:
        raise Disagreement(scenario, expected, actual, where)


def load_callable(target: str) -> Callable[[dict], dict]:
    module, _, attribute = target.partition(":")
    if not module or not attribute:
        raise pytest.UsageError(f"gateproof_implementation: {target!r} is not module:function")
    return getattr(importlib.import_module(module), attribute)


class GateproofItem(pytest.Item):
    def __init__(self, *, run: Callable[[dict], dict], body: Callable[[Callable], None], **kwargs):
        super().__init__(**kwargs)
        self.run, self.body = run, body

    def runtest(self) -> None:
        self.body(self.run)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, Disagreement):
            return excinfo.value.text()
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, self.name


def corpus_body(case: CorpusCase):
    return lambda run: check(run, case.scenario, case.expected)


def generated_body(kind: str, version: str, examples: int):
    """Generated scenarios of one rule version; the first disagreement is shrunk before it is reported."""

    def body(run: Callable[[dict], dict]) -> None:
        def disagrees(scenario: dict) -> bool:
            try:
                return departure(model_outcome(scenario), run(copy.deepcopy(scenario))) is not None
            except Exception:  # an exception is a disagreement too; it is raised again below, on the shrunk scenario
                return True

        options = settings(database=None, max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
        try:
            scenario = find(strategy_for(kind, version), disagrees, settings=options, random=Random(0))
        except NoSuchExample:
            return
        check(run, scenario, model_outcome(scenario))

    return body


def _values(config, name: str) -> list[str]:
    return [v.strip() for v in str(config.getini(name)).replace(",", " ").split() if v.strip()]


def pytest_addoption(parser) -> None:
    group = parser.getgroup("gateproof", "gateproof conformance")
    group.addoption("--gateproof", dest="gateproof_implementation", metavar="MODULE:FUNCTION",
                    help="Run the gateproof corpus and generated scenarios against this run(scenario) -> outcome.")
    group.addoption("--gateproof-examples", dest="gateproof_examples", type=int, metavar="N", help="Generated scenarios per rule version.")
    parser.addini("gateproof_implementation", "module:function deciding a scenario document, to run the gateproof corpus against", default="")
    parser.addini("gateproof_kinds", "scenario kinds it implements: ceiling, gateway (default both)", default="")
    parser.addini("gateproof_rules", "rule versions it implements (default the latest of each kind)", default="")
    parser.addini("gateproof_examples", "generated scenarios per rule version (default 100)", default="100")


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect, so they apply to these tests too
def pytest_collection_modifyitems(session, config, items) -> None:
    target = config.getoption("gateproof_implementation") or config.getini("gateproof_implementation")
    if not target:
        return
    run = load_callable(target)
    kinds = _values(config, "gateproof_kinds") or list(KINDS)
    rules = _values(config, "gateproof_rules") or [LATEST_OF_KIND[kind] for kind in kinds]
    examples = config.getoption("gateproof_examples") or int(config.getini("gateproof_examples"))
    for case in load_corpus():
        if case.scenario.get("kind", "ceiling") in kinds and scenario_rules(case.scenario) in rules:
            items.append(GateproofItem.from_parent(session, name=f"gateproof[{case.id}]", run=run, body=corpus_body(case)))
    for kind in kinds:
        for version in (v for v in RULES_OF_KIND[kind] if v in rules):
            body = generated_body(kind, version, examples)
            items.append(GateproofItem.from_parent(session, name=f"gateproof[generated/{version}]", run=run, body=body))
