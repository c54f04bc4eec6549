"""Running the catalog through z3: each invariant proved, refuted with a counterexample, or unknown."""

from __future__ import annotations

import re
import time

import attrs
import z3
from attrs import frozen

from gateproof.model.lattice import CONCRETE
from gateproof.model.symbolic import Z3

from .catalog import CATALOG, Invariant
from .replay import rule_names, semantics_named
from .send import Semantics

PROVED, COUNTEREXAMPLE, UNKNOWN = "proved", "counterexample", "unknown"
DEFAULT_TIMEOUT_SECONDS = 30.0

__all__ = ["COUNTEREXAMPLE", "PROVED", "UNKNOWN", "prove", "prove_catalog", "rule_names", "semantics_named"]


def is_expected_to_hold(invariant: Invariant, semantics: Semantics) -> bool:
    """Every invariant is expected of every rule version but the departures a model version is known for.

    A wrong variant is expected to satisfy nothing less: it is wrong, and its
    counterexamples are what make the proofs worth having.
    """
    return semantics.name not in invariant.departs_in


@frozen
class Counterexample:
    """The subjects (sends, run stories or calls) the solver found, and the verdicts it predicts the rules give them."""

    subjects: tuple
    verdicts: tuple


@frozen
class Result:
    invariant: Invariant
    rules: str
    bound: int
    outcome: str  # PROVED, COUNTEREXAMPLE or UNKNOWN
    seconds: float
    expected_to_hold: bool
    counterexample: Counterexample | None = None
    reason: str = ""


def _value(model: z3.ModelRef, term):
    if not z3.is_expr(term):
        return term
    value = model.eval(term, model_completion=True)
    if z3.is_string_value(value):
        return _unescaped(value.as_string())
    return value.as_long() if z3.is_int_value(value) else z3.is_true(value)


def _unescaped(text: str) -> str:
    """A z3 string literal as Python text: z3 writes characters outside printable ASCII as ``\\u{hex}``."""
    return re.sub(r"\\u\{([0-9a-fA-F]+)\}", lambda match: chr(int(match.group(1), 16)), text)


def concrete_subject(model: z3.ModelRef, subject):
    """The values a z3 model gives every term of a subject, nested records and tuples included."""
    if attrs.has(type(subject)):
        return attrs.evolve(subject, **{f.name: concrete_subject(model, getattr(subject, f.name)) for f in attrs.fields(type(subject))})
    if isinstance(subject, tuple):
        return tuple(concrete_subject(model, item) for item in subject)
    return _value(model, subject)


def judged(invariant: Invariant, semantics: Semantics, subjects: tuple, ops) -> list:
    """Every subject's verdicts in subject order, flattened: what a claim reads."""
    return [verdict for subject in subjects for verdict in invariant.domain.judge(semantics, subject, ops)]


def new_solver(timeout_seconds: float) -> z3.Solver:
    """A solver that first substitutes away the equalities the stories and the ``If`` chains are made of.

    The claims are quantifier-free linear integer arithmetic over long
    ``If`` chains; eliminating the defined terms before search makes the
    whole catalog an order of magnitude faster than the default solver.
    """
    solver = z3.Then("simplify", "propagate-values", "solve-eqs", "smt").solver()
    solver.set(timeout=max(1, int(timeout_seconds * 1000)))
    return solver


def prove(invariant: Invariant, semantics: Semantics, bound: int, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> Result:
    """Look for subjects of at most ``bound`` sources, records or fields that break the claim under ``semantics``."""
    started = time.perf_counter()
    domain = invariant.domain
    with semantics.in_force():
        subjects, facts = invariant.story(bound)
        verdicts = judged(invariant, semantics, subjects, Z3)
        solver = new_solver(timeout_seconds)
        for subject in subjects:
            solver.add(*domain.well_formed(subject))
        solver.add(*facts)
        solver.add(z3.Not(invariant.claim(subjects, verdicts, Z3)))
        answer = solver.check()
        counterexample, reason = None, ""
        if answer == z3.sat:
            values = tuple(concrete_subject(solver.model(), subject) for subject in subjects)
            counterexample = Counterexample(values, tuple(judged(invariant, semantics, values, CONCRETE)))
        elif answer == z3.unknown:
            reason = solver.reason_unknown()
    outcome = PROVED if answer == z3.unsat else COUNTEREXAMPLE if answer == z3.sat else UNKNOWN
    seconds = time.perf_counter() - started
    return Result(invariant, semantics.name, bound, outcome, seconds, is_expected_to_hold(invariant, semantics), counterexample, reason)


def prove_catalog(semantics: Semantics, bound: int, only: str | None = None, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> list[Result]:
    return [prove(entry, semantics, bound, timeout_seconds) for entry in CATALOG if only is None or entry.id == only]
