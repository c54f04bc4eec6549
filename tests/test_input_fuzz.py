"""Malformed scenario documents: each is refused with the field named, nothing else is ever raised."""

from __future__ import annotations

import copy
import subprocess
import sys

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateproof.conformance.generation.ceiling_strategies import ceiling_scenarios
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario

from fuzz_scale import fuzz_examples

# JSON itself has no integer limit, but a document is written as bytes (orjson) only within 64 bits.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


def closed_objects(document: dict):
    """(path, object) for every object of the document whose fields the schema closes."""
    yield ("$", document)
    yield ("$.world", document["world"])
    for kind in ("providers", "models", "configurations", "snippets", "skills"):
        for i, record in enumerate(document["world"].get(kind, [])):
            yield (f"$.world.{kind}[{i}]", record)
    for i, step in enumerate(document["steps"]):
        yield (f"$.steps[{i}]", step)


REQUIRED = {"$": ["gateproof", "id", "world", "steps"], "providers": ["identifier"], "models": ["identifier"],
            "configurations": ["identifier"], "snippets": ["uid"], "skills": ["uid"], "steps": ["op", "configuration"]}
TYPED = {"uid": 1, "active": True, "identifier": "x", "sorting": 0, "skills": [], "steps": [], "system_prompt": ""}


@st.composite
def broken_documents(draw):
    """A valid scenario with one change that makes it invalid, and the path the error must name."""
    document = copy.deepcopy(draw(ceiling_scenarios(max_steps=2, max_snippets=2, max_skills=2)))
    objects = list(closed_objects(document))
    path, target = draw(st.sampled_from(objects))
    how = draw(st.sampled_from(["extra", "missing", "type", "op", "huge", "duplicate", "unknown configuration"]))
    tables = [kind for kind in ("providers", "models", "configurations", "snippets", "skills") if document["world"].get(kind)]
    if how == "duplicate" and tables:
        kind = draw(st.sampled_from(tables))
        records = document["world"][kind]
        twin = copy.deepcopy(draw(st.sampled_from(records)))
        key = "uid" if kind in ("snippets", "skills") else "identifier"
        if key == "uid" and draw(st.booleans()):
            twin["uid"] = float(twin["uid"])  # 7.0 is the integer 7, so the same key
        records.insert(draw(st.integers(0, len(records))), twin)
        second = max(i for i, record in enumerate(records) if record[key] == twin[key])
        return document, f"$.world.{kind}[{second}].{key}"
    if how == "extra":
        key = draw(st.sampled_from(["approved_by", "zone_override", "x", "", "Uid"]))
        target[key] = draw(json_values)
        return document, f"{path}.{key}"
    if how == "missing":
        family = "$" if path == "$" else ("steps" if path.startswith("$.steps") else path.split(".")[2].split("[")[0] if path != "$.world" else None)
        if family is None or not REQUIRED.get(family):
            document.pop("steps")
            return document, "$.steps"
        key = draw(st.sampled_from([k for k in REQUIRED[family] if k in target]))
        target.pop(key)
        return document, f"{path}.{key}"
    if how == "type":
        keys = [k for k in target if k in TYPED]
        if not keys:
            document["gateproof"] = "1"
            return document, "$.gateproof"
        key = draw(st.sampled_from(keys))
        target[key] = draw(json_values.filter(lambda v, want=type(TYPED[key]): type(v) is not want and not (want is int and isinstance(v, float) and v.is_integer())))
        return document, f"{path}.{key}"
    if how == "op":
        document["steps"][0]["op"] = draw(st.sampled_from(["Send", "delete_everything", "", "sends"]))
        return document, "$.steps[0].op"
    if how == "huge":
        document["world"].setdefault("providers", []).append({"identifier": "p" * 100_000})
        return document, f"$.world.providers[{len(document['world']['providers']) - 1}].identifier"
    document["steps"][0]["configuration"] = "no-such-configuration"
    document["steps"][0].setdefault("op", "send")
    return document, "$.steps[0].configuration"


