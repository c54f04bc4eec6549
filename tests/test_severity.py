"""Which way a disagreement leans: security when the implementation lets out more than the model, refusal when it holds back, other else."""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from types import SimpleNamespace

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.generation import scenarios
from gateproof.conformance.generation.ceiling_strategies import ceiling_scenarios
from gateproof.conformance.generation.gateway_strategies import gateway_scenarios
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.hunt import Hunt, identity
from gateproof.conformance.harness.protocol import Outcome
from gateproof.conformance.harness.results import Disagreement, judge
from gateproof.conformance.harness.severity import OTHER, REFUSAL, SECURITY, classify, severity
from gateproof.conformance.implementations.zoo import ZOO
from gateproof.conformance.implementations.wrong.decide import run_under
from gateproof.model.scenario import read_scenario, run_scenario

CORPUS = {case.id: case for case in load_corpus()}
CROSS_TENANT_READ = CORPUS["gw.boundary.g001.12.other-tenant.applies"]  # a supervisor reads another tenant's case: denied


def allowed_read(outcome: dict, step: int = 0) -> dict:
    """``outcome`` with the read at ``step`` allowed and served, as a gateway that skips the tenant check answers it."""
    wrong = copy.deepcopy(outcome)
    result = wrong["results"][step]
    result.update(decision="allow", reason="allowed", caller_reason="allowed", rule=None, reads=[{"case_id": result["audit"]["case_id"]}])
    result["audit"].update(decision="allow", reason="allowed")
    return wrong


def shouted_tenants(outcome: dict) -> dict:
    """``outcome`` with every call's audit tenant in capitals: a difference that lets nothing more out."""
    wrong = copy.deepcopy(outcome)
    for result in wrong["results"]:
        if result.get("op") == "call":
            result["audit"]["tenant"] = result["audit"]["tenant"].upper()
    return wrong


def mutant_outcome(name: str, document: dict, expected: dict) -> dict:
    return dict(run_under(ZOO[name].variant, document), rules=expected["rules"])  # the variant's name is no difference here


@pytest.mark.rule("G001.10")
def test_a_cross_tenant_read_allowed_is_security_and_its_mirror_a_refusal():
    expected, scenario = CROSS_TENANT_READ.expected, CROSS_TENANT_READ.scenario
    found, leans = classify(expected, allowed_read(expected), scenario)
    assert found == SECURITY
    assert [lean.text(SECURITY) for lean in leans] == ["step 0: allows a call the model denies (tenant_mismatch) [G001.13, G001.10]",
                                                         "step 0: serves a read the model does not [G001.12]"]
    mirrored, held = classify(allowed_read(expected), expected, scenario)
    # Read the other way, the reason and rule are the denying side's own: here what the implementation answered.
    assert mirrored == REFUSAL and held[0].text(REFUSAL) == "step 0: denies a call the model allows (tenant_mismatch) [G001.13, G001.10]"


def test_an_audit_field_rewritten_on_every_call_is_other_and_hides_no_security_fault_after_it():
    case = CORPUS["gw.revoked-session"]  # a revocation, then a call: the tenant differs first at step 1
    assert severity(case.expected, shouted_tenants(case.expected), case.scenario) == OTHER
    two_calls = dict(CROSS_TENANT_READ.scenario, steps=[dict(CROSS_TENANT_READ.scenario["steps"][0], session="ana", tool="read_case",
                                                              arguments={"case_id": "CASE-1"}), CROSS_TENANT_READ.scenario["steps"][0]])
    expected = run_scenario(read_scenario(two_calls))
    actual = allowed_read(shouted_tenants(expected), step=1)
    # The first difference is step 0's audit tenant, yet the read allowed at step 1 makes it security.
    assert judge("impl", "generated", "generated/lab-001", two_calls, expected, Outcome(0, actual), "full", ()).disagreement.step == 0
    found, leans = classify(expected, actual, two_calls)
    assert found == SECURITY and {lean.step for lean in leans} == {1}


@pytest.mark.rule("G001.15")
def test_case_content_in_the_audit_is_security():
    case = CORPUS["gw.unassigned-support"]
    found, leans = classify(case.expected, mutant_outcome("logs-case-content", case.scenario, case.expected), case.scenario)
    assert found == SECURITY and [lean.way for lean in leans] == ["audit"] and leans[0].rules == ("G001.15",)


