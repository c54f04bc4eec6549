"""Scenario and outcome documents: reading them, and running a scenario through the rules."""

from .errors import ScenarioError
from .read import read_scenario
from .story import run_scenario

__all__ = ["ScenarioError", "read_scenario", "run_scenario"]
