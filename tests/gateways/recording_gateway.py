"""The lab-001 gateway, or the cross-tenant one, writing every scenario it is given to a file: what a test reads back."""

import json
import os

from . import cross_tenant_gateway, lab_gateway


def run(scenario: dict) -> dict:
    with open(os.environ["GATEPROOF_RECORD"], "a", encoding="utf-8") as record:
        record.write(json.dumps(scenario, sort_keys=True) + "\n")
    wrong = os.environ.get("GATEPROOF_WRONG") == "cross-tenant"
    return (cross_tenant_gateway if wrong else lab_gateway).run(scenario)
