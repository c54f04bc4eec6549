"""Deciding a scenario document under any rules the proofs know, right or deliberately wrong.

:func:`run_under` is the one way in: ``gateproof decide --rules`` uses it to
replay a counterexample, and a conformance harness can use it to serve each
wrong variant as a mutant implementation of the rules.
"""

from __future__ import annotations

from attrs import evolve

from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.gateway.scenario import GatewayScenario
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.versions import VERSIONS

from .domains import Domain
from .send import Semantics, model_as_it_is, semantics_of
from .wrong_catalogs import WRONG_CATALOG_GATEWAYS
from .wrong_gateways import WRONG_GATEWAYS, WRONG_RECORDS
from .wrong_rules import UNDONE_ADRS, WRONG_RULES

#: The variants the proofs refute; each is some invariant's teeth.
WRONG_VARIANTS: dict[str, Semantics] = {**WRONG_RULES, **WRONG_GATEWAYS, **WRONG_CATALOG_GATEWAYS}
#: Every variant a scenario can be decided under, those no invariant is about besides.
DECIDABLE_VARIANTS: dict[str, Semantics] = {**WRONG_VARIANTS, **WRONG_RECORDS, **UNDONE_ADRS}


def semantics_named(name: str) -> Semantics:
    """A model version of ``gateproof.model.versions`` or a ``wrong:`` variant; KeyError for anything else."""
    if name in VERSIONS:
        return semantics_of(VERSIONS[name])
    return WRONG_VARIANTS[name]


def rule_names() -> list[str]:
    """What ``prove --rules`` accepts: the rule versions and every wrong variant."""
    return [*VERSIONS, *WRONG_VARIANTS]


def decide_names() -> list[str]:
    """What ``decide --rules`` accepts: the gateway's versions and the wrong records besides."""
    return [*VERSIONS, *GATEWAY_VERSIONS, *DECIDABLE_VARIANTS]


def is_for(name: str, document: dict) -> bool:
    """Whether rules of that name apply to the document's kind (trust ceiling or gateway)."""
    gateway = document.get("kind") == "gateway"
    if name in GATEWAY_VERSIONS or name in WRONG_GATEWAYS or name in WRONG_CATALOG_GATEWAYS or name in WRONG_RECORDS:
        return gateway
    return not gateway


def run_semantics(semantics: Semantics, document: dict) -> dict:
    """The outcome document of ``document`` under ``semantics``.

    A gateway variant decides through its runner; a variant of other
    switches runs the model with them in place of the document's version;
    a variant of model functions runs the model with them swapped in for
    the call only (:meth:`Semantics.in_force`).
    """
    if semantics.runner is not None:
        return semantics.runner(document)
    with semantics.in_force():
        scenario = read_scenario(document)
        if not isinstance(scenario, GatewayScenario) and semantics.rules.name not in VERSIONS:
            scenario = evolve(scenario, rules=semantics.rules)
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
    return run_semantics(DECIDABLE_VARIANTS[name], document)


def decided_under(name: str, document: dict) -> dict:
    """:func:`run_under`, the outcome saying which rules decided it: ``"rules": "wrong:first-wins-ties"``, not the version beneath.

    A harness serving a variant as a mutant keeps :func:`run_under`, whose
    outcome names the document's version as a faithful implementation would.
    """
    return {**run_under(name, document), "rules": name}


def replay(domain: Domain, documents: list[tuple[dict, list[int]]], semantics: Semantics) -> tuple[list[dict], list]:
    """Run the documents under ``semantics``: the outcomes, and every subject's verdicts in subject order, flattened."""
    outcomes, by_subject = [], {}
    for document, held in documents:
        outcome = run_semantics(semantics, document)
        outcomes.append(outcome)
        by_subject.update(zip(held, domain.verdicts_of(outcome)))
    return outcomes, [verdict for index in sorted(by_subject) for verdict in by_subject[index]]


def decoded_counterexample(domain: Domain, title: str, claim: str, semantics: Semantics, subjects: tuple) -> list[tuple[dict, dict]]:
    """The counterexample's scenario documents, each with its outcome under ``semantics``."""
    documents = domain.documents(title, claim, semantics, subjects)
    outcomes, _ = replay(domain, documents, semantics)
    return [(document, {**outcome, "rules": semantics.name}) for (document, _), outcome in zip(documents, outcomes)]
