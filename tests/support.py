"""Small builders so each example test states only the records its rule is about."""

from __future__ import annotations

from gateproof.model.scenario import read_scenario, run_scenario


def world(zone="externalGlobal", configuration=None, snippets=(), skills=(), enforcement=None, extra_configurations=(), extra_providers=()):
    """A world with one provider ``p`` in ``zone``, a model ``m`` on it and a configuration ``c`` on ``m``."""
    config = {"identifier": "c", "model": "m"}
    config.update(configuration or {})
    document = {
        "providers": [{"identifier": "p", "zone": zone}, *extra_providers],
        "models": [{"identifier": "m", "provider": "p"}] + [{"identifier": f"m-{p['identifier']}", "provider": p["identifier"]} for p in extra_providers],
        "configurations": [config, *extra_configurations],
        "snippets": list(snippets),
        "skills": list(skills),
    }
    if enforcement is not None:
        document["enforcement"] = enforcement
    return document


def scenario(world_document, *steps, rules=None) -> dict:
    document = {"gateproof": 1, "id": "test", "world": world_document, "steps": list(steps)}
    if rules:
        document["rules"] = rules
    return document


def results(world_document, *steps, rules=None) -> list[dict]:
    return run_scenario(read_scenario(scenario(world_document, *steps, rules=rules)))["results"]


def send(world_document, rules=None, **step) -> dict:
    step.setdefault("configuration", "c")
    return results(world_document, {"op": "send", **step}, rules=rules)[0]


def readout(world_document, **step) -> dict:
    step.setdefault("configuration", "c")
    return results(world_document, {"op": "readout", **step})[0]


def snippet(uid, data_class=None, **fields):
    return {"uid": uid, "identifier": fields.pop("identifier", f"s{uid}"), "data_class": data_class, **fields}


def skill(uid, data_class=None, **fields):
    return {"uid": uid, "name": fields.pop("name", f"k{uid}"), "data_class": data_class, **fields}
