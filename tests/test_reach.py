"""The reach measurement: rule ids mapped to their functions, a branch left untaken reported, a predicate's two answers seen."""

from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path

import pytest

from gateproof.conformance.bench.measure import measure
from gateproof.conformance.generation.reach import DEFAULT_COUNT, Reach, RuleReach, bench_reach, function_reach, main, print_reach
from gateproof.conformance.generation.reach_rules import ADR_DIR, Rule, read_rules, resolve, rule_function

#: Scenarios of each (kind, version) the guard decides. Each stream at this count is a prefix of
#: the same stream at the default count, so what it reaches the default reaches too; seeds 0 to 9
#: each reach everything by this count, so it is no lucky draw.
GUARD_COUNT = 150

FIXTURE = '''
def sign(number):
    if number > 0:
        return "positive"
    return "not positive"


def is_even(number) -> bool:
    return number % 2 == 0
'''


@pytest.fixture
def fixture(tmp_path):
    """A tiny module of one branch and one predicate, outside every folder the suite measures."""
    path = tmp_path / "fixture.py"
    path.write_text(FIXTURE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("reach_fixture", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_adr_rule_id_maps_to_functions_that_exist():
    ids = {i for path in ADR_DIR.glob("*.md") for i in re.findall(r"^### ([A-Z]\d{3}\.\d+) — ", path.read_text(encoding="utf-8"), re.M)}
    rules = read_rules()
    assert {rule.id for rule in rules} == ids and len(ids) >= 80
    for rule in rules:
        # A rule implemented by a definition alone (an enum of its values) has no function; any other has one at least.
        assert rule.functions or all(inspect.isclass(resolve(name)) for name in rule.names), rule.id
        for function in rule.functions:
            assert function.file.is_file() and function.code.co_firstlineno > 0, function.dotted


def test_a_branch_left_untaken_is_reported_missing_with_its_table_key(fixture):
    measurement = measure(lambda: fixture.sign(1), [Path(fixture.__file__).parent], [])
    rule = RuleReach(Rule("X001.1", "a fixture", ("sign",), ()), (function_reach(rule_function("sign", fixture.sign), measurement),))
    printed: list[str] = []
    print_reach(Reach((rule,), measurement, 0.0), printed.append)
    branch = FIXTURE.splitlines().index("    if number > 0:") + 1
    assert not rule.reached and any(line.startswith("X001.1   NOT reached both ways") for line in printed), printed
    key = f"{Path(fixture.__file__).as_posix()}:sign:if number > 0:"
    assert any(line.strip() == f"missing {fixture.__file__}:{branch}->{branch + 2}  (its table key: {key})" for line in printed), printed


def test_both_ways_of_the_branch_taken_leave_nothing_missing(fixture):
    measurement = measure(lambda: (fixture.sign(1), fixture.sign(0)), [Path(fixture.__file__).parent], [])
    reached = function_reach(rule_function("sign", fixture.sign), measurement)
    assert reached.reached and not reached.missing and reached.region.arcs_taken == reached.region.arcs == 2


@pytest.mark.parametrize("numbers, answers", [((2,), {True}), ((2, 3), {True, False})])
def test_the_predicate_hook_sees_each_answer_returned(fixture, numbers, answers):
    predicate = rule_function("is_even", fixture.is_even)
    measurement = measure(lambda: [fixture.is_even(n) for n in numbers], [Path(fixture.__file__).parent], [predicate.code])
    reached = function_reach(predicate, measurement)
    assert reached.predicate and not reached.region.points
    assert reached.answers == answers and reached.reached == (answers == {True, False})


@pytest.mark.parametrize("argv", [["--count", "0"], ["--count", "many"], ["--seed", "1.5"]])
def test_a_bad_argument_is_one_line_and_status_2(argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    error = capsys.readouterr().err
    assert stopped.value.code == 2 and error.startswith("reach: error: argument") and error.count("\n") == 1


def test_generated_scenarios_alone_reach_every_rule_both_ways():
    printed: list[str] = []
    reach = bench_reach(print=printed.append, count=GUARD_COUNT, seed=0)
    gaps = [line for line in printed if "NOT reached" in line or "missing" in line or line.startswith("stale")]
    assert GUARD_COUNT <= DEFAULT_COUNT and reach.complete, "\n".join(gaps)
    assert any(line.startswith(f"rule ids reached both ways: {len(reach.rules)}/{len(reach.rules)}") for line in printed)
