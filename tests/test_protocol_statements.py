"""PROTOCOL.md states the comparison levels itself; what it says is what the harness compares."""

from __future__ import annotations

import re
from pathlib import Path

from gateproof.conformance.harness.compare import DECISION_KEYS, REASON_KEYS, compare

PROTOCOL = (Path(__file__).resolve().parent.parent / "conformance" / "PROTOCOL.md").read_text(encoding="utf-8")


def level_text(level: str) -> str:
    section = PROTOCOL[PROTOCOL.index("## How outcomes are compared"):PROTOCOL.index("## What `verify` sends")]
    return re.search(rf"^- `{level}`:(.*?)(?=^- `|\Z)", section, re.S | re.M).group(1)


def test_the_protocol_names_exactly_the_keys_each_level_compares():
    assert set(re.findall(r"`(\w+)`", level_text("decision"))) == set(DECISION_KEYS)
    assert set(re.findall(r"`(\w+)`", level_text("reason"))) == set(REASON_KEYS) - set(DECISION_KEYS)
    assert "compare.py" not in PROTOCOL


def test_a_key_one_side_lacks_differs_and_the_number_of_results_counts_at_every_level():
    mine = {"gateproof": 1, "scenario": "s", "rules": "adr-179", "results": [{"op": "send", "decision": "permitted"}]}
    for level in ("decision", "reason", "full"):
        assert compare(mine, {**mine, "results": [{"op": "send"}]}, level).keys == ("decision",)
        assert compare(mine, {**mine, "results": mine["results"] * 2}, level).keys == ("results",)
    assert compare(mine, {**mine, "rules": "nr-llm"}, "full").keys == ("rules",)
    assert compare(mine, {**mine, "rules": "nr-llm"}, "reason") is None
