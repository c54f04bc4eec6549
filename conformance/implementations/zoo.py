"""The mutant zoo: one implementation per documented defect or plausible bug, each of which verify must catch.

A mutant claims the latest rules of its kind and decides every scenario
with one variant of them (``gateproof.conformance.implementations.wrong.decide.run_under``):
the latest rules with one ADR's change undone for the defects the ADRs
document, a deliberately wrong variant for the plausible bugs. ``gateproof verify --builtin mutant:NAME``
serves it through ``python -m gateproof.conformance.implementations.mutant NAME``.
"""

from __future__ import annotations

from attrs import frozen


@frozen
class Mutant:
    variant: str  # what run_under decides with: a rule version or a wrong: variant
    description: str
    kind: str  # ceiling or gateway


ZOO: dict[str, Mutant] = {
    "forced-ungated": Mutant("wrong:forced-ungated", "the gate folds the configuration alone: a run's forced sources are never gated (pre-164)", "ceiling"),
    "resume-ungated": Mutant("wrong:resume-ungated", "a resume is judged on the configuration alone, its forced sources not re-gated (ADR-164's defect)", "ceiling"),
    "resume-enabled-only": Mutant(
        "wrong:resume-snippets-enabled-only", "a resume rebuilds forced snippets enabled-only, so one switched off while suspended escapes the re-gate (ADR-165's defect)",
        "ceiling",
    ),
    "skills-unfiltered": Mutant(
        "wrong:skills-unfiltered", "forced skills are not filtered by their switch at composition, and a resume orders them by name (ADR-166's defect)",
        "ceiling",
    ),
    "first-wins-ties": Mutant("wrong:first-wins-ties", "on a tie between equally strict sources the first stays named", "ceiling"),
    "undeclared-as-public": Mutant("wrong:undeclared-as-public", "an undeclared source is read as publicContent", "ceiling"),
    "observe-blocks": Mutant("wrong:observe-withholds", "observe mode withholds a refused send as enforce does", "ceiling"),
    "fallback-ignored": Mutant("wrong:fallback-ignored", "the fallback chain is ignored: only the primary model's zone is held to the ceiling", "ceiling"),
    "unsafe-gateway": Mutant("wrong:unsafe-gateway", "the unsafe baseline: takes the proposal's word for destination, tenant and role", "gateway"),
    "forged-authority": Mutant("wrong:trusts-forged-authority", "an approved_by field in the proposal is taken as the support role", "gateway"),
    "logs-case-content": Mutant("wrong:logs-case-content", "the audit record names the case with its content, so case text reaches the log", "gateway"),
}
