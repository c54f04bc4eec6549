import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# No test depends on the machine's speed: no deadline on an example, and no health check that times data generation.
# Loaded before any test module, so every @settings(...) without its own deadline inherits this one.
settings.register_profile("gateproof", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gateproof")

# Test helper modules live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))

ADR = Path(__file__).resolve().parent.parent / "adr" / "gateway.md"


@pytest.fixture(scope="session")
def adr_rule_ids() -> set[str]:
    """Every rule id with an entry in adr/gateway.md."""
    return set(re.findall(r"^### (G\d{3}\.\d+) — ", ADR.read_text(encoding="utf-8"), re.M))


def pytest_configure(config):
    from fuzz_scale import scale_problem

    problem = scale_problem()
    if problem:
        raise pytest.UsageError(problem)
