"""``adr/lifecycle.md``: every entry links a function that carries its id (``test_adr_links.py`` holds that a test pins each)."""

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENTRY = re.compile(r"^### (?P<id>[CS]\d{3}\.\d+) — (?P<title>.+)\n(?P<body>(?:.+\n)+)\n\*Implemented by\* `(?P<path>[\w.]+)`$", re.M)


def entries():
    return list(ENTRY.finditer((ROOT / "adr" / "lifecycle.md").read_text(encoding="utf-8")))


def test_every_heading_is_a_well_formed_entry():
    text = (ROOT / "adr" / "lifecycle.md").read_text(encoding="utf-8")
    assert len(entries()) == text.count("\n### ") > 0


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e["id"])
def test_the_implementing_function_carries_the_id(entry):
    module, _, name = entry["path"].rpartition(".")
    function = getattr(importlib.import_module(module), name)
    assert entry["id"] in (function.__doc__ or "")


@pytest.mark.rule("S001.1", "S002.1", "S002.2")
@pytest.mark.parametrize(("step", "field"), [
    ({"op": "delete", "kind": "snippet", "uid": 1, "identifier": "s1"}, "identifier"),
    ({"op": "update", "kind": "snippet", "identifier": "s1", "set": {"active": False}}, "uid"),
    ({"op": "delete", "kind": "configuration", "identifier": "c", "uid": 1}, "uid"),
    ({"op": "update", "kind": "provider", "uid": 1, "set": {"zone": "local"}}, "identifier"),
])
def test_a_changed_record_is_named_by_its_one_key_and_a_second_key_is_refused(step, field):
    from gateproof.model.scenario import ScenarioError, read_scenario

    document = {"gateproof": 1, "id": "t", "world": {"providers": [{"identifier": "p"}], "configurations": [{"identifier": "c"}],
                                                    "snippets": [{"uid": 1, "identifier": "s1"}]}, "steps": [step]}
    with pytest.raises(ScenarioError) as refused:
        read_scenario(document)
    assert refused.value.path == f"$.steps[0].{field}"
    alone = {key: value for key, value in step.items() if key != field} if field in step else None
    if alone is not None:
        read_scenario({**document, "steps": [alone]})
