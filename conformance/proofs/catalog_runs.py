"""The invariants of a run's life: what a suspension and a resume may and may not change.

Each claim reads the verdicts of the composed (dequeued) and the resumed
send of one or two run stories (``run_story``), in story order.
"""

from __future__ import annotations

import z3
from attrs import evolve

from gateproof.model.lattice import NO_SOURCE, UNDECLARED, UNDECLARED_KIND

from .catalog import invariant
from .domains import RUN_STORIES
from .run_story import fresh_story


def with_unchanged_records(bound: int):
    """A run suspended and resumed while no record changes."""
    story = fresh_story("a", bound)
    facts = [
        z3.And(on_resume == on_start, z3.Not(deleted))
        for records in (story.snippets, story.skills)
        for on_start, on_resume, deleted in zip(records.on_at_start, records.on_at_resume, records.deleted_at_resume)
    ]
    return (story,), facts


def with_more_switched_off(bound: int):
    """A run story, and the same story with further forced records switched off between the suspend and the resume."""
    first = fresh_story("a", bound)
    other = fresh_story("b", bound)
    second = evolve(
        first,
        snippets=evolve(first.snippets, on_at_resume=other.snippets.on_at_resume),
        skills=evolve(first.skills, on_at_resume=other.skills.on_at_resume),
    )
    facts = [
        z3.Implies(after, before)
        for kind in ("snippets", "skills")
        for before, after in zip(getattr(first, kind).on_at_resume, getattr(second, kind).on_at_resume)
    ]
    return (first, second), facts


def with_nothing_classified(bound: int):
    """Any run story on an installation whose records declare no class."""
    story = fresh_story("a", bound)
    ranks = (*story.configuration_ranks, *story.snippets.ranks, *story.skills.ranks)
    return (story,), [rank == UNDECLARED for rank in ranks]


@invariant(
    "I011",
    with_unchanged_records,
    ("C165.1", "C166.3", "C175.2", "C175.3", "C144.9"),
    ("wrong:suspend-stores-requested-uids",),
    departs_in=("adr-164", "adr-165", "adr-166"),
    domain=RUN_STORIES,
)
def resume_with_unchanged_records_names_the_same_source(stories, verdicts, ops):
    """A run resumed with every record as it was when it started declares the same class and names the same source as its first send."""
    composed, resumed = verdicts
    return ops.And(resumed.declared == composed.declared, resumed.source == composed.source)


@invariant(
    "I012",
    with_more_switched_off,
    ("C166.2", "C166.3", "C175.3", "C144.9"),
    ("wrong:resume-enabled-only",),
    departs_in=("adr-165",),
    domain=RUN_STORIES,
)
def switching_forced_sources_off_never_lowers_the_resumed_class(stories, verdicts, ops):
    """Switching forced sources off while a run is suspended never lowers the class its resume declares."""
    _, resumed, _, resumed_with_fewer_on = verdicts
    return resumed_with_fewer_on.declared >= resumed.declared


@invariant(
    "I013",
    with_nothing_classified,
    ("C144.2", "C144.10", "C144.11", "C164.1", "C165.3"),
    ("wrong:undeclared-permitted", "wrong:undeclared-as-public"),
    domain=RUN_STORIES,
)
def nothing_classified_is_decided_alike_by_every_version(stories, verdicts, ops):
    """On an installation that has classified nothing, every send and resume of a run is undeclared, names no source and goes out, so every rule version decides it alike."""
    return ops.And(True, *(
        ops.And(verdict.kind == UNDECLARED_KIND, verdict.source == NO_SOURCE, verdict.sent) for verdict in verdicts
    ))
