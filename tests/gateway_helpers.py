"""Building gateway scenarios for example tests from the corpus's lab world, and running them through the model."""

from __future__ import annotations

import copy

from gateproof.conformance.corpus.lab_world import ATTACK, CONTENT, EXPORT, LAB_WORLD, call
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.schema import validate

__all__ = ["ATTACK", "CONTENT", "EXPORT", "LAB_WORLD", "call", "decide_one", "outcome", "results", "scenario"]


def scenario(*steps, rules="lab-001", world=None, **world_changes) -> dict:
    base = copy.deepcopy(LAB_WORLD if world is None else world)
    base.update(world_changes)
    return {"gateproof": 1, "kind": "gateway", "id": "test", "rules": rules, "world": base, "steps": list(steps)}


def outcome(document: dict) -> dict:
    """The model's outcome, checked against the outcome schema."""
    result = run_scenario(read_scenario(document))
    validate("outcome", result)
    return result


def results(*steps, **options) -> list[dict]:
    return outcome(scenario(*steps, **options))["results"]


def decide_one(*args, rules="lab-001", **kwargs) -> dict:
    return results(call(*args, **kwargs), rules=rules)[0]
