"""The rules the proofs know, right or deliberately wrong, and a counterexample replayed under them.

Deciding a document under a variant is the variant's own
(``gateproof.conformance.implementations.wrong.decide``); here each
counterexample's documents are decided so that its verdicts can be
checked against the claim the proof refuted.
"""

from __future__ import annotations

from gateproof.model.versions import VERSIONS

from ..implementations.wrong.decide import run_variant
from .domains import Domain
from .send import Semantics, semantics_of
from .wrong import WRONG_VARIANTS


def semantics_named(name: str) -> Semantics:
    """A model version of ``gateproof.model.versions`` or a ``wrong:`` variant; KeyError for anything else."""
    if name in VERSIONS:
        return semantics_of(VERSIONS[name])
    return WRONG_VARIANTS[name]


def rule_names() -> list[str]:
    """What ``prove --rules`` accepts: the rule versions and every wrong variant."""
    return [*VERSIONS, *WRONG_VARIANTS]


def replay(domain: Domain, documents: list[tuple[dict, list[int]]], semantics: Semantics) -> tuple[list[dict], list]:
    """Run the documents under ``semantics``: the outcomes, and every subject's verdicts in subject order, flattened."""
    outcomes, by_subject = [], {}
    for document, held in documents:
        outcome = run_variant(semantics, document)
        outcomes.append(outcome)
        by_subject.update(zip(held, domain.verdicts_of(outcome)))
    return outcomes, [verdict for index in sorted(by_subject) for verdict in by_subject[index]]


def decoded_counterexample(domain: Domain, title: str, claim: str, semantics: Semantics, subjects: tuple) -> list[tuple[dict, dict]]:
    """The counterexample's scenario documents, each with its outcome under ``semantics``."""
    documents = domain.documents(title, claim, semantics, subjects)
    outcomes, _ = replay(domain, documents, semantics)
    return [(document, {**outcome, "rules": semantics.name}) for (document, _), outcome in zip(documents, outcomes)]
