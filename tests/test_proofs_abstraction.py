"""What the proofs abstract away is tied to the model: forced de-duplication by name, the fallback chain; and the raw switch's two readings agree.

Each test restates the abstracted rule independently, builds the value the
proofs reason about from a generated case, and checks that the model's
decision is the proofs' verdict over it (``adr/invariants.md``).
"""

from __future__ import annotations

import re

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.proofs.decode import scenario_documents, verdicts_of
from gateproof.conformance.proofs.send import Send, semantics_of, verdict_over
from gateproof.conformance.generation.ceiling_strategies import raw_switches, send_steps, worlds
from gateproof.model import enforcement, lattice
from gateproof.model.enforcement import is_enforcing
from gateproof.model.lattice import CONCRETE, NO_SOURCE, UNDECLARED
from gateproof.model.ladder import DataClass
from gateproof.model.lookups import CASE_SENSITIVE
from gateproof.model.records import Configuration, LlmModel, Provider, World
from gateproof.model.resolution import resolve_zone, zone_of_model
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.run import resolve_forced_set, trace_send
from gateproof.model.symbolic import Z3
from gateproof.model.sources import Source, configuration_sources, declared_class_of, skill_name, snippet_name
from gateproof.model.versions import LATEST
from gateproof.model.zones import STRICTEST_ZONE, TrustZone

PHP_TRIMMED = " \t\n\r\0\x0b"


def _rank(source: Source) -> int:
    return UNDECLARED if source.data_class is None else source.data_class.rank


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_C164_3_a_forced_source_named_like_an_earlier_one_is_simply_not_listed(data):
    """The gate folds the configuration's sources and each forced source whose exact name is new, and nothing else."""
    document = data.draw(worlds())
    step = {**data.draw(send_steps(document)), "dry_run": False}
    scenario = read_scenario({"gateproof": 1, "id": "generated", "world": document, "steps": [step]})
    world, send = scenario.world, scenario.steps[0]
    configuration = world.configuration_index[send.configuration]
    forced = resolve_forced_set(world, send.forced_snippets, send.forced_skills, LATEST)
    positions = list(configuration_sources(world, configuration, LATEST.attached_skills_once))
    configuration_count = len(positions)
    positions += [Source(snippet_name(s), declared_class_of(s), "forced snippet") for s in forced.snippets]
    positions += [Source(skill_name(s), declared_class_of(s), "forced skill") for s in forced.skills]
    names = [source.name for source in positions]
    listed = tuple(index < configuration_count or name not in names[:index] for index, name in enumerate(names))
    trace = trace_send(world, send, LATEST)
    proofs_send = Send(
        ranks=tuple(_rank(source) for source in positions),
        listed=listed,
        forced=tuple(index >= configuration_count for index in range(len(positions))),
        primary_zone=resolve_zone(world, configuration, send.serving_model).zone.rank,
        fallback_zones=(), fallback_listed=(),
        enforcing=is_enforcing(world.enforcement),
    )
    verdict = verdict_over(proofs_send, proofs_send.listed, CONCRETE)
    decision = trace.decision
    assert verdict.declared == (UNDECLARED if decision.data_class is None else decision.data_class.rank)
    assert ("" if verdict.source == NO_SOURCE else names[verdict.source]) == decision.source
    assert lattice.DECISION_KINDS[verdict.kind] == decision.kind


def observes(raw: object) -> bool:
    """C113.1 restated: PHP's trim of its six characters, then ASCII-only lowercasing, equals ``observe``."""
    return isinstance(raw, str) and re.fullmatch(f"[{re.escape(PHP_TRIMMED)}]*[oO][bB][sS][eE][rR][vV][eE][{re.escape(PHP_TRIMMED)}]*", raw) is not None


padding = st.text(alphabet=PHP_TRIMMED + "\x0c\u00a0\u2003\u3000x", max_size=3)
spellings = st.sampled_from(["observe", "OBSERVE", "Observe", "oBsErVe", "observ", "observee", "obſerve", "\u212abserve", "enforce", ""])
raw_values = st.one_of(raw_switches(), st.builds(lambda a, word, b: a + word + b, padding, spellings, padding))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(UNDECLARED, len(DataClass) - 1), min_size=1, max_size=4), st.integers(0, len(TrustZone) - 1), raw_values)
def test_C113_1_the_raw_switch_decides_as_the_proofs_read_it(ranks, zone, raw):
    """The switch's text is read alike by the model, by its z3 interpretation and by the rule restated; a send under it replays as the proofs decide it."""
    enforcing = not observes(raw)
    assert is_enforcing(raw) == enforcing
    if isinstance(raw, str):
        assert z3.is_true(z3.simplify(enforcement.observes(z3.StringVal(raw), Z3))) == (not enforcing)
    bound = len(ranks)
    switch = raw if isinstance(raw, str) else None
    send = Send(tuple(ranks), (True,) * bound, (False,) * bound, zone, (), (), enforcing, switch)
    semantics = semantics_of(LATEST)
    ((document, _),) = scenario_documents("switch", "the switch is read as the proofs read it", semantics, (send,))
    world = dict(document["world"])
    if raw is None:
        del world["enforcement"]  # a value never stored
    else:
        world["enforcement"] = raw
    assert switch is None or document["world"]["enforcement"] == raw
    (shown,) = verdicts_of(run_scenario(read_scenario({**document, "world": world})))
    expected = semantics.judge(send, CONCRETE)
    assert (shown.declared, shown.source, shown.kind, shown.sent) == (expected.declared, expected.source, expected.kind, expected.sent)


CHAIN_ENTRIES = ["c1", " C1 ", "C2\t", "c2", "", 7, None, "gone", "retired", "C3", "c1"]


def normalised_chain(raw: list) -> list[str]:
    """C094.9 restated: strings only, trimmed the PHP way, ASCII-lowercased, empty ones dropped, first occurrences kept."""
    chain: list[str] = []
    for entry in raw:
        if isinstance(entry, str):
            token = entry.strip(PHP_TRIMMED).translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"))
            if token and token not in chain:
                chain.append(token)
    return chain


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(CHAIN_ENTRIES), max_size=6),
    st.lists(st.sampled_from([z.value for z in TrustZone] + ["", "unknown"]), min_size=4, max_size=4),
    st.booleans(),
)
def test_C094_9_and_10_the_zone_is_the_proofs_fold_over_the_normalised_chain(chain, zones, inactive):
    """The model's zone is the rank fold the proofs reason about, over the chain C094.9 normalises, an unresolvable entry counting as the strictest zone."""
    providers = tuple(Provider(f"p{i}", zone) for i, zone in enumerate(zones))
    models = tuple(LlmModel(f"m{i}", f"p{i}") for i in range(len(zones)))
    configurations = (
        Configuration("c0", "m0", fallbacks=tuple(chain)),
        Configuration("c1", "m1", active=not inactive),
        Configuration("c2", "m2"),
        Configuration("C3", "m3"),  # stored uppercase: a normalised entry can never name it
        Configuration("retired", "m3", deleted=True),
    )
    world = World(CASE_SENSITIVE, providers=providers, models=models, configurations=configurations)
    by_identifier = {c.identifier: c for c in configurations if not c.deleted}
    primary, _ = zone_of_model(world, "m0")
    fallback_zones = [
        zone_of_model(world, by_identifier[entry].model)[0].rank if entry in by_identifier else STRICTEST_ZONE.rank
        for entry in normalised_chain(chain)
    ]
    expected = lattice.reachable_zone_rank(primary.rank, fallback_zones, [True] * len(fallback_zones))
    assert resolve_zone(world, configurations[0]).zone.rank == expected
