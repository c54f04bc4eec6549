"""The rule versions a scenario may select, each declared once: its switches and what its ADR says of it.

Each version is its predecessor with the switches its ADR changed. Its
:class:`Version` declaration is the one place that names it: the ADR and its
title, the predecessor's defect it closes, the consequences ``gateproof
diff`` attributes a difference to, the claims it makes and the versions they
hold over, and its example scenario. The scenario schema's enum and default,
``rules --versions``, diff's order, ``adr/versions.md``'s table and the
corpus's version stories are derived from :data:`DECLARATIONS`. ``nr-llm``
is a profile: the code as it stands where it departs from the latest ADR
text it was written against.
"""

from __future__ import annotations

from typing import Iterator, Mapping

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
    #: C175.2: the lookup a dequeue resolves forced snippets with (the playground send's is always enabled-only).
    dequeue_snippet_lookup: str = ENABLED
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


@frozen
class Consequence:
    """A difference a version's ADR documents: at these step ops, in these result keys (None: any key)."""

    ops: frozenset
    keys: frozenset | None
    text: str

    def covers(self, op: str, keys) -> bool:
        return op in self.ops and (self.keys is None or set(keys) <= self.keys)


@frozen
class ClaimSpan:
    """A consequence claim a version's ADR makes, how it is checked, and the versions it is documented to hold over, both ends included.

    ``check`` names what ``gateproof diff`` compares (one of
    ``gateproof.conformance.diff.claims.CHECKS``), ``stories`` the kinds of
    story the claim is about (``claims.STORIES``), so a claim of a known shape
    is declared here alone. ``holds_until`` None: every later ADR version. A
    claim about one pair of versions ends where a later ADR documents changing
    what it speaks of, so it does not break every later pair.
    """

    id: str
    statement: str
    check: str
    holds_from: str
    holds_until: str | None = None
    stories: tuple[str, ...] = ()


@frozen
class Version:
    """One rule version, declared once."""

    rules: Rules
    adr: str  # "ADR-179", or what the version stands for when no ADR made it
    title: str  # what changed from its predecessor, as ``rules --versions`` and adr/versions.md say it
    closes: str = ""  # the predecessor's defect it closes, as its ADR names it
    consequences: tuple[Consequence, ...] = ()
    claims: tuple[ClaimSpan, ...] = ()
    example: str | None = None  # a scenario in examples/ that shows the change
    example_rules: tuple[str, ...] = ()  # the rule ids the example pins
    profile_of: str | None = None  # a profile of the code: the ADR version it departs from

    @property
    def name(self) -> str:
        return self.rules.name


def _on(ops: str, text: str, keys: str | None = None) -> Consequence:
    return Consequence(frozenset(ops.split()), None if keys is None else frozenset(keys.split()), text)


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

def _then(previous: Version, name: str, adr: str, title: str, changes: dict, **declared) -> Version:
    """The version ``name``: ``previous`` with the switches its ADR changed."""
    return Version(evolve(previous.rules, name=name, **changes), adr, title, **declared)