@pytest.mark.rule("G001.15")
def test_proposal_text_in_the_audit_is_security_but_a_forged_value_naming_a_record_of_the_world_is_no_leak():
    case = CORPUS["gw.forged.tenant"]  # the proposal carries "tenant": "acme", which is also the session's tenant
    shouted = shouted_tenants(case.expected)
    assert severity(case.expected, shouted, case.scenario) == severity(shouted, case.expected, case.scenario) == OTHER
    copied = copy.deepcopy(case.expected)
    copied["results"][0]["audit"]["destination_id"] = "nowhere-drop"
    scenario = copy.deepcopy(case.scenario)
    scenario["steps"][0]["arguments"]["note"] = "nowhere-drop"  # text only the proposal carries
    found, leans = classify(case.expected, copied, scenario)
    assert found == SECURITY and leans[0].detail == "proposal 'nowhere-drop'"


@pytest.mark.rule("C144.10")
def test_a_send_the_ceiling_refuses_sent_is_security_and_an_observed_send_withheld_a_refusal():
    refused = next(c for c in CORPUS.values() if c.scenario.get("kind", "ceiling") == "ceiling"
                   and any(r.get("decision") == "refused" for r in c.expected["results"]))
    sent = copy.deepcopy(refused.expected)
    for result in sent["results"]:
        if result.get("decision") == "refused":
            result.update(decision="observed", sent=True)
    assert severity(refused.expected, sent, refused.scenario) == SECURITY
    observed = CORPUS["ceiling.example.observe-mode"]
    assert severity(observed.expected, mutant_outcome("observe-blocks", observed.scenario, observed.expected), observed.scenario) == REFUSAL


@pytest.mark.rule("C144.9")
def test_context_of_a_stricter_class_sent_is_security_and_a_less_strict_one_only_a_difference():
    mine = {"results": [{"op": "send", "decision": "permitted", "declared_class": "sourceCode", "sent": True}]}
    stricter = {"results": [{"op": "send", "decision": "permitted", "declared_class": "secretAdjacent", "sent": True}]}
    assert severity(mine, stricter) == SECURITY and severity(stricter, mine) == OTHER
    undeclared = {"results": [{"op": "send", "decision": "undeclared", "declared_class": None, "sent": True}]}
    assert severity(undeclared, {"results": [dict(undeclared["results"][0], declared_class="publicContent")]}) == OTHER


def test_the_ways_the_zoo_departs_are_classed_as_each_defect_leans():
    found = {name: Counter() for name in ("unsafe-gateway", "logs-case-content", "observe-blocks", "first-wins-ties", "undeclared-as-public")}
    for case in CORPUS.values():
        for name in found:
            if case.scenario.get("kind", "ceiling") == ZOO[name].kind:
                found[name][severity(case.expected, mutant_outcome(name, case.scenario, case.expected), case.scenario)] += 1
    assert found["unsafe-gateway"][SECURITY] and found["logs-case-content"][SECURITY]
    assert found["observe-blocks"][REFUSAL] and not found["observe-blocks"][SECURITY]
    assert set(found["first-wins-ties"]) <= {None, OTHER} and set(found["undeclared-as-public"]) <= {None, OTHER}


documents = st.one_of(gateway_scenarios(), ceiling_scenarios())


@settings(max_examples=60)
@given(documents)
def test_identical_outcomes_are_not_disagreements(document):
    outcome = run_scenario(read_scenario(document))
    assert severity(outcome, copy.deepcopy(outcome), document) is None
    assert classify(outcome, outcome, document) == (None, [])


@settings(max_examples=60)
@given(documents, st.sampled_from(sorted(ZOO)))
def test_a_disagreement_and_its_mirror_are_never_both_security(document, name):
    if ZOO[name].kind != document.get("kind", "ceiling"):
        return
    expected = run_scenario(read_scenario(document))
    actual = mutant_outcome(name, document, expected)
    assert (severity(expected, actual, document), severity(actual, expected, document)).count(SECURITY) <= 1
    if severity(expected, actual, document) == REFUSAL:  # holding back, read the other way, is letting out
        assert severity(actual, expected, document) == SECURITY


def test_no_disagreement_of_the_zoo_on_generated_scenarios_is_security_read_both_ways():
    """The generators reach far more disagreements than the strategies: 200 scenarios of each kind, every mutant of it.

    A story whose outcomes part at two steps may lean one way at one and the other way at the other, and is then
    security read either way (the test below); the mirror holds for outcomes that part at one step.
    """
    both, counted = [], Counter()
    for kind, version in (("gateway", "lab-001"), ("gateway", "lab-001+next"), ("ceiling", "adr-179")):
        for document in itertools.islice(scenarios(kind, version, 0), 200):
            expected = run_scenario(read_scenario(document))
            for name in (n for n, m in ZOO.items() if m.kind == kind):
                actual = mutant_outcome(name, document, expected)
                pair = severity(expected, actual, document), severity(actual, expected, document)
                counted[pair] += 1
                parted = sum(mine != theirs for mine, theirs in zip(expected["results"], actual["results"]))
                both += [(name, document["id"])] if pair == (SECURITY, SECURITY) and parted == 1 else []
    assert both == []
    assert counted[SECURITY, REFUSAL] and counted[REFUSAL, SECURITY]  # both ways are reached, not only one


