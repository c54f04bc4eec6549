"""The suite itself under load: no test depends on the machine's speed (``make test-loaded`` runs it with every core busy)."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent
#: A keyword argument giving an example a deadline other than none (spelt in two parts so this line is no match).
DEADLINE = re.compile(r"\b" + "dead" + r"line=(?!None\b)")


def test_no_hypothesis_example_has_a_deadline_and_no_health_check_times_generation():
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    given_one = [f"{path.name}:{number}" for path in sorted(TESTS.glob("*.py"))
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if DEADLINE.search(line)]
    assert not given_one, f"tests that give an example a deadline: {given_one}"
