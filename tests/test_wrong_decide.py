"""``run_under``: any scenario document decided under a rule version or a wrong variant, safely from several threads."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path

import pytest

from gateproof.conformance.implementations.wrong.ceiling import WRONG_RULES
from gateproof.conformance.implementations.wrong.decide import run_under
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
    ceiling = list(WRONG_RULES)
    documents = [_example(name) for name in ("forced-snippet-refused.json", "observe-mode.json", "adr-175-tie-names-one-source.json")]
    jobs = [(name, document) for name in [*ceiling, "adr-179"] for document in documents] * 3
    alone = [run_under(name, document) for name, document in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(lambda job: run_under(*job), jobs))
    assert together == alone


@pytest.mark.parametrize("rules", ["adr-179", "wrong:resume-enabled-only"])  # a version, and a variant that swaps nothing
def test_the_model_waits_while_another_thread_holds_a_variants_swap(rules):
    """Decided while a variant that swaps model functions holds them in another thread, a document gets the answer it gets alone."""
    document = _example("adr-175-tie-names-one-source.json")
    alone = run_under(rules, document)
    swapped = WRONG_RULES["wrong:first-wins-ties"]
    assert swapped.patches and not WRONG_RULES["wrong:resume-enabled-only"].patches
    assert run_under("wrong:first-wins-ties", document) != alone  # so deciding with the swap in force would show
    holding, release = threading.Event(), threading.Event()

    def hold():
        with swapped.in_force():
            holding.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(60)
        with ThreadPoolExecutor(max_workers=1) as pool:
            decided = pool.submit(run_under, rules, document)
            wait([decided], timeout=1)  # time for it to decide with the swap in force, were it let
            release.set()
            assert decided.result(timeout=60) == alone
    finally:
        release.set()
        holder.join(60)


def test_deciding_under_a_wrong_variant_loads_no_prover():
    """The variants are the proofs' subjects, not their part: deciding under one imports neither z3 nor the proofs."""
    code = (
        "import json, sys\n"
        "from gateproof.conformance.implementations.wrong.decide import run_under\n"
        f"run_under('wrong:first-wins-ties', json.loads(open({str(EXAMPLES / 'observe-mode.json')!r}).read()))\n"
        "print(sorted(m for m in sys.modules if m == 'z3' or m.startswith('gateproof.conformance.proofs')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