_PRE_164 = Version(
    PRE_164, "before ADR-164",
    "the starting point: the gate folds the configuration alone; forced skills ignore their switch on the composition paths; "
    "a suspend stores no forced uids",
)
_ADR_164 = _then(
    _PRE_164, "adr-164", "ADR-164",
    "a run's forced sources bind against the same ceiling at composition (C164.1); a resume is still judged on the configuration "
    "alone (C164.7)",
    {"gates_forced_sources": True},
    closes="a forced source is shown in the readout but never gated, so a run can force text past the ceiling",
    consequences=(_on("send dequeue resume", "ADR-164: a run's forced sources bind against the same ceiling as the configuration's own"),),
    claims=(ClaimSpan("claim.164.unclassified", "an installation that has classified nothing is unaffected", "same decisions", "pre-164",
                      stories=("unclassified",)),),
    example="adr-164-queued-run-binds.json", example_rules=("C164.1", "C175.5"),
)
_ADR_165 = _then(
    _ADR_164, "adr-165", "ADR-165",
    "a suspend persists the forced uids and a resume re-gates them against the live records, zone and switch (C165.1, C165.3); "
    "snippets are rebuilt enabled-only, skills by filtering every skill, in name order (C165.6)",
    {"regates_on_resume": True},
    closes="a resume is judged on the configuration alone, so a forced source escapes the gate after a suspension",
    consequences=(
        _on("suspend", "ADR-165: a suspend persists the forced uids the run is running with", "state"),
        _on("resume", "ADR-165: a resume re-gates the persisted forced set against the live records, zone and switch"),
    ),
    example="adr-165-resume-regates.json", example_rules=("C165.1", "C165.3"),
)
_ADR_166 = _then(
    _ADR_165, "adr-166", "ADR-166",
    "a resume rebuilds snippets through the existing lookup, so one switched off while the run waited keeps its class (C166.3)",
    {"resume_snippet_lookup": EXISTING},
    closes="switching a forced snippet off while its run is suspended removes it from the re-gate, so the resumed send can pass a "
           "ceiling its text exceeds",
    consequences=(_on("resume", "ADR-166: a snippet switched off while the run waited keeps its class on resume"),),
    example="adr-166-deactivation-keeps-the-class.json", example_rules=("C166.3",),
)
_ADR_175 = _then(
    _ADR_166, "adr-175", "ADR-175",
    "forced skills get the snippet pair: enabled-only on both composition paths (C175.2), existing on resume, in the caller's order "
    "(C175.3)",
    {"composition_skill_lookup": ENABLED, "resume_skill_lookup": EXISTING},
    closes="a forced skill disabled between enqueue and start still enters the run while the identical snippet is dropped, and a "
           "resume orders forced skills by name, so a tie between two equally classified skills names one before the suspension "
           "and the other after it",
    consequences=(
        _on("send readout dequeue", "ADR-175: a disabled forced skill no longer enters a prompt composed now"),
        _on("resume", "ADR-175: a resume rebuilds forced skills as the caller listed them (order and duplicates), so a tie names the "
                      "same source"),
    ),
    claims=(
        ClaimSpan("claim.175.forces-nothing", "a run that forces nothing gets exactly the pre-164 answer", "decisions of pre-164",
                  "pre-164", stories=("forcing nothing",)),
        ClaimSpan("claim.175.same-name", "the name a refusal gives is the same before and after a suspension",
                  "same source across a suspension", "adr-175", stories=("unchanged", "tied", "observed")),
    ),
    example="adr-175-tie-names-one-source.json", example_rules=("C175.3",),
)
_ADR_179 = _then(
    _ADR_175, "adr-179", "ADR-179",
    "a forced source that did not arrive is recorded on the run, on the dequeue and on the playground send (C179.1, C179.2)",
    {"records_dropped": True, "playground_records_dropped": True},
    closes="a forced source that falls out before a run starts does so silently",
    consequences=(_on("send dequeue", "ADR-179: a forced source that did not arrive is recorded on the run", "dropped"),),
    claims=(ClaimSpan("claim.179.same-sources", "which sources enter a run does not change, only what is said about it",
                      "same results but the dropped record", "adr-175", "adr-179"),),
    example="adr-179-dropped-sources-recorded.json", example_rules=("C179.1", "C179.2"),
)
_NR_LLM = _then(
    _ADR_179, "nr-llm", "the nr-llm code",
    "adr-179 as the nr-llm code stands (adr/versions.md, The nr-llm profile): the playground send records no dropped sources",
    {
        # The playground controller builds its augmentation without the dropped list.
        "playground_records_dropped": False,
        # LlmConfiguration::$skills is an ObjectStorage: the data mapper's one object per uid is held once.
        "attached_skills_once": True,
        # The request body is decoded by json_decode, so such a uid is a float, and (int) of a float wraps.
        "request_numbers_wrap": True,
        # LlmServiceManager reads the metadata key beUser; the user travels as beUserUid.
        "audits_caller_user": False,
        # json_decode(..., true) makes an object a PHP array, whose values SuspendedRunState::uidsFrom reads.
        "suspended_object_values": True,
        # AgentRunRequestCodec decodes the payload with json_decode: an integer past 2**63 - 1 is a float, not an int.
        "queued_numbers_decoded": True,
        # AgentRunRequestCodec::rehydrate builds the payload's ToolOptions with the row's user, which refuses one below 0.
        "negative_user_fails_dequeue": True,
    },
    consequences=(
        _on("send", "nr-llm appendix: the playground send records no dropped sources", "dropped"),
        _on("dequeue", "nr-llm appendix: a queued run whose row names a user below 0 fails at its dequeue (C175.5)"),
    ),
    profile_of="adr-179",
)

#: Every version, in the order the ADRs were written, then the code's profile. The last ADR version is the default.
DECLARATIONS: tuple[Version, ...] = (_PRE_164, _ADR_164, _ADR_165, _ADR_166, _ADR_175, _ADR_179, _NR_LLM)


def declarations() -> tuple[Version, ...]:
    """Every declared version, as :data:`DECLARATIONS` stands when asked (a version declared in memory by a test included)."""
    return DECLARATIONS


def adr_versions() -> tuple[Version, ...]:
    """The ADR versions in order, each one's predecessor the one before it: every declaration that is no profile."""
    return tuple(d for d in DECLARATIONS if d.profile_of is None)


def latest() -> Version:
    """The latest ADR version: the default of a scenario that names none."""
    return adr_versions()[-1]


def default_version() -> str:
    return latest().name


def declared(name: str) -> Version:
    """The declaration of the version named ``name``; KeyError for an unknown one."""
    for declaration in DECLARATIONS:
        if declaration.name == name:
            return declaration
    raise KeyError(name)


def predecessor(name: str) -> Version | None:
    """The version ``name`` differs from: the ADR version before it, or the one a profile departs from."""
    declaration = declared(name)
    if declaration.profile_of is not None:
        return declared(declaration.profile_of)
    sequence = [d.name for d in adr_versions()]
    position = sequence.index(name)
    return declared(sequence[position - 1]) if position else None


class _Declared(Mapping):
    """Every declared version's rules by name, read from :data:`DECLARATIONS` as it stands (a version added to it is found)."""

    def __getitem__(self, name: str) -> Rules:
        return declared(name).rules

    def __iter__(self) -> Iterator[str]:
        return iter([d.name for d in DECLARATIONS])

    def __len__(self) -> int:
        return len(DECLARATIONS)


#: Every version's rules by name, in declaration order.
VERSIONS: Mapping[str, Rules] = _Declared()

#: The shipped versions, for the code that names one of them on purpose.
LATEST = latest().rules
ADR_SEQUENCE: tuple[str, ...] = tuple(d.name for d in adr_versions())
DEFAULT_VERSION = LATEST.name


def rules_named(name: str) -> Rules:
    return VERSIONS[name]
