"""Building small stories for the lifecycle tests: one world, a few steps, the results."""

from __future__ import annotations

from gateproof.model.scenario import read_scenario, run_scenario


def world(snippets=(), skills=(), zone="local", enforcement="enforce", **configuration) -> dict:
    """A world with one provider, one model and the configuration ``c``."""
    document = {
        "providers": [{"identifier": "p", "zone": zone}, {"identifier": "far", "zone": "externalGlobal"}],
        "models": [{"identifier": "m", "provider": "p"}, {"identifier": "far-model", "provider": "far"}],
        "configurations": [{"identifier": "c", "model": "m", **configuration}],
        "snippets": list(snippets),
        "skills": list(skills),
    }
    if enforcement is not None:
        document["enforcement"] = enforcement
    return document


def snippet(uid, data_class="sourceCode", **fields) -> dict:
    return {"uid": uid, "identifier": f"s{uid}", "data_class": data_class, **fields}


def skill(uid, name=None, data_class="sourceCode", **fields) -> dict:
    return {"uid": uid, "name": name or f"k{uid}", "data_class": data_class, **fields}


def queue(snippets=(), skills=(), run="r1", **fields) -> dict:
    return {"op": "queue", "run": run, "configuration": "c", "forced_snippets": list(snippets), "forced_skills": list(skills), **fields}


def dequeue(run="r1") -> dict:
    return {"op": "dequeue", "run": run}


def suspend(run="r1", **fields) -> dict:
    return {"op": "suspend", "run": run, **fields}


def resume(run="r1", **fields) -> dict:
    return {"op": "resume", "run": run, **fields}


def switch_off(kind: str, uid: int) -> dict:
    return {"op": "update", "kind": kind, "uid": uid, "set": {"active" if kind == "snippet" else "enabled": False}}


def repoint(zone: str) -> dict:
    return {"op": "update", "kind": "provider", "identifier": "p", "set": {"zone": zone}}


def document(rules: str, world_fields: dict, steps: list) -> dict:
    return {"gateproof": 1, "id": "test/story", "rules": rules, "world": world_fields, "steps": steps}


def results(rules: str, world_fields: dict, steps: list) -> list[dict]:
    """The results of a story under ``rules``."""
    return run_scenario(read_scenario(document(rules, world_fields, steps)))["results"]
