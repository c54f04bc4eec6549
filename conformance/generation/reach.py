"""Whether the generated scenarios alone reach every rule both ways: the branch that applies it and the one that does not.

Run with ``python -m gateproof.conformance.generation.reach [--count N] [--seed S]``.
``count`` scenarios of every (kind, version) are drawn from the campaign's
generators and decided in process, under coverage.py's branch measurement
of model/ and the predicate hook of :mod:`gateproof.conformance.bench.measure`. Each rule id the model
implements is mapped to its functions by its adr/ entry (:mod:`.reach_rules`);
the one the harness implements (S001.11) decides no scenario and is left to
its tests. A rule is reached
both ways when each of its functions ran, took every way of each branch,
and, if it is a predicate with no branch, answered both yes and no; what no
valid scenario document can reach is excused only by :data:`UNREACHABLE` (``reach_unreachable``).
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import islice
from pathlib import Path

from attrs import frozen

import gateproof.model
from gateproof.model.gateway.catalog import SHIPPED_DIR, shipped_document
from gateproof.model.gateway.catalog import read_catalog_text as catalog_text_read
from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario import schema as scenario_schema
from gateproof.model.versions import VERSIONS

from ..bench.measure import BranchPoint, Measurement, Region, measure
from ..figure_pages import Printed, machine, write_page
from ..harness.campaign import CampaignSettings
from . import scenarios
from .reach_keys import branch_key, function_key
from .reach_unreachable import UNREACHABLE
from .reach_rules import Rule, RuleFunction, read_rules

TARGETS = [("ceiling", v) for v in VERSIONS] + [("gateway", v) for v in GATEWAY_VERSIONS]
#: The gateway under each shipped catalog but the lab's (its campaign is ``verify --catalog``): the rules no lab scenario reaches.
CATALOG_TARGETS = [(path.stem, v) for path in sorted(SHIPPED_DIR.glob("*.json")) if path.stem != "lab-001" for v in GATEWAY_VERSIONS]
#: What a default verify campaign draws of each (kind, version): its examples shared among them all.
DEFAULT_COUNT = CampaignSettings().examples // len(TARGETS)
#: The most scenarios of each (kind, version) one measurement holds in memory.
MOST = 100_000
MODEL_DIR = Path(gateproof.model.__file__).resolve().parent



def where(file: Path, line: int) -> str:
    """``model/uids.py:50``: relative to the source tree for the model's files, the key the table uses."""
    shown = file.relative_to(MODEL_DIR.parent) if file.is_relative_to(MODEL_DIR.parent) else file
    return f"{shown}:{line}"


def branch(point: BranchPoint) -> str:
    """The table's key of a branch point: its function and its text."""
    return branch_key(point.file, point.line, MODEL_DIR)


def whole_function(function: RuleFunction) -> str:
    """The table's key of a whole rule function."""
    return function_key(function.file, function.code.co_firstlineno, MODEL_DIR)


def is_predicate(function: RuleFunction, answers: set) -> bool:
    """Whether a straight-line function answers yes or no: it returns a bool or a value-or-None, by its annotation or by every result seen."""
    returns = function.function.__annotations__.get("return")
    if returns is None:
        return bool(answers) and all(is_bool for is_bool, _ in answers)
    return returns in ("bool", bool) or str(returns).endswith("| None")


@frozen
class FunctionReach:
    function: RuleFunction
    region: Region
    predicate: bool
    answers: frozenset  # the truth values a predicate returned

    @property
    def excused(self) -> bool:
        """Whether the table excuses the whole function."""
        return whole_function(self.function) in UNREACHABLE

    @property
    def missing(self) -> tuple[BranchPoint, ...]:
        """The branch points with a way not taken that no table entry excuses."""
        return () if self.excused else tuple(p for p in self.region.points if p.missed and branch(p) not in UNREACHABLE)

    @property
    def answered(self) -> bool:
        """Whether a predicate answered both yes and no; true of any other function."""
        return not self.predicate or self.answers == {True, False}

    @property
    def reached_without_excuse(self) -> bool:
        return self.region.called and self.answered and not any(p.missed for p in self.region.points)

    @property
    def reached(self) -> bool:
        return self.excused or (self.region.called and self.answered and not self.missing)

    def summary(self) -> str:
        points = self.region.points
        text = f"{self.function.dotted.removeprefix('gateproof.model.')} {sum(not p.missed for p in points)}/{len(points)}"
        if not self.region.called:
            text += " never called"
        elif self.predicate:
            text += " answered " + "/".join(str(a) for a in sorted(self.answers, reverse=True))
        return text + (" (unreachable)" if self.excused else "")


