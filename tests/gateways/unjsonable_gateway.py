"""A gateway whose outcome holds, in its first result, a value JSON cannot carry, chosen by the environment's GATEWAY_VALUE."""

import os

from . import lab_gateway


def value():
    kind = os.environ["GATEWAY_VALUE"]
    if kind == "cycle":
        looped: list = []
        looped.append(looped)
        return looped
    return {"set": {"a"}, "bytes": b"x", "int-key": {1: "one"}, "huge": 10**10000, "nan": float("nan")}[kind]


def run(scenario: dict) -> dict:
    outcome = lab_gateway.run(scenario)
    outcome["results"][0]["reads"] = value()
    return outcome
