"""Building ceiling and lifecycle corpus cases: the smallest world, the case document, a send.

Shared by the hand-picked cases of ``corpus_build`` and the boundary pairs,
so every case of a family is built the same way.
"""

from __future__ import annotations


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
