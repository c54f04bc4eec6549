"""Deciding a scenario document under any rules the suite knows, right or deliberately wrong.

:func:`run_under` is the one way in: ``gateproof decide --rules`` uses it
to replay a counterexample, and the mutant zoo to serve each wrong variant
as an implementation of the rules. Nothing here loads the prover.
"""

from __future__ import annotations

from attrs import evolve

from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.gateway.scenario import GatewayScenario
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.versions import VERSIONS

from .catalogs import WRONG_CATALOG_GATEWAYS
from .ceiling import UNDONE_ADRS, WRONG_RULES
from .gateway import WRONG_GATEWAYS, WRONG_RECORDS
from .variant import Variant, model_as_it_is

#: The variants the proofs refute; each is some invariant's teeth (their encodings: ``gateproof.conformance.proofs.wrong``).
REFUTED: dict[str, Variant] = {**WRONG_RULES, **WRONG_GATEWAYS, **WRONG_CATALOG_GATEWAYS}
#: Every variant a scenario can be decided under, those no invariant is about besides.
DECIDABLE_VARIANTS: dict[str, Variant] = {**REFUTED, **WRONG_RECORDS, **UNDONE_ADRS}


def decide_names() -> list[str]:
    """What ``decide --rules`` accepts: the gateway's versions and the wrong records besides."""
    return [*VERSIONS, *GATEWAY_VERSIONS, *DECIDABLE_VARIANTS]


def is_for(name: str, document: dict) -> bool:
    """Whether rules of that name apply to the document's kind (trust ceiling or gateway)."""
    gateway = document.get("kind") == "gateway"
    if name in GATEWAY_VERSIONS or name in WRONG_GATEWAYS or name in WRONG_CATALOG_GATEWAYS or name in WRONG_RECORDS:
        return gateway
    return not gateway


def run_variant(variant: Variant, document: dict) -> dict:
    """The outcome document of ``document`` under ``variant``.

    A gateway variant decides through its runner; a variant of other
    switches runs the model with them in place of the document's version;
    a variant of model functions runs the model with them swapped in for
    the call only (:meth:`Variant.in_force`).
    """
    if variant.runner is not None:
        return variant.runner(document)
    with variant.in_force():
        scenario = read_scenario(document)
        if not isinstance(scenario, GatewayScenario) and variant.rules.name not in VERSIONS:
            scenario = evolve(scenario, rules=variant.rules)
        return run_scenario(scenario)


def run_under(name: str, document: dict) -> dict:
    """The outcome of a scenario document under the rules named ``name``, overriding its own ``rules``.

    ``name`` is a rule version (``adr-166``, ``lab-001+next``) or a wrong
    variant (``wrong:first-wins-ties``); a wrong variant is applied on top of
    the version the document names. Raises KeyError for an unknown name and
    ValueError for rules of the other family (a gateway variant on a
    trust-ceiling scenario); ScenarioError for an invalid document.
    """
    if name not in decide_names():
        raise KeyError(name)
    if not is_for(name, document):
        raise ValueError(f"the rules {name} do not apply to this kind of scenario")
    if name in VERSIONS or name in GATEWAY_VERSIONS:
        with model_as_it_is():  # another thread's variant may have model functions swapped
            return run_scenario(read_scenario({**document, "rules": name}))
    return run_variant(DECIDABLE_VARIANTS[name], document)


def decided_under(name: str, document: dict) -> dict:
    """:func:`run_under`, the outcome saying which rules decided it: ``"rules": "wrong:first-wins-ties"``, not the version beneath.

    A harness serving a variant as a mutant keeps :func:`run_under`, whose
    outcome names the document's version as a faithful implementation would.
    """
    return {**run_under(name, document), "rules": name}
