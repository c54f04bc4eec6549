"""A forced set over a run's life: queued, dequeued, suspended, resumed (ADR-164 to ADR-179).

A run is queued with the forced uids as the codec stores them, resolved again
when it is dequeued (composition: enabled-only), persists the uids it is
running with when it suspends, and rebuilds them on resume from the live
records (existing: the text is already in the transcript). Which lookup each
path uses is read from the rule version's switches.
"""

from __future__ import annotations

from typing import Mapping

from attrs import frozen

from .lattice import CONCRETE
from .lookups import lookup_all_by_name, lookup_enabled, lookup_existing
from .records import Skill, Snippet, World, replaced
from .uids import read_queued_uids, read_suspended_uids
from .versions import ALL_BY_NAME, ENABLED, EXISTING, Rules

QUEUED, RUNNING, SUSPENDED, ENDED = "queued", "running", "suspended", "ended"
#: The keys a suspended state stores the forced uids under; a legacy row has neither.
SNIPPET_KEY, SKILL_KEY = "forced_snippet_uids", "forced_skill_uids"

LOOKUPS = {ENABLED: lookup_enabled, EXISTING: lookup_existing, ALL_BY_NAME: lookup_all_by_name}


@frozen
class ForcedSet:
    """The uids a path read and the records its lookups returned for them."""

    snippet_uids: tuple[int, ...]
    snippets: tuple[Snippet, ...]
    skill_uids: tuple[int, ...]
    skills: tuple[Skill, ...]
    snippet_lookup: str
    skill_lookup: str


NO_FORCED_SET = ForcedSet((), (), (), (), EXISTING, EXISTING)


@frozen
class Run:
    """One queued run: its stored payload, where it is in its life, and the forced uids it runs with."""

    configuration: str
    payload_snippets: object  # the stored uid lists and dry-run flag, raw, as the codec wrote them
    payload_skills: object
    payload_dry_run: object
    uid: int  # the run row's uid and user, for the audit record of a refusal
    be_user: object
    state: str = QUEUED
    ended: str | None = None  # why an ended run ended: "refused", "gone", "failed", "dry run"; None until it has
    forced: ForcedSet = NO_FORCED_SET  # what the run is running with
    suspended_state: Mapping | None = None  # the stored state, raw

    def moved(self, state: str, **changes) -> Run:
        return replaced(self, state=state, **changes)


#: The three paths a forced set is resolved on.
PLAYGROUND_SEND, DEQUEUE, RESUME = "playground send", "dequeue", "resume"


@frozen
class PathLookups:
    """The lookups one path resolves a forced set with, snippets first, then skills, and the rules that say so."""

    path: str
    snippets: str
    skills: str
    rules: tuple[str, ...]


def path_lookups(path: str, rules: Rules) -> PathLookups:
    """C175.2, C166.3, C175.3: which lookup each path resolves forced snippets and forced skills with, read from the version's switches.

    A prompt assembled now (playground send, dequeue) resolves snippets
    enabled-only and skills by the composition switch: before ADR-175 forced
    skills skipped their switch there, so a disabled skill survived where
    the identical snippet was dropped. A resume rebuilds text already in the
    transcript through its own pair. The proofs and the explanation read
    this, so neither can restate a path otherwise than the model runs it.
    """
    if path == PLAYGROUND_SEND:
        return PathLookups(path, ENABLED, rules.composition_skill_lookup, ("C175.2",))
    if path == DEQUEUE:
        return PathLookups(path, rules.dequeue_snippet_lookup, rules.composition_skill_lookup, ("C175.4", "C175.2"))
    return PathLookups(path, rules.resume_snippet_lookup, rules.resume_skill_lookup, ("C165.2", "C166.3", "C175.3"))


def resolve_on_path(world: World, snippet_uids, skill_uids, lookups: PathLookups) -> ForcedSet:
    """The forced set a path resolves from the uids it read, through its lookups."""
    snippets = LOOKUPS[lookups.snippets](world.snippet_index, snippet_uids)
    skills = LOOKUPS[lookups.skills](world.skill_index, skill_uids)
    return ForcedSet(tuple(snippet_uids), snippets, tuple(skill_uids), skills, lookups.snippets, lookups.skills)


