"""Whether two rule versions decide alike, proved over the proofs' subjects or refuted by a smallest one.

The subjects are the gate over any ``bound`` resolved sources and
fallbacks, any playground send of a configuration's sources and up to
``bound`` forced records of each kind (resolved by the playground's
lookups), and any run story (queued, dequeued, suspended, resumed) with at
most ``bound`` records of each kind. Both
versions judge the same symbolic subject; "alike" is the catalog's own
:func:`same_decision`: the declared class, the named source, the decision
and whether the send goes out. What the abstraction leaves out (the record
of dropped sources, message and audit text) is for ``gateproof diff``'s
search to show.
"""

from __future__ import annotations

import time
from typing import Callable, Iterator

import z3
from attrs import frozen

from gateproof.model.symbolic import Z3

from .catalog import same_decision
from .domains import PLAYGROUND_SENDS, RUN_STORIES, SENDS, Domain
from .engine import COUNTEREXAMPLE, DEFAULT_TIMEOUT_SECONDS, PROVED, UNKNOWN, concrete_subject, new_solver
from .replay import semantics_named
from .run_story import fresh_story
from .send import Semantics, fresh_send


@frozen
class Subjects:
    domain: Domain
    fresh: Callable  # (name, bound) -> one symbolic subject
    description: str  # what "every subject up to the bound" means, for a person


SUBJECTS = (
    Subjects(SENDS, fresh_send, "every gate over at most {bound} resolved sources and {bound} fallbacks"),
    Subjects(PLAYGROUND_SENDS, fresh_story,
             "every playground send with at most {bound} configuration sources and {bound} forced records of each kind"),
    Subjects(RUN_STORIES, fresh_story, "every run story with at most {bound} configuration sources and {bound} forced records of each kind"),
)


@frozen
class Comparison:
    """Two versions on one kind of subject: proved alike, a subject where they part, or unknown."""

    subjects: Subjects
    left: str
    right: str
    bound: int
    outcome: str  # PROVED, COUNTEREXAMPLE or UNKNOWN
    seconds: float
    documents: tuple[dict, ...] = ()  # a counterexample as scenario documents under ``left``'s rules
    reason: str = ""

    @property
    def scope(self) -> str:
        return self.subjects.description.format(bound=self.bound)


def decide_alike(left: Semantics, right: Semantics, subjects: Subjects, bound: int, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> Comparison:
    """Prove that ``left`` and ``right`` reach the same decision on every subject up to ``bound``, or find one where they do not."""
    started = time.perf_counter()
    domain = subjects.domain
    subject = subjects.fresh("subject", bound)
    solver = new_solver(timeout_seconds)
    solver.add(*domain.well_formed(subject))
    pairs = zip(domain.judge(left, subject, Z3), domain.judge(right, subject, Z3))
    solver.add(z3.Not(z3.And(*(same_decision(ours, theirs, Z3) for ours, theirs in pairs))))
    answer = solver.check()
    documents: tuple[dict, ...] = ()
    if answer == z3.sat:
        found = concrete_subject(solver.model(), subject)
        claim = f"{left.name} and {right.name} decide this {domain.name} differently"
        documents = tuple(document for document, _ in domain.documents(f"{left.name}-vs-{right.name}", claim, left, (found,)))
    outcome = PROVED if answer == z3.unsat else COUNTEREXAMPLE if answer == z3.sat else UNKNOWN
    reason = solver.reason_unknown() if answer == z3.unknown else ""
    return Comparison(subjects, left.name, right.name, bound, outcome, time.perf_counter() - started, documents, reason)


def smallest_parting(left: Semantics, right: Semantics, subjects: Subjects, bound: int, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> Comparison:
    """:func:`decide_alike` at ``bound``; where the versions part, the comparison at the smallest bound where they already do.

    The solver returns any subject that parts the versions, not a small one;
    a bound of one or two sources or records usually suffices and reads far
    more easily, and each smaller bound costs a fraction of a second.
    """
    comparison = decide_alike(left, right, subjects, bound, timeout_seconds)
    if comparison.outcome != COUNTEREXAMPLE:
        return comparison
    for smaller in range(1, bound):
        found = decide_alike(left, right, subjects, smaller, timeout_seconds)
        if found.outcome == COUNTEREXAMPLE:
            return found
    return comparison


def each_comparison(left: str, right: str, bound: int, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> Iterator[Comparison]:
    """Both kinds of subject, for two rule versions of the model, each as soon as it is proved or refuted."""
    ours, theirs = semantics_named(left), semantics_named(right)
    for subjects in SUBJECTS:
        yield smallest_parting(ours, theirs, subjects, bound, timeout_seconds)


def compare_versions(left: str, right: str, bound: int, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> list[Comparison]:
    """Every comparison of :func:`each_comparison`."""
    return list(each_comparison(left, right, bound, timeout_seconds))
