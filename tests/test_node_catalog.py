"""The Node.js implementation decides gateway scenarios under any catalog as the model does.

Scenarios under each shipped catalog (model/catalogs/: the lab's written
out and the examples) are drawn by a seeded generator of this module: worlds of
records of the catalog's kinds, sessions holding the catalog's roles or none,
and calls of its tools with arguments inside, at and outside their declared
types and bounds, under lab-001 and lab-001+next. Each must give exactly the
model's outcome, and together they reach every rule of the reason table both
ways (refused by it, and passed).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from node_helpers import typed

from gateproof.conformance.mutation.variants import made, read_variants
from gateproof.model.gateway.catalog import SHIPPED_DIR
from gateproof.model.scenario import read_scenario, run_scenario

NODE = shutil.which("node")
if NODE is None:
    pytest.skip("node is not on PATH", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "conformance" / "implementations" / "node" / "gateproof-node.js"
CATALOGS = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(SHIPPED_DIR.glob("*.json"))}
PER_CATALOG = 400
USERS, TENANTS = ["u1", "u2"], ["t1", "t1", "t2"]
RECORD_IDS = ["r1", "r2", "r3", "r4"]
DESTINATIONS = [{"id": "in", "internal": True}, {"id": "out", "internal": False}]


def answer(lines: list[str], entry: Path = ENTRY) -> list[dict]:
    completed = subprocess.run([NODE, str(entry), "--jsonl"], input="".join(f"{line}\n" for line in lines),
                               capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(line) for line in completed.stdout.splitlines()]



def collection(kind: dict) -> str:
    return kind.get("collection", kind["name"] + "s")


def roles_of(catalog: dict) -> list[str]:
    named = {role for tool in catalog["tools"] for role in [*tool["roles"], tool.get("tenant_reader_role", "*")]}
    return sorted(named - {"*"}) + ["other"]


def value_for(rng: random.Random, argument: dict):
    """A value for ``argument``: mostly valid, else at or past a bound, of another type, or a boolean."""
    low, high = argument.get("minimum"), argument.get("maximum")
    if argument["type"] in ("identifier", "string"):
        least, most = argument.get("min_length", 1 if argument["type"] == "identifier" else 0), argument["max_length"]
        if rng.random() < 0.75:
            return rng.choice(RECORD_IDS + ["in", "out"] if argument["type"] == "identifier" else ["", "why"])
        return rng.choice(["nope", "😀" * most, "😀" * (most + 1), "x" * least, "x" * max(least - 1, 0), 7, None])
    valid = [low or 0, high or 1000, (low or 0) + 1, 500, 500.5, 600, 600.0, 2024, 3]
    wrong = [(low or 0) - 1, (high or 1000) + 0.5, 2.5, True, "12", None]
    return rng.choice(valid * 3 + wrong)


def arguments_for(rng: random.Random, tool: dict, stored: list[str]):
    """Arguments for ``tool``: its record mostly a stored one, its destination a configured one, the rest by value_for."""
    if rng.random() < 0.05:
        return rng.choice([[1], "x", None])
    named = {tool["record"]["argument"]: stored, tool.get("destination"): ["in", "in", "out"]}
    args = {argument["name"]: rng.choice(named[argument["name"]]) if argument["name"] in named and rng.random() < 0.8 else value_for(rng, argument)
            for argument in tool["arguments"] if argument.get("required", True) or rng.random() < 0.5}
    roll = rng.random()
    if roll < 0.05:
        args["approved_by"] = "u1"
    elif roll < 0.1 and args:
        del args[rng.choice(sorted(args))]
    return args


def world_for(rng: random.Random, catalog: dict) -> dict:
    roles = roles_of(catalog)
    sessions = [{"id": f"s{n}", "user": rng.choice(USERS), "tenant": rng.choice(TENANTS),
                 "roles": rng.sample(roles, rng.randint(1, 2)), "valid": rng.random() < 0.95} for n in range(3)]
    world: dict = {"sessions": sessions, "destinations": DESTINATIONS, "clock": 10}
    ids = iter(rng.sample(RECORD_IDS, len(RECORD_IDS)))
    for kind in catalog["record_kinds"]:
        world[collection(kind)] = [{"id": next(ids), kind["tenant"]: rng.choice(TENANTS), kind["assignees"]: rng.sample(USERS, rng.randint(0, 2)),
                                    "content": "stored"} for _ in range(rng.randint(1, 3) if len(catalog["record_kinds"]) == 1 else 1)]
    if rng.random() < 0.3:
        world["rate_limit"] = {"calls": rng.randint(1, 4), "window": 30}
    return world


def approvals_for(rng: random.Random, catalog: dict, calls: list[dict]) -> list[dict]:
    """Approvals that name some of the calls exactly, some with drift, some expired."""
    approvals = []
    for number, call in enumerate(c for c in calls if isinstance(c["arguments"], dict) and rng.random() < 0.4):
        # 600.0 in the call, 600 in the approval: one action (G002.7)
        args = {name: int(value) if isinstance(value, float) and value.is_integer() and rng.random() < 0.5 else value
                for name, value in call["arguments"].items()}
        if rng.random() < 0.2 and args:
            args[rng.choice(sorted(args))] = "drift"
        approvals.append({"id": f"a{number}", "tool": call["tool"], "arguments": args, "user": rng.choice(USERS),
                          "expires_at": rng.choice([5, 10, 11, 100])})
        if rng.random() < 0.3:
            approvals.append({**approvals[-1], "id": f"b{number}", "expires_at": 100})
    return approvals


def change_for(rng: random.Random, world: dict, catalog: dict) -> dict:
    ids = [record["id"] for kind in catalog["record_kinds"] for record in world[collection(kind)]]
    return rng.choice([
        {"op": "reassign_case", "case_id": rng.choice(ids), "assignees": rng.sample(USERS, rng.randint(0, 2))},
        {"op": "revoke_session", "session": rng.choice(world["sessions"])["id"]},
        {"op": "remove_destination", "destination_id": rng.choice(["in", "out"])},
        {"op": "edit_case", "case_id": rng.choice(ids), "content": "edited"},
        {"op": "advance_clock", "seconds": rng.choice([1, 30])},
    ])


def scenario(rng: random.Random, name: str, catalog: dict, number: int) -> dict:
    world = world_for(rng, catalog)
    tools = [tool["name"] for tool in catalog["tools"]] * 8 + ["unknown_tool"]
    stored = [record["id"] for kind in catalog["record_kinds"] for record in world[collection(kind)]]
    calls = []
    for _ in range(rng.randint(1, 6)):
        tool = rng.choice(tools)
        declared = next((t for t in catalog["tools"] if t["name"] == tool), catalog["tools"][0])
        call = {"op": "call", "session": rng.choice(world["sessions"])["id"], "tool": tool, "arguments": arguments_for(rng, declared, stored)}
        if rng.random() < 0.3:
            call["idempotency_key"] = rng.choice(["k1", "k2"])
        if rng.random() < 0.2:
            call["before_write"] = [change_for(rng, world, catalog)]
        calls.append(call)
    keyed = [call for call in calls if "idempotency_key" in call]
    if keyed and rng.random() < 0.6:  # the same key again: the same action (a replay) or another session's (a conflict)
        again = dict(rng.choice(keyed), before_write=[])
        calls.append(again if rng.random() < 0.5 else dict(again, session=rng.choice(world["sessions"])["id"]))
    limit = catalog.get("rate_limit")
    if limit and "rate_limit" not in world and rng.random() < 0.05:  # the catalog's limit, reached
        calls += [dict(calls[0], before_write=[])] * limit["calls"]
    world["approvals"] = approvals_for(rng, catalog, calls)
    steps = [step for call in calls for step in ([change_for(rng, world, catalog)] if rng.random() < 0.15 else []) + [call]]
    return {"gateproof": 1, "kind": "gateway", "id": f"{name}-{number}", "rules": rng.choice(["lab-001", "lab-001+next"]),
            "catalog": catalog, "world": world, "steps": steps}


def drawn() -> list[dict]:
    rng = random.Random(20240611)
    return [scenario(rng, name, catalog, number) for name, catalog in CATALOGS.items() for number in range(PER_CATALOG)]


DOCUMENTS = drawn()
LINES = [json.dumps(document) for document in DOCUMENTS]
EXPECTED = [json.loads(json.dumps(run_scenario(read_scenario(document)))) for document in DOCUMENTS]


def disagreements(answers: list[dict]) -> list[str]:
    return [f"scenario: {line}\n  model: {json.dumps(expected)}\n  node:  {json.dumps(got)}"
            for line, expected, got in zip(LINES, EXPECTED, answers) if typed(got) != typed(expected)]


def test_every_generated_scenario_under_each_catalog_gives_the_models_outcome():
    answers = answer(LINES)
    assert len(answers) == len(LINES)
    reports = disagreements(answers)
    assert not reports, f"{len(reports)} of {len(LINES)} disagree:\n" + "\n".join(reports[:3])


RULES_OF_THE_TABLE = {"G001.1", "G001.2", "G001.3", "G001.4", "G001.5", "G001.6", "G001.7", "G001.8", "G001.9", "G001.10",
                      "G001.11", "G001.12", "G001.18", "G002.3", "G002.4", "G002.5", "G002.6"}


def test_the_generated_scenarios_reach_every_rule_refused_and_allowed_under_each_catalog():
    calls = [(document["id"].rsplit("-", 1)[0], result) for document, outcome in zip(DOCUMENTS, EXPECTED)
             for result in outcome["results"] if result["op"] == "call"]
    assert RULES_OF_THE_TABLE <= {result["rule"] for _, result in calls}
    for name in CATALOGS:
        of = [result for catalog, result in calls if catalog == name]
        assert any(r["decision"] == "allow" and not r["replayed"] for r in of), name
        assert {"G001.5", "G001.6", "G001.7", "G001.9", "G001.10"} <= {r["rule"] for r in of}, name
    assert any(r["replayed"] for _, r in calls) and any(r["stage"] == "write" for _, r in calls)
    assert any(r.get("writes") for _, r in calls) and any(r["exports"] for _, r in calls) and any(r["reads"] for _, r in calls)


CATALOG_VARIANTS = [variant for variant in read_variants() if variant.name.startswith("catalog-")]


@pytest.mark.parametrize("variant", CATALOG_VARIANTS, ids=lambda variant: variant.name)
def test_each_wrong_reading_of_a_catalog_is_told_apart_by_the_generated_scenarios(variant, tmp_path):
    answers = answer(LINES, made(variant, tmp_path / variant.name))
    assert disagreements(answers), f"{variant.name} gives the model's outcome on every scenario"