@pytest.mark.rule("S001.1")
@settings(max_examples=fuzz_examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(broken_documents())
def test_every_broken_document_is_refused_naming_the_broken_field(case):
    document, path = case
    with pytest.raises(ScenarioError) as refused:
        read_scenario(document)
    assert refused.value.path == path or refused.value.path.startswith(path + ".") or path.startswith(refused.value.path), (refused.value, path)


@pytest.mark.rule("S001.1")
@settings(max_examples=fuzz_examples(2000), deadline=None)
@given(st.one_of(json_values, st.dictionaries(st.sampled_from(["gateproof", "id", "world", "steps", "rules", "kind", "x"]), json_values)))
def test_arbitrary_json_is_either_a_scenario_or_a_scenario_error(document):
    try:
        scenario = read_scenario(document)
    except ScenarioError as error:
        assert error.path.startswith("$")
        return
    run_scenario(scenario)


@pytest.mark.rule("S001.1")
def test_deeply_nested_and_huge_values_are_refused_or_read_without_crashing():
    deep = {"gateproof": 1, "id": "d", "world": {}, "steps": [{"op": "classify", "configuration": "c"}]}
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    deep["world"]["enforcement"] = nested
    with pytest.raises(ScenarioError, match=r"^\$\.world\.enforcement(\[0\]){62}: nested more than 64 levels deep$"):
        read_scenario(deep)  # S001.12: built in Python, refused as the same document written as text is
    from gateproof.conformance.harness.documents import parse_json

    as_text = orjson.dumps({**deep, "world": {"enforcement": "HOLE"}}).replace(b'"HOLE"', b"[" * 5000 + b"]" * 5000)
    with pytest.raises(ScenarioError, match=r"^\$\.world\.enforcement(\[0\]){62}: nested more than 64 levels deep$"):
        parse_json(as_text)
    huge = {"gateproof": 1, "id": "h", "world": {"snippets": [{"uid": 1, "text": "x" * 200_000}]}, "steps": [{"op": "classify", "configuration": "c"}]}
    with pytest.raises(ScenarioError, match=r"\$\.world\.snippets\[0\]\.text: longer than 100000"):
        read_scenario(huge)


@st.composite
def broken_lines(draw):
    document, path = draw(broken_documents())
    return orjson.dumps(document), path


@pytest.mark.rule("S001.1")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(broken_lines())
def test_the_command_line_exits_2_naming_the_field(case):
    data, path = case
    done = subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", "decide", "-"], input=data, capture_output=True)
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr and done.stderr.startswith(b"gateproof: error: -: $")
    assert done.stdout == b""


@pytest.mark.rule("S001.1")
@settings(max_examples=300, deadline=None)
@given(ceiling_scenarios())
def test_records_read_by_position_equal_records_built_by_name(document):
    """The reader hands fields over by position; the same raw objects built by keyword give equal records."""
    from gateproof.model.records import Configuration, LlmModel, Provider, Skill, Snippet

    world = read_scenario(document).world
    raw = document["world"]
    by_name = {
        "providers": tuple(Provider(**p) for p in raw.get("providers", ())),
        "models": tuple(LlmModel(**m) for m in raw.get("models", ())),
        "configurations": tuple(Configuration(**{**c, "fallbacks": tuple(c.get("fallbacks", ())), "skills": tuple(map(int, c.get("skills", ())))}) for c in raw.get("configurations", ())),
        "snippets": tuple(Snippet(**{**s, "uid": int(s["uid"]), "sorting": int(s.get("sorting", 0))}) for s in raw.get("snippets", ())),
        "skills": tuple(Skill(**{**s, "uid": int(s["uid"])}) for s in raw.get("skills", ())),
    }
    assert {table: tuple(getattr(world, table)) for table in by_name} == by_name


def test_a_record_with_a_derived_field_cannot_be_read_by_position():
    from attrs import Factory, field, frozen

    from gateproof.model.scenario.read import record_reader

    @frozen
    class Derived:
        name: str
        length: int = field(init=False, default=Factory(lambda record: len(record.name), takes_self=True))

    @frozen
    class Made:
        name: str
        aliases: list = Factory(list)

    with pytest.raises(TypeError, match="Derived.length"):
        record_reader(Derived)
    with pytest.raises(TypeError, match="Made.aliases"):
        record_reader(Made)


# A stranger's kind of input: the text itself is hostile, not only the values in it.

def objects_with_paths(value, path=()):
    """(path, object) for every object within ``value``, outermost first."""
    if isinstance(value, dict):
        yield path, value
        children = value.items()
    elif isinstance(value, list):
        children = enumerate(value)
    else:
        return
    for key, child in children:
        yield from objects_with_paths(child, (*path, key))


def replace_at(document, path, value):
    if not path:
        return value
    target = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return document


def in_proposal(path) -> bool:
    return len(path) >= 3 and path[0] == "steps" and path[2] in ("tool", "arguments")


@st.composite
def stranger_texts(draw):
    """A valid scenario written as text with one hostile change, and what reading it must say: None, or (path, words)."""
    from gateproof.conformance.harness.documents import dumps
    from gateproof.conformance.generation.gateway_strategies import gateway_scenarios
    from gateproof.model.scenario.document import MAX_DEPTH, RepeatedKeys
    from gateproof.model.scenario.errors import join_path

    document = copy.deepcopy(draw(ceiling_scenarios(max_steps=2, max_snippets=2, max_skills=2) | gateway_scenarios(max_steps=3)))
    how = draw(st.sampled_from(["integer", "deep", "repeat", "utf-8"]))
    free = ["world", "enforcement"] if document.get("kind") != "gateway" else ["steps", 0, "arguments"]
    if how == "integer" and document["steps"][0].get("op") in ("call", "send", None):
        digits = draw(st.integers(-(10**400), 10**400) | st.sampled_from([-(2**63) - 1, 2**64, -(10**18) * 9 - 3]))
        target = free if free[0] == "world" else ["steps", 0, "arguments"]
        replace_at(document, target, {"n": digits} if free[0] != "world" else digits)
        return dumps(document), None
    if how == "deep":
        levels = draw(st.integers(1, 1500))
        outermost = len(free) + 1  # the level of the value at ``free``: $ is level 1
        text = dumps(replace_at(document, free, "HOLE")).replace(b'"HOLE"', b"[" * levels + b"]" * levels)
        if outermost + levels - 1 <= MAX_DEPTH:
            return text, None
        return text, (join_path([*free, *([0] * (MAX_DEPTH + 1 - outermost))]), "nested more than")
    if how == "repeat":
        path, target = draw(st.sampled_from([(p, o) for p, o in objects_with_paths(document) if o]))
        key = draw(st.sampled_from(sorted(target)))
        twice = RepeatedKeys([(key, draw(json_values)), *target.items()])
        text = dumps(replace_at(document, list(path), twice))
        return text, None if in_proposal(path) else (join_path(path), f"the key {key!r} is written more than once")
    text = dumps(document)
    quote = draw(st.sampled_from([i for i in range(len(text)) if text[i:i + 1] == b'"']))
    return text[:quote + 1] + draw(st.sampled_from([b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\x80"])) + text[quote + 1:], ("$", "not valid JSON")


@pytest.mark.rule("S001.4", "S001.5", "S001.6")
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(stranger_texts())
def test_hostile_text_is_refused_by_name_or_read_decided_and_written_back_exactly(case):
    from gateproof.conformance.harness.documents import dumps, parse_json

    text, refusal = case
    if refusal is not None:
        with pytest.raises(ScenarioError) as refused:
            read_scenario(parse_json(text))
        assert refused.value.path == refusal[0] and refusal[1] in refused.value.problem, (refused.value, refusal)
        return
    document = parse_json(text)
    assert dumps(document) == text  # every integer and every repeated key as written
    try:
        outcome = run_scenario(read_scenario(document))
    except ScenarioError:
        return  # the change itself may break a rule of the document (a stored value the reader judges)
    assert parse_json(dumps(outcome), repeats=None) == outcome


@pytest.mark.rule("S001.4")
@settings(max_examples=200, deadline=None)
@given(ceiling_scenarios(max_steps=2))
def test_a_document_one_byte_over_the_size_limit_is_refused_and_at_it_is_read(document):
    from gateproof.conformance.harness.documents import dumps, parse_json

    text = dumps(document)
    assert parse_json(text, limit=len(text)) == document
    with pytest.raises(ScenarioError, match=rf"^\$: larger than {len(text) - 1} bytes$"):
        parse_json(text, limit=len(text) - 1)


@pytest.mark.rule("S001.4", "S001.5", "S001.6")
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(stranger_texts())
def test_the_command_line_answers_hostile_text_with_an_outcome_or_exit_2(case):
    text, refusal = case
    done = subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", "decide", "--jsonl", "-"], input=text + b"\n", capture_output=True, timeout=300)
    assert b"Traceback" not in done.stderr
    if refusal is not None:
        assert done.returncode == 2 and done.stderr.startswith(f"gateproof: error: -: line 1: {refusal[0]}: ".encode()), done.stderr
    else:
        assert done.returncode in (0, 2), done.stderr
