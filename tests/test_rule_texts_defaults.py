"""Every default S001.7 and S001.9 state, held field by field against the model.

Each row names one optional field, the value the text says an absent field
takes, another value, and a small scenario in which the two values decide
differently. The model must answer the scenario with the field left out
exactly as with the stated default written out, and differently with the
other value: the second half shows the probe can see the field, so the first
is not true merely because the field decides nothing. A field with no value
that writes "never stored" (the switch, a serving model, a rate limit, a key)
is held against its nearest written equivalent, as the text names it.
"""

from __future__ import annotations

import copy

import pytest

from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.versions import DEFAULT_VERSION

SECRET = "secretAdjacent"
ABSENT = object()


def ceiling(*steps, rules=None, zone="externalGlobal", **tables) -> dict:
    """A ceiling document: provider ``p`` in ``zone``, provider ``far`` in externalGlobal, models ``m`` and ``m-far``, configuration ``c`` on ``m``."""
    world = {
        "providers": [{"identifier": "p", "zone": zone}, {"identifier": "far", "zone": "externalGlobal"}],
        "models": [{"identifier": "m", "provider": "p"}, {"identifier": "m-far", "provider": "far"}],
        "configurations": [{"identifier": "c", "model": "m"}],
        "snippets": [{"uid": 1, "identifier": "s1", "data_class": SECRET}],
        "skills": [{"uid": 1, "name": "k1", "data_class": SECRET}],
    }
    world.update(tables)
    document = {"gateproof": 1, "id": "defaults", "world": world, "steps": list(steps)}
    if rules:
        document["rules"] = rules
    return document


