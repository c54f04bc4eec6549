"""Running the catalog through z3: each invariant proved, refuted with a counterexample, or unknown."""

from __future__ import annotations

import time

import z3
from attrs import frozen

from gateproof.model.lattice import CONCRETE
from gateproof.model.symbolic import Z3
from gateproof.model.versions import VERSIONS

from .catalog import CATALOG, Invariant
from .send import Semantics, Send, Verdict, semantics_of, well_formed
from .wrong_rules import WRONG_RULES

PROVED, COUNTEREXAMPLE, UNKNOWN = "proved", "counterexample", "unknown"
DEFAULT_TIMEOUT_SECONDS = 30.0


def semantics_named(name: str) -> Semantics:
    """A model version of ``gateproof.model.versions`` or a ``wrong:`` variant; KeyError for anything else."""
    if name in VERSIONS:
        return semantics_of(VERSIONS[name])
    return WRONG_RULES[name]


def rule_names() -> list[str]:
    return [*VERSIONS, *WRONG_RULES]


def is_expected_to_hold(invariant: Invariant, semantics: Semantics) -> bool:
    """Every invariant is expected of every rule version but the departures a model version is known for.

    A wrong variant is expected to satisfy nothing less: it is wrong, and its
    counterexamples are what make the proofs worth having.
    """
    return semantics.name not in invariant.departs_in


@frozen
class Counterexample:
    """The sends the solver found, and the verdicts it predicts the rules give them."""

    sends: tuple[Send, ...]
    verdicts: tuple[Verdict, ...]


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

    @property
    def as_expected(self) -> bool:
        return self.outcome == PROVED if self.expected_to_hold else self.outcome != UNKNOWN


def _value(model: z3.ModelRef, term):
    value = model.eval(term, model_completion=True)
    return value.as_long() if z3.is_int_value(value) else z3.is_true(value)


def concrete_send(model: z3.ModelRef, send: Send) -> Send:
    """The values a z3 model gives a symbolic send."""
    return Send(
        ranks=tuple(_value(model, term) for term in send.ranks),
        listed=tuple(_value(model, term) for term in send.listed),
        forced=tuple(_value(model, term) for term in send.forced),
        primary_zone=_value(model, send.primary_zone),
        fallback_zones=tuple(_value(model, term) for term in send.fallback_zones),
        fallback_listed=tuple(_value(model, term) for term in send.fallback_listed),
        enforcing=_value(model, send.enforcing),
    )


def _solver(timeout_seconds: float) -> z3.Solver:
    """A solver that first substitutes away the equalities the stories and the ``If`` chains are made of.

    The claims are quantifier-free linear integer arithmetic over long
    ``If`` chains; eliminating the defined terms before search makes the
    whole catalog an order of magnitude faster than the default solver.
    """
    solver = z3.Then("simplify", "propagate-values", "solve-eqs", "smt").solver()
    solver.set(timeout=max(1, int(timeout_seconds * 1000)))
    return solver


def prove(invariant: Invariant, semantics: Semantics, bound: int, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> Result:
    """Look for sends of at most ``bound`` sources that break the claim under ``semantics``."""
    started = time.perf_counter()
    with semantics.in_force():
        sends, facts = invariant.story(bound)
        verdicts = [semantics.judge(send, Z3) for send in sends]
        solver = _solver(timeout_seconds)
        for send in sends:
            solver.add(*well_formed(send))
        solver.add(*facts)
        solver.add(z3.Not(invariant.claim(sends, verdicts, Z3)))
        answer = solver.check()
        counterexample, reason = None, ""
        if answer == z3.sat:
            values = tuple(concrete_send(solver.model(), send) for send in sends)
            counterexample = Counterexample(values, tuple(semantics.judge(send, CONCRETE) for send in values))
        elif answer == z3.unknown:
            reason = solver.reason_unknown()
    outcome = PROVED if answer == z3.unsat else COUNTEREXAMPLE if answer == z3.sat else UNKNOWN
    seconds = time.perf_counter() - started
    return Result(invariant, semantics.name, bound, outcome, seconds, is_expected_to_hold(invariant, semantics), counterexample, reason)


def prove_catalog(semantics: Semantics, bound: int, only: str | None = None, timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS) -> list[Result]:
    return [prove(entry, semantics, bound, timeout_seconds) for entry in CATALOG if only is None or entry.id == only]