def test_a_story_that_leans_both_ways_is_security_read_either_way():
    """Security is judged at every step: one call allowed that the model denies makes it security, whatever else it holds back."""
    call = {"op": "call", "decision": "deny", "reason": "not_assigned", "rule": "G001.12", "exports": [], "reads": []}
    allowed = dict(call, decision="allow", reason="allowed", rule=None)
    assert severity({"results": [call, allowed]}, {"results": [allowed, call]}) == SECURITY
    assert severity({"results": [allowed, call]}, {"results": [call, allowed]}) == SECURITY


def test_a_result_the_implementation_adds_or_leaves_out_leans_by_what_it_lets_out():
    allowed = {"op": "call", "decision": "allow", "reads": [{"case_id": "CASE-1"}]}
    assert severity({"results": []}, {"results": [allowed]}) == SECURITY
    assert severity({"results": [allowed]}, {"results": []}) == REFUSAL
    assert severity({"results": "odd"}, {"results": [{"op": "readout"}]}) == OTHER  # any document reads, none raises


def test_a_disagreement_computes_its_class_unless_given_it():
    expected = CROSS_TENANT_READ.expected
    computed = Disagreement(CROSS_TENANT_READ.scenario, expected, allowed_read(expected), 0, ("decision",))
    assert computed.severity == SECURITY
    assert Disagreement(CROSS_TENANT_READ.scenario, expected, expected, None, ()).severity == OTHER
    assert Disagreement(CROSS_TENANT_READ.scenario, expected, allowed_read(expected), 0, ("decision",), severity=REFUSAL).severity == REFUSAL
    assert evolve(computed, actual=shouted_tenants(expected)).severity == OTHER  # a copy with other outcomes is classed by its own


def failed(actual: dict, scenario: dict | None = None):
    case = CROSS_TENANT_READ
    return judge("impl", "generated", "generated/lab-001", scenario or case.scenario, case.expected, Outcome(0, actual), "full", ())


def stub_hunt(wanted: int, new: list) -> tuple[Hunt, list]:
    """A hunt whose one sweep answers ``new``, and which keeps what it settles: how it chooses, apart from how it runs."""
    settings_ = SimpleNamespace(seed=0, shard=SimpleNamespace(index=1, count=1), exitfirst=False, disagreements=wanted, catalog=None)
    campaign = SimpleNamespace(settings=settings_, tally=SimpleNamespace(unkept=Counter(), unkept_severities=Counter()))
    hunt = Hunt(campaign, "gateway", "lab-001", 10)
    settled, sweeps = [], iter([[(verdict, None) for verdict in new]])
    hunt.sweep = lambda feed, stop: next(sweeps, [])
    hunt.settle = lambda verdict, reply: (hunt.found.add(identity(verdict)), settled.append(verdict))
    return hunt, settled


def leaked(outcome: dict) -> dict:
    """``outcome`` with the case's content written into its first call's audit record, beside its id."""
    wrong = copy.deepcopy(outcome)
    content = next(c["content"] for c in CROSS_TENANT_READ.scenario["world"]["cases"] if c["id"] == "CASE-9")
    wrong["results"][0]["audit"]["case_id"] = f"CASE-9: {content}"
    return wrong


def test_the_hunt_settles_security_disagreements_first_whatever_was_answered_before_them():
    expected = CROSS_TENANT_READ.expected
    other, leak, read = failed(shouted_tenants(expected)), failed(leaked(expected)), failed(allowed_read(expected))
    hunt, settled = stub_hunt(1, [other, leak])
    hunt.run()
    # One disagreement wanted: the security one answered second is kept, the other counted by its class.
    assert settled == [leak] and hunt.campaign.tally.unkept_severities == Counter({OTHER: 1})
    assert hunt.campaign.tally.unkept == Counter({("generated/lab-001", "failed"): 1})
    hunt, settled = stub_hunt(2, [other, read, leak])
    hunt.run()
    assert settled == [read, leak]  # two security faults of different ways are two disagreements


def test_a_security_disagreement_that_first_differs_in_the_keys_of_a_kept_one_is_new():
    expected = CROSS_TENANT_READ.expected
    other, leak = failed(shouted_tenants(expected)), failed(leaked(shouted_tenants(expected)))
    assert leak.disagreement.keys == other.disagreement.keys == ("audit",) and leak.disagreement.severity == SECURITY
    assert identity(leak) != identity(other)
    assert identity(failed(leaked(expected))) == identity(leak)  # a security one is known by the ways it lets more out
