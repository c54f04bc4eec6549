"""Building ceiling and lifecycle corpus cases: the smallest world, the case document, a send.

Shared by the hand-picked cases of ``build`` and the boundary pairs,
so every case of a family is built the same way.
"""

from __future__ import annotations

from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.errors import ScenarioError


class CorpusError(Exception):
    """A case the corpus cannot hold (an invalid scenario, an id used twice), said in one line naming the case."""


def with_expected(entry: dict) -> dict:
    """The case with the outcome the model gives its scenario; CorpusError when the scenario is not a valid document."""
    try:
        return dict(entry, expected=run_scenario(read_scenario(entry["scenario"])))
    except ScenarioError as error:
        raise CorpusError(f"corpus case {entry['id']}: its scenario is not valid: {error}") from None


def world(zone="externalGlobal", configuration=None, snippets=(), skills=(), enforcement=None, **extra) -> dict:
    """A world with one provider ``p`` in ``zone``, a model ``m`` on it and a configuration ``c`` on ``m``."""
    document = {
        "providers": [{"identifier": "p", "zone": zone}] + extra.pop("providers", []),
        "models": [{"identifier": "m", "provider": "p"}] + extra.pop("models", []),
        "configurations": [{"identifier": "c", "model": "m", **(configuration or {})}] + extra.pop("configurations", []),
        "snippets": list(snippets),
        "skills": list(skills),
    }
    if enforcement is not None:
        document["enforcement"] = enforcement
    return document


def case(case_id: str, description: str, rules: list[str], world_document: dict, steps: list[dict], version: str | None = None) -> dict:
    scenario = {"gateproof": 1, "id": case_id, "description": description, "world": world_document, "steps": steps}
    if version is not None:
        scenario["rules"] = version
    return {"id": case_id, "description": description, "rules": rules, "scenario": scenario}


def send(**step) -> dict:
    return {"op": "send", "configuration": "c", **step}


def snippet(uid: int, data_class: object, **fields) -> dict:
    """A snippet ``s<uid>`` storing ``data_class`` (any stored value: how it is read is a rule)."""
    return {"uid": uid, "identifier": f"s{uid}", "data_class": data_class, **fields}


def skill(uid: int, data_class: object, **fields) -> dict:
    """A skill ``k<uid>`` storing ``data_class``."""
    return {"uid": uid, "name": f"k{uid}", "data_class": data_class, **fields}
