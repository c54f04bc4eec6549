"""gateproof: an executable reference model of governance rules for LLM systems, and a conformance suite for them.

The public Python API, imported from here (``docs/api.md`` gives an example
of each):

- :func:`read_scenario` and :func:`run_scenario`: a scenario document read
  into model values (a :class:`ScenarioError` naming the field when it is
  invalid) and decided to its outcome document;
- :func:`ceiling_scenarios`, :func:`gateway_scenarios`,
  :func:`lifecycle_scenarios`: hypothesis strategies of scenario documents;
- :func:`serve` and :class:`Started`: a ``run(document) -> outcome``
  function behind the conformance protocol, for ``gateproof verify``.

Each name is imported on first use, so ``import gateproof`` stays cheap.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_MODULE_OF = {
    "ScenarioError": "gateproof.model.scenario",
    "read_scenario": "gateproof.model.scenario",
    "run_scenario": "gateproof.model.scenario",
    "ceiling_scenarios": "gateproof.conformance.generation.ceiling_strategies",
    "gateway_scenarios": "gateproof.conformance.generation.gateway_strategies",
    "lifecycle_scenarios": "gateproof.conformance.generation.lifecycle_strategies",
    "serve": "gateproof.conformance.implementations.serve",
    "Started": "gateproof.conformance.harness.protocol",
}
__all__ = ["__version__", *_MODULE_OF]


def __getattr__(name: str):
    if name in _MODULE_OF:
        return getattr(importlib.import_module(_MODULE_OF[name]), name)
    raise AttributeError(f"module 'gateproof' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULE_OF])
