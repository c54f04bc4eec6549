"""What the pytester tests of the plugin share: a project's ini file, the lab-001 corpus cases, a recorded run's scenarios."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import _settings as hypothesis_settings

from gateproof.conformance.corpus.load import load_corpus

TESTS = Path(__file__).resolve().parent
LAB_CASES = [case for case in load_corpus() if case.scenario.get("kind") == "gateway" and case.scenario["rules"] == "lab-001"]
CROSS_TENANT = [case.id for case in LAB_CASES if "cross-tenant" in case.id]


def _wrong_cases() -> list[str]:
    from gateways import cross_tenant_gateway

    return [case.id for case in LAB_CASES if cross_tenant_gateway.run(case.scenario) != case.expected]


#: The corpus cases the cross-tenant gateway gets wrong, found by running it here.
WRONG_CASES = _wrong_cases()


def ini(implementation: str = "gateways.lab_gateway:run", examples: int = 30, **more: str) -> str:
    """A tox.ini of a project testing one gateway of tests/gateways for lab-001; ``more`` adds or replaces settings."""
    settings = {"pythonpath": str(TESTS), "gateproof_kinds": "gateway", "gateproof_rules": "lab-001",
                "gateproof_examples": str(examples), "gateproof_implementation": implementation, **more}
    return "[pytest]\n" + "".join(f"{name} = {value}\n" for name, value in settings.items() if value is not None)


def recorded(path: Path) -> list[dict]:
    """The scenarios the recording gateway was given, in order."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


#: What tells pytest (CI, BUILD_NUMBER) or hypothesis (its own list) that they run in CI, where both change behaviour.
CI_VARIABLES = sorted({"CI", "BUILD_NUMBER", "GITHUB_ACTIONS", "GITLAB_CI", "TF_BUILD", *getattr(hypothesis_settings, "_CI_VARS", ())})


def outside_ci(monkeypatch) -> None:
    """Run the inner pytest as on a developer's machine, even when this suite itself runs in CI."""
    for name in CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)
