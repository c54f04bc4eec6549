"""What a mutation run found, counted per module of the model and in total, as JSON and as Markdown.

The score is the share of mutants caught (by a disagreement, or by crashing
on import) among those not judged equivalent. A mutant listed as equivalent
that verify or a driver nevertheless caught is counted caught, and its entry
reported as wrong; one listed that survived is counted equivalent. Each
caught mutant says what caught it (its ``phase``: verify's ``corpus`` or
``generated`` scenarios, or after verify the ``refusals`` or ``explain``
driver), and each module counts them by that.
"""

from __future__ import annotations

import statistics

from attrs import frozen

from .equivalent import KINDS, Equivalence, Stale
from .execute import CAUGHT, ERROR, STILLBORN, SURVIVED, Finding
from .mutants import Mutant

EQUIVALENT = "equivalent"
#: What caught a mutant: verify's corpus or generated scenarios, or after verify the refusal corpus or explain's traces (:mod:`.drivers`).
CATCHERS = ("corpus", "generated", "refusals", "explain")
COLUMNS = ("module", "mutants", "caught", "stillborn", "survived", "equivalent", "errors", "score", "median to catch", "max to catch",
           *(f"by {c}" for c in CATCHERS))


@frozen
class MutationRun:
    """Everything one run found, and what it ran with."""

    mutants: tuple[Mutant, ...]  # the mutants run, in enumeration order
    findings: dict  # mutant id -> Finding
    equivalents: tuple[Equivalence, ...]
    stale: tuple[Stale, ...]
    enumerated: int  # mutants of the whole model
    population: int  # those of the modules chosen, which the mutants run are a sample of when fewer
    seconds: float
    settings: dict


@frozen
class Tally:
    module: str
    mutants: int
    caught: int
    stillborn: int
    survived: int
    equivalent: int
    errors: int
    median_to_catch: float | None
    max_to_catch: int | None
    by: tuple[int, ...] = (0,) * len(CATCHERS)  # caught by each of CATCHERS

    @property
    def score(self) -> float | None:
        judged = self.mutants - self.equivalent
        return (self.caught + self.stillborn) / judged if judged else None

    def row(self) -> dict:
        score = "-" if self.score is None else f"{self.score:.1%}"
        median = "-" if self.median_to_catch is None else f"{self.median_to_catch:g}"
        return dict(zip(COLUMNS, (self.module, self.mutants, self.caught, self.stillborn, self.survived, self.equivalent,
                                  self.errors, score, median, "-" if self.max_to_catch is None else self.max_to_catch, *self.by)))


def status_of(finding: Finding, listed: set[str]) -> str:
    """A survivor judged equivalent is equivalent; every other finding keeps its status."""
    return EQUIVALENT if finding.status == SURVIVED and finding.mutant in listed else finding.status


def tally(module: str, findings: list[Finding], listed: set[str]) -> Tally:
    statuses = [status_of(f, listed) for f in findings]
    # Scenarios to catch count verify's scenarios; a driver's count is of its own answers, and is not mixed in.
    to_catch = [f.to_catch for f in findings if f.status == CAUGHT and f.to_catch is not None and f.phase not in ("refusals", "explain")]
    caught_by = [f.phase for f in findings if f.status == CAUGHT]
    return Tally(module, len(findings), statuses.count(CAUGHT), statuses.count(STILLBORN), statuses.count(SURVIVED),
                 statuses.count(EQUIVALENT), statuses.count(ERROR),
                 statistics.median(to_catch) if to_catch else None, max(to_catch) if to_catch else None,
                 tuple(caught_by.count(c) for c in CATCHERS))


def tallies(run: MutationRun) -> list[Tally]:
    """One tally per module, in path order, then the total."""
    listed = {e.id for e in run.equivalents}
    modules = sorted({m.path for m in run.mutants})
    rows = [tally(path, [run.findings[m.id] for m in run.mutants if m.path == path], listed) for path in modules]
    return [*rows, tally("total", [run.findings[m.id] for m in run.mutants], listed)]


def with_status(run: MutationRun, status: str) -> list[Mutant]:
    listed = {e.id for e in run.equivalents}
    return [m for m in run.mutants if status_of(run.findings[m.id], listed) == status]


def equivalent_kinds(run: MutationRun) -> dict[str, int]:
    """The equivalent mutants of this run by the kind of their reason, each against all the mutants run."""
    kind_of = {e.id: e.kind for e in run.equivalents}
    found = [kind_of[m.id] for m in with_status(run, EQUIVALENT)]
    return {kind: found.count(kind) for kind in KINDS}


