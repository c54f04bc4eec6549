"""The rule versions a scenario may select, each a small difference from its predecessor.

Each version is its predecessor with the switches its ADR changed, and each
switch says which ADR changed it and why. ``adr-179`` is the latest ADR text
and the default; ``nr-llm`` is the code as it stands where it departs from
that text. ``adr/versions.md`` states every difference in prose.
"""

from __future__ import annotations

from attrs import evolve, frozen

#: The uid lookups a path may use (see ``gateproof.model.lookups``).
ENABLED, EXISTING, ALL_BY_NAME = "enabled", "existing", "all by name"


@frozen
class Rules:
    """The switches by which one rule version differs from another."""

    name: str
    #: C164.1: a run's forced sources are folded with the configuration's own.
    gates_forced_sources: bool
    #: C165.1: a suspend persists the forced uids, so a resume can re-gate them.
    regates_on_resume: bool
    #: C166.3: the lookup a resume rebuilds forced snippets with.
    resume_snippet_lookup: str
    #: C175.3: the lookup a resume rebuilds forced skills with.
    resume_skill_lookup: str
    #: C175.2: the lookup the composition paths (playground, dequeue) resolve forced skills with.
    composition_skill_lookup: str
    #: C179.1: a dequeue records the forced sources that did not arrive.
    records_dropped: bool
    #: C179.2: the playground send records them too.
    playground_records_dropped: bool


PRE_164 = Rules(
    "pre-164",
    # The gate folded classify(): a forced set was shown in the readout, never gated.
    gates_forced_sources=False,
    # The suspended state held no forced uids, so a resume had nothing to re-gate.
    regates_on_resume=False,
    resume_snippet_lookup=ENABLED,
    resume_skill_lookup=ALL_BY_NAME,
    # Snippets were always resolved active-only; skills ignored their switch.
    composition_skill_lookup=EXISTING,
    records_dropped=False,
    playground_records_dropped=False,
)
# ADR-164: the forced set binds against the same ceiling at composition.
ADR_164 = evolve(PRE_164, name="adr-164", gates_forced_sources=True)
# ADR-165: the forced uids are persisted at suspend and the resume re-gates them,
# snippets through the active-only lookup, skills through every record sorted by name.
ADR_165 = evolve(ADR_164, name="adr-165", regates_on_resume=True)
# ADR-166: a snippet switched off while suspended keeps its class: its text is in the transcript.
ADR_166 = evolve(ADR_165, name="adr-166", resume_snippet_lookup=EXISTING)
# ADR-175: skills get the snippet pair: enabled-only to compose, existing on resume, caller's order.
ADR_175 = evolve(ADR_166, name="adr-175", composition_skill_lookup=ENABLED, resume_skill_lookup=EXISTING)
# ADR-179: a forced source that did not arrive is recorded on the run, on both composition paths.
ADR_179 = evolve(ADR_175, name="adr-179", records_dropped=True, playground_records_dropped=True)
# nr-llm: the playground controller builds its augmentation without the dropped list.
NR_LLM = evolve(ADR_179, name="nr-llm", playground_records_dropped=False)

LATEST = ADR_179

#: Every version in the order the ADRs were written, then the code's profile.
VERSIONS: dict[str, Rules] = {r.name: r for r in (PRE_164, ADR_164, ADR_165, ADR_166, ADR_175, ADR_179, NR_LLM)}

#: The ADR versions in order; each one's predecessor is the one before it.
ADR_SEQUENCE: tuple[str, ...] = ("pre-164", "adr-164", "adr-165", "adr-166", "adr-175", "adr-179")

DEFAULT_VERSION = LATEST.name


def rules_named(name: str) -> Rules:
    return VERSIONS[name]
