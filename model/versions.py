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
    #: C144.7: a skill the configuration's relation holds twice is listed once (the code's ObjectStorage).
    attached_skills_once: bool = False
    #: C164.6: a playground uid beyond PHP's integer range that JSON carries as a number wraps modulo 2**64.
    request_numbers_wrap: bool = False
    #: C144.15: the audit names the caller's user uid (the code reads a metadata key nothing writes: 0).
    audits_caller_user: bool = True
    #: C165.2: a stored uid list written as a JSON object is read by its values (the code's PHP array).
    suspended_object_values: bool = False
    #: C175.4: a queued integer beyond PHP's integer range is a float after json_decode, which the queue's reading drops unrecorded.
    queued_numbers_decoded: bool = False
    #: C175.5: a dequeue whose run row names a negative user fails the run (the code's tool options refuse the user).
    negative_user_fails_dequeue: bool = False


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
# nr-llm: the code as it stands where it decides otherwise than the ADR text (adr/versions.md).
NR_LLM = evolve(
    ADR_179,
    name="nr-llm",
    # The playground controller builds its augmentation without the dropped list.
    playground_records_dropped=False,
    # LlmConfiguration::$skills is an ObjectStorage: the data mapper's one object per uid is held once.
    attached_skills_once=True,
    # The request body is decoded by json_decode, so such a uid is a float, and (int) of a float wraps.
    request_numbers_wrap=True,
    # LlmServiceManager reads the metadata key beUser; the user travels as beUserUid.
    audits_caller_user=False,
    # json_decode(..., true) makes an object a PHP array, whose values SuspendedRunState::uidsFrom reads.
    suspended_object_values=True,
    # AgentRunRequestCodec decodes the payload with json_decode: an integer past 2**63 - 1 is a float, not an int.
    queued_numbers_decoded=True,
    # AgentRunRequestCodec::rehydrate builds the payload's ToolOptions with the row's user, which refuses one below 0.
    negative_user_fails_dequeue=True,
)

LATEST = ADR_179

#: Every version in the order the ADRs were written, then the code's profile.
VERSIONS: dict[str, Rules] = {r.name: r for r in (PRE_164, ADR_164, ADR_165, ADR_166, ADR_175, ADR_179, NR_LLM)}

#: The ADR versions in order; each one's predecessor is the one before it.
ADR_SEQUENCE: tuple[str, ...] = ("pre-164", "adr-164", "adr-165", "adr-166", "adr-175", "adr-179")

DEFAULT_VERSION = LATEST.name


def rules_named(name: str) -> Rules:
    return VERSIONS[name]
