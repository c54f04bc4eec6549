"""``run_under``: any scenario document decided under a rule version or a wrong variant, safely from several threads."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gateproof.conformance.proofs.replay import WRONG_VARIANTS, run_under
from gateproof.model.scenario import read_scenario, run_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def test_a_rule_version_overrides_the_documents_own():
    document = _example("adr-175-tie-names-one-source.json")
    assert run_under("adr-166", document) == run_scenario(read_scenario({**document, "rules": "adr-166"}))


def test_the_unsafe_gateway_is_served_as_it_is():
    document = _example("gateway-cross-tenant-probe.json")
    assert {r.get("decision") for r in run_under("wrong:unsafe-gateway", document)["results"]} >= {"allow"}


def test_unknown_names_and_the_other_family_are_refused():
    with pytest.raises(KeyError):
        run_under("wrong:nothing-like-it", _example("observe-mode.json"))
    with pytest.raises(ValueError):
        run_under("wrong:first-wins-ties", _example("gateway-cross-tenant-probe.json"))


def test_variants_run_side_by_side_in_threads_as_they_run_alone():
    """A variant that swaps model functions holds them only for its own call: threads never see each other's rules."""
    ceiling = [name for name, variant in WRONG_VARIANTS.items() if variant.gateway_reason is None]
    documents = [_example(name) for name in ("forced-snippet-refused.json", "observe-mode.json", "adr-175-tie-names-one-source.json")]
    jobs = [(name, document) for name in [*ceiling, "adr-179"] for document in documents] * 3
    alone = [run_under(name, document) for name, document in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda job: run_under(*job), jobs))
    assert together == alone
