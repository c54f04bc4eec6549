"""The three strictness levels: what each holds an implementation to, and the rules a disagreement involves."""

import copy

import pytest

from gateproof.conformance.harness.compare import Mismatch, compare, rule_ids
from gateproof.conformance.corpus.load import load_corpus

BY_ID = {c.id: c for c in load_corpus()}
REFUSED_SEND = BY_ID["ceiling.example.forced-snippet-refused"]
DENIED_CALL = BY_ID["gw.cross-tenant.export"]


def changed(case, step: int, **fields) -> dict:
    outcome = copy.deepcopy(case.expected)
    outcome["results"][step].update(fields)
    return outcome


@pytest.mark.parametrize("fields, weakest", [
    ({"decision": "observed"}, "decision"),
    ({"source": 'snippet "other"'}, "reason"),
    ({"declared_class": "sourceCode"}, "reason"),
    ({"message": "Refused."}, "full"),
    ({"audit": []}, "full"),
])
def test_each_key_of_a_send_is_held_from_its_level_up(fields, weakest):
    actual = changed(REFUSED_SEND, 1, **fields)
    levels = ("decision", "reason", "full")
    for level in levels:
        found = compare(REFUSED_SEND.expected, actual, level)
        assert (found is not None) == (levels.index(level) >= levels.index(weakest)), level


def test_a_call_is_held_to_its_reason_and_rule_at_reason_level():
    actual = changed(DENIED_CALL, 0, reason="case_not_found", rule="G001.9")
    assert compare(DENIED_CALL.expected, actual, "decision") is None
    mismatch = compare(DENIED_CALL.expected, actual, "reason")
    assert mismatch == Mismatch(0, ("reason", "rule"))
    assert rule_ids(mismatch, DENIED_CALL.expected, actual, DENIED_CALL.rules) == ("G001.10", "G001.9")


def test_a_missing_result_and_a_changed_header_are_found():
    fewer = dict(REFUSED_SEND.expected, results=REFUSED_SEND.expected["results"][:1])
    assert compare(REFUSED_SEND.expected, fewer, "decision") == Mismatch(None, ("results",))
    renamed = dict(REFUSED_SEND.expected, rules="adr-164")
    assert compare(REFUSED_SEND.expected, renamed, "reason") is None
    assert compare(REFUSED_SEND.expected, renamed, "full") == Mismatch(None, ("rules",))


def test_a_send_disagreement_names_the_rules_that_define_the_keys():
    actual = changed(REFUSED_SEND, 1, source='snippet "other"')
    mismatch = compare(REFUSED_SEND.expected, actual, "full")
    assert rule_ids(mismatch, REFUSED_SEND.expected, actual) == ("C144.9", "C144.3", "C144.4")  # the fold, over the composition order


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="decision, reason, full"):
        compare(REFUSED_SEND.expected, REFUSED_SEND.expected, "loose")