def resolve_for_composition(world: World, snippet_uids, skill_uids, rules: Rules) -> ForcedSet:
    """C175.2: the playground send resolves the request's uids through its lookups (:func:`path_lookups`)."""
    return resolve_on_path(world, snippet_uids, skill_uids, path_lookups(PLAYGROUND_SEND, rules))


def is_dry_run(raw: object) -> bool:
    """C175.5: a stored payload asks for a dry run only with a strict JSON ``true``."""
    return raw is True


def fails_on_dequeue(run: Run, rules: Rules) -> bool:
    """C175.5 under ``nr-llm``: a run row naming a negative user fails when it is dequeued, before anything is composed.

    The code rebuilds the payload's tool options with the row's user, and the
    options refuse a user below 0; the queue marks the run failed. Only an
    integer within PHP's range is a user there: past it the row holds none.
    """
    user = run.be_user
    return rules.negative_user_fails_dequeue and type(user) is int and -(2**63) <= user < 0


def resolve_on_dequeue(world: World, run: Run, rules: Rules) -> ForcedSet:
    """C175.4, C175.5: a dequeue is the run's composition: the payload's uids by the queued rule, then the dequeue's lookups."""
    decoded = rules.queued_numbers_decoded
    snippet_uids, skill_uids = read_queued_uids(run.payload_snippets, decoded), read_queued_uids(run.payload_skills, decoded)
    return resolve_on_path(world, snippet_uids, skill_uids, path_lookups(DEQUEUE, rules))


def is_stored_on_suspend(requested, resolved, ops=CONCRETE):
    """C165.1: a requested uid is stored at a suspend exactly when its record resolved: the run runs with it.

    Written with ``ops`` so the lifecycle proofs store uids by this very rule.
    """
    return ops.And(requested, resolved)


def _stored_uids(requested: tuple[int, ...], resolved, lookup: str) -> list[int]:
    if lookup == ALL_BY_NAME:
        # Resumed through the name-ordered lookup: the run runs with each record once, in name order.
        return [record.uid for record in resolved]
    # The other lookups filter uid by uid in the caller's order, so a requested
    # uid resolved exactly when its record is among those returned.
    resolved_uids = {record.uid for record in resolved}
    return [uid for uid in requested if is_stored_on_suspend(True, uid in resolved_uids)]


def suspended_state(forced: ForcedSet, rules: Rules) -> dict:
    """C165.1: a suspend stores the uids of the forced records the run is running with; before ADR-165, nothing.

    A state without the keys is what a row written before ADR-165 looks like,
    and it resumes with no forced set (C165.5).
    """
    if not rules.regates_on_resume:
        return {}
    return {
        SNIPPET_KEY: _stored_uids(forced.snippet_uids, forced.snippets, forced.snippet_lookup),
        SKILL_KEY: _stored_uids(forced.skill_uids, forced.skills, forced.skill_lookup),
    }


def resolve_on_resume(world: World, state: object, rules: Rules) -> ForcedSet:
    """C175.3, C166.3, C165.3: a resume rebuilds the forced set from the stored uids against the live records.

    From ADR-175 both kinds use the existence lookup in the caller's order, so
    a switched-off source keeps its class and a tie names the same source as
    before the suspension; a deleted one resolves to nothing. Before ADR-165
    nothing was stored, so a resume re-gated the configuration alone (C164.7).
    """
    if not rules.regates_on_resume or not isinstance(state, Mapping):
        return NO_FORCED_SET
    object_values = rules.suspended_object_values
    snippet_uids = read_suspended_uids(state.get(SNIPPET_KEY), object_values)
    skill_uids = read_suspended_uids(state.get(SKILL_KEY), object_values)
    return resolve_on_path(world, snippet_uids, skill_uids, path_lookups(RESUME, rules))


def takes_configuration_only_path(forced: ForcedSet) -> bool:
    """C165.5: when both rebuilt lists are empty the resume hands the gate no forced set at all."""
    return not forced.snippets and not forced.skills