@frozen
class RuleReach:
    rule: Rule
    functions: tuple[FunctionReach, ...]

    @property
    def reached(self) -> bool:
        return all(f.reached for f in self.functions)


@frozen
class Reach:
    rules: tuple[RuleReach, ...]
    measurement: Measurement
    seconds: float

    def rule_regions(self) -> dict[tuple[Path, str], Region]:
        return {(f.function.file, f.function.region): f.region for r in self.rules for f in r.functions}

    def outside(self) -> list[tuple[str, Region]]:
        """The other functions of model/ that ran, each with its region: the helpers the rule functions call."""
        regions = self.measurement.unnamed_regions(set(self.rule_regions()))
        return [(name, region) for _, name, region in regions if region.called]

    def outside_missing(self) -> list[tuple[str, BranchPoint]]:
        return [(name, p) for name, region in self.outside() for p in region.points if p.missed and branch(p) not in UNREACHABLE]

    def stale(self) -> list[str]:
        """Table entries that excuse nothing: the branch or function was reached, or the code it names is gone."""
        regions = [*self.rule_regions().values(), *(region for _, region in self.outside())]
        excusing = {branch(p) for region in regions for p in region.points if p.missed}
        excusing |= {whole_function(f.function) for r in self.rules for f in r.functions if not f.reached_without_excuse}
        return sorted(set(UNREACHABLE) - excusing)

    @property
    def complete(self) -> bool:
        """Every rule reached both ways, every helper branch taken every way, and every table entry still needed."""
        return all(r.reached for r in self.rules) and not self.outside_missing() and not self.stale()


def function_reach(function: RuleFunction, measurement: Measurement) -> FunctionReach:
    region = measurement.region(function.file, function.region)
    answers = measurement.answers(function.code)
    predicate = not region.points and is_predicate(function, answers)
    return FunctionReach(function, region, predicate, frozenset(truthy for _, truthy in answers))


def model_rules() -> list[Rule]:
    """The rules of adr/ the model implements: a rule the harness implements (how an outcome is compared, S001.11) decides no scenario, so only its tests reach it."""
    return [rule for rule in read_rules() if all(f.file.is_relative_to(MODEL_DIR) for f in rule.functions)]


def measure_reach(count: int = DEFAULT_COUNT, seed: int = 0) -> Reach:
    """Decide ``count`` generated scenarios of every (kind, version) under measurement, and say how far each rule the model implements was reached."""
    rules = model_rules()
    documents = [d for kind, version in TARGETS for d in islice(scenarios(kind, version, seed), count)]
    documents += [d for name, version in CATALOG_TARGETS for d in islice(scenarios("gateway", version, seed, shipped_document(name)), count)]

    def decide_all():
        for document in documents:
            run_scenario(read_scenario(document))

    # The schema readers are cached: measured in a process that had already read a schema, their branches would not run
    # at all, and what they take would depend on what the process did before, not on the scenarios.
    for cached in (scenario_schema.schema, scenario_schema._validator, scenario_schema._scenario_part, catalog_text_read):
        cached.cache_clear()
    started = time.perf_counter()
    measurement = measure(decide_all, [MODEL_DIR], {f.code for rule in rules for f in rule.functions})
    seconds = time.perf_counter() - started
    reaches = tuple(RuleReach(rule, tuple(function_reach(f, measurement) for f in rule.functions)) for rule in rules)
    return Reach(reaches, measurement, seconds)


