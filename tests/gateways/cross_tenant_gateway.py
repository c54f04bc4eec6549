"""A small Python gateway with one bug: it never compares the case's tenant with the session's.

It stores its cases with the session's own tenant before asking the model,
the way a gateway that looks a case up by id alone would behave.
"""

import copy

from gateproof.model.scenario import read_scenario, run_scenario


def run(scenario: dict) -> dict:
    blind = copy.deepcopy(scenario)
    tenant_of_session = {session["id"]: session["tenant"] for session in blind["world"]["sessions"]}
    caller = next((step["session"] for step in blind["steps"] if step["op"] == "call"), None)
    for case in blind["world"].get("cases", ()):
        if caller in tenant_of_session:
            case["tenant"] = tenant_of_session[caller]
    return run_scenario(read_scenario(blind))