SEND = {"op": "send", "configuration": "c"}
FORCED_SNIPPET = {**SEND, "forced_snippets": [1]}
FORCED_SKILL = {**SEND, "forced_skills": [1]}
RUN = [{"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [1]}, {"op": "dequeue", "run": "r"}]
LOCAL_TAGGED = dict(configurations=[{"identifier": "c", "model": "m", "snippet_tags": "t"}],
                    snippets=[{"uid": 1, "identifier": "s1", "tags": "t", "data_class": SECRET}])
TIE = dict(configurations=[{"identifier": "c", "model": "m", "snippet_tags": "t"}],
           snippets=[{"uid": 1, "identifier": "s1", "name": "b", "tags": "t", "data_class": SECRET},
                     {"uid": 2, "identifier": "s2", "name": "a", "tags": "t", "data_class": SECRET, "sorting": 1}])
SYSTEM_PROMPT = dict(configurations=[{"identifier": "c", "model": "m", "system_prompt": "x", "system_prompt_class": SECRET}], snippets=[])
OTHER = {"identifier": "Other", "model": "m"}

# (rule, row name, document, path to the field, the stated default, another value)
CEILING_ROWS = [
    ("S001.7", "snippet.active", ceiling(SEND, **LOCAL_TAGGED), ("world", "snippets", 0, "active"), True, False),
    ("S001.7", "snippet.hidden", ceiling(SEND, **LOCAL_TAGGED), ("world", "snippets", 0, "hidden"), False, True),
    ("S001.7", "snippet.deleted", ceiling(SEND, **LOCAL_TAGGED), ("world", "snippets", 0, "deleted"), False, True),
    ("S001.7", "snippet.tags", ceiling(SEND, **LOCAL_TAGGED), ("world", "snippets", 0, "tags"), "", "t"),
    ("S001.7", "snippet.sorting", ceiling(SEND, **TIE), ("world", "snippets", 0, "sorting"), 0, 2),
    ("S001.7", "snippet.identifier", ceiling(FORCED_SNIPPET, snippets=[{"uid": 1, "name": "n", "data_class": SECRET}]),
     ("world", "snippets", 0, "identifier"), "", "i"),
    ("S001.7", "snippet.name", ceiling(FORCED_SNIPPET, snippets=[{"uid": 1, "identifier": "", "data_class": SECRET}]),
     ("world", "snippets", 0, "name"), "", "n"),
    ("S001.7", "snippet.data_class", ceiling(FORCED_SNIPPET), ("world", "snippets", 0, "data_class"), None, SECRET),
    ("S001.7", "skill.enabled", ceiling(FORCED_SKILL), ("world", "skills", 0, "enabled"), True, False),
    ("S001.7", "skill.deleted", ceiling(FORCED_SKILL), ("world", "skills", 0, "deleted"), False, True),
    ("S001.7", "skill.name", ceiling(FORCED_SKILL), ("world", "skills", 0, "name"), "", "k"),
    ("S001.7", "skill.data_class", ceiling(FORCED_SKILL), ("world", "skills", 0, "data_class"), None, SECRET),
    ("S001.7", "provider.zone", ceiling(FORCED_SNIPPET), ("world", "providers", 0, "zone"), "externalGlobal", "local"),
    ("S001.7", "model.provider", ceiling(FORCED_SNIPPET, zone="local"), ("world", "models", 0, "provider"), None, "p"),
    ("S001.7", "configuration.model", ceiling(FORCED_SNIPPET, zone="local"), ("world", "configurations", 0, "model"), None, "m"),
    ("S001.7", "configuration.selection_mode", ceiling({**FORCED_SNIPPET, "serving_model": "m-far"}, zone="local"),
     ("world", "configurations", 0, "selection_mode"), "fixed", "criteria"),
    ("S001.7", "configuration.fallbacks", ceiling(FORCED_SNIPPET, zone="local"), ("world", "configurations", 0, "fallbacks"), [], ["nowhere"]),
    ("S001.7", "configuration.skills", ceiling(SEND), ("world", "configurations", 0, "skills"), [], [1]),
    ("S001.7", "configuration.system_prompt", ceiling(SEND, **SYSTEM_PROMPT), ("world", "configurations", 0, "system_prompt"), "", "x"),
    ("S001.7", "configuration.system_prompt_class", ceiling(SEND, **SYSTEM_PROMPT),
     ("world", "configurations", 0, "system_prompt_class"), None, SECRET),
    ("S001.7", "configuration.snippet_tags", ceiling(SEND, **LOCAL_TAGGED), ("world", "configurations", 0, "snippet_tags"), "", "t"),
    ("S001.7", "configuration.deleted", ceiling(SEND), ("world", "configurations", 0, "deleted"), False, True),
    ("S001.7", "world.enforcement", ceiling(FORCED_SNIPPET), ("world", "enforcement"), "enforce", "observe"),
    ("S001.7", "world.collation", ceiling(FORCED_SNIPPET, zone="local", configurations=[{"identifier": "c", "model": "m", "fallbacks": ["other"]}, OTHER]),
     ("world", "collation"), "case-sensitive", "case-insensitive"),
    ("S001.7", "world.snippets", ceiling(FORCED_SNIPPET), ("world", "snippets"), [], [{"uid": 1, "data_class": SECRET}]),
    ("S001.7", "send.forced_snippets", ceiling(FORCED_SNIPPET), ("steps", 0, "forced_snippets"), [], [1]),
    ("S001.7", "send.dry_run", ceiling(FORCED_SNIPPET), ("steps", 0, "dry_run"), False, True),
    ("S001.7", "send.serving_model", ceiling(FORCED_SNIPPET, zone="local", configurations=[{"identifier": "c", "model": "m", "selection_mode": "criteria"}]),
     ("steps", 0, "serving_model"), None, "m-far"),
    ("S001.7", "send.be_user", ceiling(FORCED_SNIPPET), ("steps", 0, "be_user"), 0, 7),
    ("S001.7", "send.run_uid", ceiling(FORCED_SNIPPET), ("steps", 0, "run_uid"), 0, 9),
    ("S001.7", "readout.forced_skills", ceiling({"op": "readout", "configuration": "c"}), ("steps", 0, "forced_skills"), [], [1]),
    ("S001.7", "queue.uid", ceiling(*RUN), ("steps", 0, "uid"), 0, 5),
    ("S001.7", "queue.be_user", ceiling(*RUN), ("steps", 0, "be_user"), 0, 7),
    ("S001.7", "queue.dry_run", ceiling(*RUN), ("steps", 0, "dry_run"), False, True),
    ("S001.7", "queue.forced_snippets", ceiling(*RUN), ("steps", 0, "forced_snippets"), [], [1]),
    ("S001.7", "dequeue.serving_model", ceiling(*RUN, zone="local", configurations=[{"identifier": "c", "model": "m", "selection_mode": "criteria"}]),
     ("steps", 1, "serving_model"), None, "m-far"),
    ("S001.7", "suspend.reason", ceiling(*RUN, {"op": "suspend", "run": "r"}, zone="local"), ("steps", 2, "reason"), "approval", "input"),
    # The state the rules write for a run running with snippet 1 (C165.1), against one that stores nothing.
    ("S001.7", "suspend.state", ceiling(*RUN, {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r"}, zone="local"),
     ("steps", 2, "state"), {"forced_snippet_uids": [1], "forced_skill_uids": []}, {"forced_snippet_uids": [], "forced_skill_uids": []}),
    ("S001.7", "resume.with_input", ceiling(*RUN, {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r"}, zone="local"),
     ("steps", 3, "with_input"), False, True),
    ("S001.7", "set_enforcement.value", ceiling({"op": "set_enforcement"}, FORCED_SNIPPET, enforcement="observe"), ("steps", 0, "value"), None, "observe"),
    ("S001.7", "document.rules", ceiling(FORCED_SNIPPET), ("rules",), DEFAULT_VERSION, "pre-164"),
    ("S001.7", "document.kind", ceiling(FORCED_SNIPPET), ("kind",), "ceiling", "gateway"),
]

SESSION = {"id": "s", "user": "u", "tenant": "t", "roles": ["support"]}
CASE = {"id": "CASE-1", "tenant": "t", "assignees": ["u"], "content": "body"}
INTERNAL = {"id": "q", "internal": True}
EXPORT = {"op": "call", "session": "s", "tool": "export_case", "arguments": {"case_id": "CASE-1", "destination_id": "q"}}
EXTERNAL = {**EXPORT, "arguments": {"case_id": "CASE-1", "destination_id": "x"}}
APPROVAL = {"id": "a", "tool": "export_case", "arguments": {"case_id": "CASE-1", "destination_id": "x"}, "user": "u", "expires_at": 100}


def gateway(*steps, rules="lab-001+next", **world) -> dict:
    fields = {"sessions": [SESSION], "cases": [CASE], "destinations": [INTERNAL, {"id": "x", "internal": False}]}
    fields.update(world)
    return {"gateproof": 1, "kind": "gateway", "id": "defaults", "rules": rules, "world": fields, "steps": list(steps)}


GATEWAY_ROWS = [
    ("S001.9", "session.roles", gateway(EXPORT), ("world", "sessions", 0, "roles"), [], ["support"]),
    ("S001.9", "session.valid", gateway(EXPORT), ("world", "sessions", 0, "valid"), True, False),
    ("S001.9", "case.assignees", gateway(EXPORT), ("world", "cases", 0, "assignees"), [], ["u"]),
    ("S001.9", "case.content", gateway(EXPORT), ("world", "cases", 0, "content"), "", "body"),
    ("S001.9", "world.cases", gateway(EXPORT), ("world", "cases"), [], [CASE]),
    ("S001.9", "world.destinations", gateway(EXPORT), ("world", "destinations"), [], [INTERNAL]),
    ("S001.9", "world.approvals", gateway(EXTERNAL), ("world", "approvals"), [], [APPROVAL]),
    ("S001.9", "world.rate_limit", gateway(EXPORT, EXPORT), ("world", "rate_limit"), ABSENT, {"calls": 1, "window": 10}),
    ("S001.9", "world.clock", gateway(EXTERNAL, approvals=[APPROVAL]), ("world", "clock"), 0, 100),
    ("S001.9", "call.idempotency_key", gateway(EXPORT, EXPORT), ("steps", 1, "idempotency_key"), ABSENT, "k"),
    ("S001.9", "call.before_write", gateway(EXPORT), ("steps", 0, "before_write"), [], [{"op": "revoke_session", "session": "s"}]),
    ("S001.9", "document.rules", gateway(EXTERNAL, approvals=[APPROVAL]), ("rules",), "lab-001", "lab-001+next"),
]


def with_field(document: dict, path: tuple, value) -> dict:
    """``document`` with the field at ``path`` set to ``value``, or left out when ``value`` is ABSENT."""
    changed = copy.deepcopy(document)
    *parents, name = path
    holder = changed
    for key in parents:
        holder = holder[key]
    if value is ABSENT:
        holder.pop(name, None)
    else:
        holder[name] = value
    return changed


def answer(document: dict):
    """The model's results, or the field an invalid document is refused at."""
    try:
        return run_scenario(read_scenario(document))
    except ScenarioError as error:
        return ("invalid", error.path)


ROWS = CEILING_ROWS + GATEWAY_ROWS


@pytest.mark.rule("S001.7", "S001.9")
@pytest.mark.parametrize(("rule", "document", "path", "default", "other"), [row[:1] + row[2:] for row in ROWS], ids=[row[1] for row in ROWS])
def test_a_field_left_out_decides_as_its_stated_default_and_unlike_another_value(rule, document, path, default, other):
    left_out = answer(with_field(document, path, ABSENT))
    assert left_out == answer(with_field(document, path, default)), f"{rule}: leaving the field out is not its stated default"
    assert left_out != answer(with_field(document, path, other)), "the probe cannot tell the field's values apart"


# (row name, document, path, what reading the field would change) of the fields S001.7 says decide nothing.
UNDECIDING = [
    # A refusal: an inactive configuration that sent nothing, or were invalid input, would answer otherwise.
    ("configuration.active", ceiling(FORCED_SNIPPET, {"op": "readout", "configuration": "c"}, {"op": "classify", "configuration": "c"},
                                     *RUN, **SYSTEM_PROMPT), ("world", "configurations", 0, "active")),
    # A local fallback keeps the send local; one skipped as inactive would add externalGlobal and refuse it.
    ("fallback.active", ceiling(FORCED_SNIPPET, zone="local", configurations=[{"identifier": "c", "model": "m", "fallbacks": ["f"]},
                                                                              {"identifier": "f", "model": "m"}]),
     ("world", "configurations", 1, "active")),
    # Attached and forced on every path: a hidden skill left out anywhere would leave that step undeclared.
    ("skill.hidden", ceiling(FORCED_SKILL, {"op": "readout", "configuration": "c"},
                             {"op": "queue", "run": "r", "configuration": "c", "forced_skills": [1]}, {"op": "dequeue", "run": "r"},
                             {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r"},
                             configurations=[{"identifier": "c", "model": "m", "skills": [1]}]), ("world", "skills", 0, "hidden")),
]


@pytest.mark.rule("S001.7", "C094.10", "C144.7")
@pytest.mark.parametrize(("document", "path"), [row[1:] for row in UNDECIDING], ids=[row[0] for row in UNDECIDING])
def test_a_stored_field_the_text_says_decides_nothing_changes_no_result(document, path):
    left_out = answer(with_field(document, path, ABSENT))
    assert answer(with_field(document, path, True)) == left_out == answer(with_field(document, path, False))
    assert {r.get("decision") for r in left_out["results"]} - {None} <= {"refused", "permitted"}


@pytest.mark.rule("S001.7", "C144.6")
def test_the_text_of_a_snippet_or_skill_changes_no_result():
    document = ceiling(FORCED_SNIPPET, FORCED_SKILL, {"op": "readout", "configuration": "c", "forced_snippets": [1], "forced_skills": [1]})
    texts = [with_field(with_field(document, ("world", "snippets", 0, "text"), t), ("world", "skills", 0, "text"), t) for t in ("", "x" * 300)]
    assert answer(texts[0]) == answer(texts[1]) == answer(document)
