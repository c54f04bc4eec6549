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
valid scenario document can reach is excused only by :data:`UNREACHABLE`.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import islice
from pathlib import Path

from attrs import frozen

import gateproof.model
from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario import schema as scenario_schema
from gateproof.model.versions import VERSIONS

from ..bench.measure import BranchPoint, Measurement, Region, measure
from ..harness.campaign import CampaignSettings
from . import scenarios
from .reach_keys import branch_key, function_key
from .reach_rules import Rule, RuleFunction, read_rules

TARGETS = [("ceiling", v) for v in VERSIONS] + [("gateway", v) for v in GATEWAY_VERSIONS]
#: What a default verify campaign draws of each (kind, version): its examples shared among them all.
DEFAULT_COUNT = CampaignSettings().examples // len(TARGETS)
#: The most scenarios of each (kind, version) one measurement holds in memory.
MOST = 100_000
MODEL_DIR = Path(gateproof.model.__file__).resolve().parent

#: Why the readers of a catalog are never reached by deciding a scenario.
CATALOG_READ = "S003: a catalog is read as the model is imported (the lab's) or checked (catalog check); no scenario names one (tests/test_gateway_catalog.py)"
#: Reviewed: what deciding a valid scenario document never reaches, keyed by the branch's function and
#: text, or by the function for the whole function (:mod:`.reach_keys`), with why. A generated scenario is
#: valid by contract, so every branch that refuses an invalid document is here; the tests of the
#: readers (tests/test_input_fuzz.py and others) take those.
UNREACHABLE: dict[str, str] = {
    'model/lattice.py:permits': "permits is C094.5 on domain values for the model's callers; the gate calls zone_permits",
    'model/enforcement.py:mode_label': "mode_label is called by the explainer and the proofs' decoder; an outcome carries enforcing, not the label",
    'model/lifecycle.py:takes_configuration_only_path': 'takes_configuration_only_path is called by the explainer; the runner hands the gate the empty forced set itself',
    'model/uids.py:_as_decoded_php_int:if type(value) is int and abs(value) > _INT_MAX:': 'generated integers lie within ±(2**53 - 1) (conformance/PROTOCOL.md): one beyond 64 bits comes only from a file',
    'model/scenario/read_story.py:_changes:if name not in allowed:': 'invalid: an update setting a field its record has not',
    'model/scenario/read_story.py:_changes:if problem is not None:': 'invalid: an update setting a field to a value its schema refuses',
    'model/scenario/read_story.py:_record_key:if key_name not in fields or other in fields:': "invalid: an update or delete without its record's key, or with the other key too",
    'model/scenario/read_story.py:_record_key:if find_record(world, kind, key) is None:': 'invalid: an update or delete naming a record the world lacks',
    'model/scenario/read_story.py:read_story_step:if run in runs:': 'invalid: a run queued twice',
    'model/scenario/read_story.py:read_story_step:if configuration is None or configuration.deleted:': 'invalid: a queue naming a configuration the world lacks or holds deleted',
    'model/scenario/read_story.py:read_story_step:if run not in runs:': 'invalid: a step naming a run never queued',
    'model/scenario/read_story.py:read_story_step:if runs[run] != needed:': 'invalid: a step on a run in the wrong state (a resume before a suspend)',
    'model/scenario/read_story.py:read_story_step:if serving is not None and serving not in world.model_index:': 'invalid: a serving model the world lacks',
    'model/lattice.py:fold_ranks:if listed is not None:': 'only the proofs pass listed, so one term stands for every shorter list; the model folds the list it has',
    'model/scenario/read.py:read_world:if len(lookup.positions) != len(fields.get(where, ())):': 'invalid: two records of a table sharing a key',
    'model/scenario/read.py:_step:if configuration is None:': 'invalid: a send naming a configuration the world lacks',
    'model/scenario/read.py:_step:if configuration.deleted:': 'invalid: a send naming a configuration stored deleted',
    'model/scenario/read.py:_step:if serving is not None and serving not in world.model_index:': 'invalid: a serving model the world lacks',
    'model/scenario/schema.py:check_kind:if problem is not None:': 'invalid: a kind the schema does not list',
    'model/scenario/schema.py:validate:if not validator.is_valid(document):': 'invalid: a document the schema refuses',
    'model/scenario/document.py:check_size': "S001.4 is checked on a document's text, by its reader; a generated scenario is a value, never text",
    'model/scenario/document.py:check_depth': "S001.5 is checked on a document's text, by its reader; a generated scenario is a value, never text",
    'model/scenario/document.py:check_repeated_keys': "S001.6 is checked on a document's text, by its reader; a generated scenario is a value, never text",
    'model/scenario/document.py:too_deep:if not isinstance(document, (dict, list)):': 'too_deep is handed the document, always an object, by the readers',
    'model/scenario/document.py:too_deep:if depth > limit:': 'S001.5: a generated scenario nests far less than 64 levels',
    'model/scenario/document.py:_reads_back:if (orjson.loads(text) == document) is not True:': 'S001.12: a generated scenario reads back equal unless orjson cannot write it (a repeated key)',
    'model/scenario/document.py:_problem:if value is None or isinstance(value, int): # a bool is an int': 'S001.12: a generated scenario holds only JSON values',
    'model/scenario/document.py:_problem:if isinstance(value, tuple):': 'S001.12: a generated scenario holds no tuple',
    'model/scenario/document.py:_problem:if isinstance(value, (set, frozenset)):': 'S001.12: a generated scenario holds no set',
    'model/scenario/document.py:_refuse_what_json_cannot_carry:if problem is not None:': 'S001.12: a generated scenario holds only JSON values',
    'model/scenario/document.py:_refuse_what_json_cannot_carry:if depth > MAX_DEPTH: # a value holding itself is nested without end, and stops here': 'S001.5: a generated scenario nests far less than 64 levels',
    'model/scenario/document.py:_refuse_what_json_cannot_carry:if not isinstance(key, str):': "S001.12: a generated scenario's keys are strings",
    'model/tables.py:Lookup.__getitem__:if record is None:': 'the readers check every key a step names is in the world',
    'model/scenario/story.py:_run_gateway_or_unread:if isinstance(scenario, GatewayScenario):': 'a document handed to run_scenario unread is read first; a generated scenario is read by its caller',
    'model/scenario/story.py:_stored:if find_record(story.world, step.kind, step.key) is None:': 'invalid: an update or delete of a record an earlier step removed',
    'model/scenario/story.py:_single_send:if live_configuration(story.world, step.configuration) is None:': 'invalid: a step naming a configuration an earlier step deleted',
    'model/gateway/scenario.py:_unique:if record["id"] in seen:': 'invalid: two gateway records sharing an id',
    'model/gateway/scenario.py:_known:if value not in index:': 'invalid: a step naming a session or record the world lacks',
    'model/scenario/schema.py:schema:if name == "scenario":': 'the outcome schema is read by the harness and the tests, never while deciding',
    'model/versions.py:declared:for declaration in DECLARATIONS:': 'the schema admits declared versions only, so the one named is always found',
    'model/gateway/catalog.py:read_catalog': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_unique_names': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_record_kinds': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_argument_bounds': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_named_argument': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_effect_fields': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_approval': CATALOG_READ,
    'model/gateway/catalog_checks.py:check_catalog_semantics': CATALOG_READ,
}


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

    def decide_all():
        for document in documents:
            run_scenario(read_scenario(document))

    # The schema readers are cached: measured in a process that had already read a schema, their branches would not run
    # at all, and what they take would depend on what the process did before, not on the scenarios.
    for cached in (scenario_schema.schema, scenario_schema._validator, scenario_schema._scenario_part):
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
    reach = bench_reach(count=arguments.count, seed=arguments.seed)
    return 0 if reach.complete else 1


if __name__ == "__main__":
    sys.exit(main())