def arcs_text(point: BranchPoint) -> str:
    return ", ".join(f"{where(point.file, start)}->{end if end > 0 else 'exit'}" for start, end in point.missed)


def print_reach(reach: Reach, print=print) -> None:
    print("rule id  verdict               each function: branch points taken every way / all, and a predicate's answers")
    for rule in reach.rules:
        verdict = "reached both ways" if rule.reached else "NOT reached both ways"
        functions = "; ".join(f.summary() for f in rule.functions) or "a definition, no code to branch"
        print(f"{rule.rule.id:<8} {verdict:<21} {functions}")
        for point in (p for f in rule.functions for p in f.missing):
            print(f"           missing {arcs_text(point)}  (its table key: {branch(point)})")
    reached = [r.rule.id for r in reach.rules if r.reached]
    regions = reach.rule_regions().values()
    taken, arcs = sum(r.arcs_taken for r in regions), sum(r.arcs for r in regions)
    totals = reach.measurement.report["totals"]
    excusing = [r for r in reach.rules if r.reached and not all(f.reached_without_excuse for f in r.functions)]
    print(f"rule ids reached both ways: {len(reached)}/{len(reach.rules)}, {len(excusing)} of them with a part excused as unreachable")
    print(f"branches of rule functions taken: {taken}/{arcs} ({100 * taken / max(arcs, 1):.1f}%); "
          f"of all model/: {totals['covered_branches']}/{totals['num_branches']} ({totals['percent_branches_covered']:.1f}%)")
    for key, reason in UNREACHABLE.items():
        print(f"unreachable: {key}  {reason}")
    for key in reach.stale():
        print(f"stale unreachable entry (it excuses nothing): {key}")
    for name, point in reach.outside_missing():
        print(f"outside the rule functions: {name} missing {arcs_text(point)}  (its table key: {branch(point)})")
    uncalled = [name for _, name, region in reach.measurement.unnamed_regions(set(reach.rule_regions())) if region.points and not region.called]
    print(f"never called while deciding, with branches of their own: {', '.join(uncalled)}")


def bench_reach(print=print, count: int = DEFAULT_COUNT, seed: int = 0) -> Reach:
    """The reach of ``count`` generated scenarios of each version, printed: what ``make reach`` and ``make bench`` show."""
    reach = measure_reach(count, seed)
    print(f"reach of generated scenarios: {count:,} of each of {len(TARGETS)} (kind, version), seed {seed}, "
          f"decided under branch measurement in {reach.seconds:.1f} s")
    print_reach(reach, print)
    return reach


class Arguments(argparse.ArgumentParser):
    def error(self, message: str):
        """A usage error is one line and exit status 2, never a traceback."""
        self.exit(2, f"reach: error: {message}\n")


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def count_of(text: str) -> int:
    """``--count``: above 0, and at most :data:`MOST` since every document is drawn before any is decided."""
    value = whole(text)
    if not 0 < value <= MOST:
        raise argparse.ArgumentTypeError(f"{text} is not from 1 to {MOST:,}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = Arguments(prog="python -m gateproof.conformance.generation.reach", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=count_of, default=DEFAULT_COUNT, help=f"scenarios of each (kind, version) (default {DEFAULT_COUNT})")
    parser.add_argument("--seed", type=whole, default=0, help="the generators' seed (default 0)")
    arguments = parser.parse_args(argv)
    started_on, printed = machine(), Printed()
    reach = bench_reach(printed, count=arguments.count, seed=arguments.seed)
    if (arguments.count, arguments.seed) == (DEFAULT_COUNT, 0):  # the default campaign's reach, not another count's or seed's
        write_page("reach.md", "make reach: how far the generated scenarios reach into the rules",
                   "make reach (python -m gateproof.conformance.generation.reach)", started_on, printed.lines)
    return 0 if reach.complete else 1


if __name__ == "__main__":
    sys.exit(main())
