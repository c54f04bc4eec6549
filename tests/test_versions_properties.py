"""Properties across versions and paths, over generated stories."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateproof.conformance.diff.claims import decisions, names_across_suspension
from gateproof.conformance.diff.search import outcome_under, within
from gateproof.conformance.generation.lifecycle_strategies import lifecycle_scenarios, story_worlds
from gateproof.model.lookups import lookup_enabled, lookup_existing
from gateproof.model.records import Snippet
from gateproof.model.versions import ADR_SEQUENCE, VERSIONS

#: Every declared version from ADR-175 on, the code's profile included: where forced skills keep the caller's order.
FROM_175 = [version for version in VERSIONS if within(version, "adr-175", None)]

FAST = settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@FAST
@given(lifecycle_scenarios(classified=False))
def test_every_version_agrees_with_its_successor_where_nothing_is_classified(document):
    for older, newer in zip(ADR_SEQUENCE, ADR_SEQUENCE[1:]):
        assert decisions(outcome_under(document, older)) == decisions(outcome_under(document, newer))


@FAST
@given(st.lists(st.integers(1, 6), max_size=8), st.lists(st.tuples(st.booleans(), st.booleans()), min_size=6, max_size=6))
def test_uid_order_in_is_record_order_out_for_both_lookups(uids, flags):
    index = {uid: Snippet(uid, active=on, deleted=gone) for uid, (on, gone) in enumerate(flags, 1)}
    for lookup, keeps in ((lookup_enabled, lambda s: s.active and not s.deleted), (lookup_existing, lambda s: not s.deleted)):
        assert [s.uid for s in lookup(index, uids)] == [u for u in uids if keeps(index[u])]


@FAST
@given(lifecycle_scenarios(changing=False))
def test_uid_order_in_is_order_out_on_every_path_from_175(document):
    for version in FROM_175:
        outcome = outcome_under(document, version)
        queued = next(s for s in document["steps"] if s["op"] == "queue")
        for result in outcome["results"]:
            if result["op"] == "dequeue" and "forced_skills" in result:
                asked = [u for u in queued["forced_skills"] if type(u) is int]
                assert result["forced_skills"] == [u for u in asked if u in result["forced_skills"]]
            if result["op"] == "resume" and "forced_skills" in result:
                started = next(r for r in outcome["results"] if r["op"] == "dequeue")
                assert result["forced_skills"] == started["forced_skills"]


@FAST
@given(lifecycle_scenarios(changing=False, world_strategy=story_worlds(tied_skills=True, observing=True)))
def test_a_resume_after_no_change_decides_and_names_as_the_start_did_from_175(document):
    for version in FROM_175:
        outcome = outcome_under(document, version)
        assert names_across_suspension(outcome)
        gated = [r for r in outcome["results"] if r["op"] in ("dequeue", "resume") and "decision" in r]
        if len(gated) == 2 and gated[0]["decision"] != "dry_run":
            assert gated[0]["decision"] == gated[1]["decision"]
