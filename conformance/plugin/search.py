"""Running one scenario through a Python gateway, and searching generated scenarios with hypothesis for one it gets wrong.

The search is an ordinary ``@given`` test, so hypothesis behaves as its users
expect: the active settings profile (``--hypothesis-profile``), the seed
(``--hypothesis-seed``), the example database (the last failure is tried
first on the next run) and ``--hypothesis-show-statistics``. Its shrink phase
is left out: on documents this large it is unbounded in practice. The first
disagreement is reduced instead by the reducer ``gateproof verify`` uses,
bounded in candidates and in seconds, then run once more to confirm it.
"""

from __future__ import annotations

import copy
import math
import time
from typing import Callable

from attrs import frozen
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import seed as hypothesis_seed

from gateproof.model.scenario import ScenarioError

from ..generation.reducer import reduce
from ..generation.strategy import strategy_for
from ..harness.hunt import model_outcome
from ..harness.protocol import Outcome
from ..harness.results import Verdict, judge
from .command import ImplementationSkipped

REDUCTION_BUDGET = 1500  # candidate scenarios tried at most while reducing a disagreement
REDUCTION_SECONDS = 20.0  # and the time the reduction may take
#: Health checks about gateproof's own strategies, which a team testing its gateway cannot act on.
SUPPRESSED = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large,
              HealthCheck.function_scoped_fixture, HealthCheck.differing_executors]


class GatewayRaised(Exception):
    """The gateway raised on a scenario: the scenario and the gateway's own exception."""

    def __init__(self, scenario: dict, error: BaseException):
        super().__init__(f"the gateway raised {type(error).__name__}: {error}")
        self.scenario, self.error = scenario, error


@frozen
class Found:
    """What running a scenario found: a verdict that is not passed, or the gateway's exception."""

    scenario: dict
    verdict: Verdict | None = None
    raised: GatewayRaised | None = None

    def signature(self) -> tuple:
        """What must stay the same while the scenario is reduced: the keys that differ, or the exception's type."""
        if self.raised is not None:
            return ("raised", type(self.raised.error))
        d = self.verdict.disagreement
        return ("differs", d.keys if d is not None else self.verdict.message)


def not_an_outcome(actual: object) -> str | None:
    if isinstance(actual, dict) and isinstance(actual.get("results"), list):
        return None
    return f"the gateway returned {type(actual).__name__}, not an outcome document (a dict with a results list)"


MOST_DIGITS = 4300  # Python's own limit on an integer written as text: past it no JSON text can be written for it


def not_json(value: object, path: str = "", above: tuple[int, ...] = ()) -> str | None:
    """Where and what the first value JSON cannot carry is in ``value`` (a cycle, a set, bytes, a key not a string, an
    integer too long to write, a float that is not finite), or None when JSON carries it all."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    if isinstance(value, int):
        digits = len(str(abs(value))) if value.bit_length() < MOST_DIGITS * 3 else None
        return None if digits is not None and digits <= MOST_DIGITS else f"{path}: an integer of {digits or 'more than ' + str(MOST_DIGITS)} digits"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path}: {value!r}, which JSON has no number for"
    if not isinstance(value, (dict, list, tuple)):
        return f"{path}: bytes" if isinstance(value, (bytes, bytearray)) else f"{path}: a {type(value).__name__}"
    if id(value) in above:
        return f"{path}: a cycle, the value holding itself"
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path}: the key {key!r} is an {type(key).__name__}, and JSON keys are strings"
            found = not_json(item, f"{path}.{key}" if path else key, (*above, id(value)))
            if found:
                return found
        return None
    return next(filter(None, (not_json(item, f"{path}[{n}]", (*above, id(value))) for n, item in enumerate(value))), None)


def check(name: str, family: str, run: Callable[[dict], dict], scenario: dict, expected: dict,
          pinned: tuple[str, ...] = ()) -> Found | None:
    """None when ``run`` gives the expected outcome, compared in full; what it found otherwise. ``run`` gets its own copy."""
    try:
        actual = run(copy.deepcopy(scenario))
    except ImplementationSkipped:
        raise
    except Exception as error:  # the gateway's failure is a finding, reported with its own traceback
        return Found(scenario, raised=GatewayRaised(scenario, error))
    problem = not_an_outcome(actual)
    carried = not_json(actual) if problem is None else None
    if carried is not None:
        problem = f"the gateway returned a value JSON cannot carry: {carried}"
    if problem is not None:
        return Found(scenario, Verdict(name, "generated", family, scenario.get("id", ""), "failed", problem, pinned))
    verdict = judge(name, "generated", family, scenario, expected, Outcome(0, actual), "full", (), pinned, getattr(run, "unobservable", ()))
    return None if verdict.status == "passed" else Found(scenario, verdict)


class Search:
    """Generated scenarios of one kind and rule version, drawn by hypothesis, until one disagrees."""

    def __init__(self, name: str, run: Callable[[dict], dict], kind: str, version: str, examples: int, key: bytes, seed: str | None = None):
        self.name, self.run, self.kind, self.version = name, run, kind, version
        self.family = f"generated/{version}"
        self.found: Found | None = None
        self.test = self._given(examples, key)
        if seed is not None:
            self.test = hypothesis_seed(seed)(self.test)

    def _given(self, examples: int, key: bytes):
        phases = [phase for phase in settings.default.phases if phase not in (Phase.shrink, Phase.explain)]

        @settings(max_examples=max(examples, 1), deadline=None, suppress_health_check=SUPPRESSED, phases=phases)
        @given(scenario=strategy_for(self.kind, self.version))
        def gateproof_generated(scenario: dict) -> None:
            try:
                expected = model_outcome(scenario)
            except ScenarioError:
                assume(False)
            try:
                found = check(self.name, self.family, self.run, scenario, expected)
            except ImplementationSkipped:
                assume(False)  # a scenario it declares it does not decide (a proposal MCP cannot carry) is not counted
            if found is not None:
                self.found = found
                raise AssertionError("gateproof: a generated scenario departs from the model")

        gateproof_generated.hypothesis.inner_test._hypothesis_internal_add_digest = key
        return gateproof_generated

    def reduced(self, found: Found) -> tuple[Found, int]:
        """The smallest scenario that still fails alike, within the bounds, and how many candidates were tried."""
        wanted, deadline, tried, last = found.signature(), time.monotonic() + REDUCTION_SECONDS, [0], [found]

        def still_fails(candidate: dict) -> bool:
            if time.monotonic() > deadline:
                return False
            tried[0] += 1
            try:
                expected = model_outcome(candidate)
            except ScenarioError:
                return False
            try:
                again = check(self.name, self.family, self.run, candidate, expected)
            except ImplementationSkipped:
                return False
            if again is not None and again.signature() == wanted:
                last[0] = again
                return True
            return False

        smallest = reduce(found.scenario, still_fails, REDUCTION_BUDGET)
        return (last[0] if last[0].scenario == smallest else found), tried[0]
