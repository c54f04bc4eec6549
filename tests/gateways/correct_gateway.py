"""A small Python gateway that gets the lab's rules right: it asks the model, as a gateway built on gateproof could."""

from gateproof.model.scenario import read_scenario, run_scenario


def run(scenario: dict) -> dict:
    return run_scenario(read_scenario(scenario))