def equivalent_text(run: MutationRun) -> str:
    counted = equivalent_kinds(run)
    share = ", ".join(f"{kind} {count} ({count / len(run.mutants):.1%})" for kind, count in counted.items()) if run.mutants else "none"
    return f"equivalent by kind, of {len(run.mutants)} mutants run: {share}"


def wrongly_equivalent(run: MutationRun) -> list[Mutant]:
    """Mutants listed as equivalent that verify caught: their entries are wrong."""
    listed = {e.id for e in run.equivalents}
    return [m for m in run.mutants if m.id in listed and run.findings[m.id].status in (CAUGHT, STILLBORN)]


def extrapolation(run: MutationRun) -> dict | None:
    """For a sample: what running every mutant it was drawn from would count and take, scaled from the sample."""
    if len(run.mutants) >= run.population or not run.mutants:
        return None
    scale = run.population / len(run.mutants)
    total = tallies(run)[-1]
    jobs = run.settings.get("jobs", 1)
    busy = sum(f.seconds for f in run.findings.values())
    return {"sampled": len(run.mutants), "of": run.population, "survivors": round(total.survived * scale),
            "seconds_on_these_jobs": round(busy * scale / jobs)}


def _mutant_entry(mutant: Mutant, finding: Finding) -> dict:
    return {"id": mutant.id, "path": mutant.path, "line": mutant.line, "column": mutant.column, "operator": mutant.operator,
            "before": mutant.before, "after": mutant.after, "status": finding.status, "seconds": round(finding.seconds, 3),
            "to_catch": finding.to_catch, "counterexample": finding.counterexample, "phase": finding.phase, "detail": finding.detail}


def report_document(run: MutationRun) -> dict:
    """The whole run as one JSON document: the tallies, then every mutant with what became of it."""
    listed = {e.id for e in run.equivalents}
    return {
        "gateproof_mutation": 1,
        "settings": run.settings,
        "seconds": round(run.seconds, 1),
        "enumerated": run.enumerated,
        "population": run.population,
        "run": len(run.mutants),
        "extrapolation": extrapolation(run),
        "modules": [{**t.row(), "score": t.score} for t in tallies(run)],
        "equivalent_kinds": equivalent_kinds(run),
        "survivors": [_mutant_entry(m, run.findings[m.id]) for m in with_status(run, SURVIVED)],
        "errors": [_mutant_entry(m, run.findings[m.id]) for m in with_status(run, ERROR)],
        "stale_equivalents": [{"id": s.entry.id, "why": s.why} for s in run.stale],
        "wrongly_equivalent": [m.id for m in wrongly_equivalent(run)],
        "mutants": [{**_mutant_entry(m, run.findings[m.id]), "status": status_of(run.findings[m.id], listed)} for m in run.mutants],
    }


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def markdown(run: MutationRun) -> str:
    """A short report: the table, each survivor's change, and whatever needs a look."""
    rows = [t.row() for t in tallies(run)]
    lines = [f"# Mutation testing of the model\n\n{len(run.mutants)} mutants of {run.enumerated} run in {run.seconds:.0f} s.", ""]
    estimate = extrapolation(run)
    if estimate:
        lines += [f"A seeded sample of {estimate['sampled']} of {estimate['of']} mutants: all of them would leave about "
                  f"{estimate['survivors']} survivors and take about {estimate['seconds_on_these_jobs'] / 60:.0f} minutes "
                  f"on {run.settings.get('jobs')} jobs.", ""]
    lines += ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(str(row[c]) for c in COLUMNS) + " |" for row in rows]
    lines += ["", equivalent_text(run).capitalize() + "."]
    survivors = with_status(run, SURVIVED)
    lines += ["", f"## Survivors ({len(survivors)})", ""]
    lines += [f"- {_code(m.id)} at {m.path}:{m.line}:{m.column}\n  - before: {_code(m.before)}\n  - after: {_code(m.after)}" for m in survivors]
    problems = [f"- error: {_code(m.id)}: {run.findings[m.id].detail.splitlines()[0] if run.findings[m.id].detail else ''}"
                for m in with_status(run, ERROR)]
    problems += [f"- stale equivalence entry: {_code(s.entry.id)}: {s.why}" for s in run.stale]
    problems += [f"- listed as equivalent but caught: {_code(m.id)}" for m in wrongly_equivalent(run)]
    if problems:
        lines += ["", "## Needs a look", "", *problems]
    return "\n".join(lines) + "\n"
