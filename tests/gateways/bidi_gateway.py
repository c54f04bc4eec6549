"""A gateway that answers as the lab gateway does, but writes a right-to-left override and an ESC into every result's reason."""

from . import lab_gateway


def run(scenario: dict) -> dict:
    outcome = lab_gateway.run(scenario)
    for result in outcome["results"]:
        result["reason"] = "\u202etxt.exe\x1b[31m"
    return outcome
