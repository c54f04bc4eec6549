"""A gateway with one bug: it never compares the case's tenant with the session's.

It files every case under the calling session's tenant before deciding, the
way a gateway that looks a case up by id alone behaves.
"""

import copy

from . import lab_gateway


def run(scenario: dict) -> dict:
    blind = copy.deepcopy(scenario)
    tenant_of_session = {session["id"]: session["tenant"] for session in blind["world"]["sessions"]}
    caller = next((step["session"] for step in blind["steps"] if step["op"] == "call"), None)
    for case in blind["world"].get("cases", ()):
        if caller in tenant_of_session:
            case["tenant"] = tenant_of_session[caller]
    return lab_gateway.run(blind)
