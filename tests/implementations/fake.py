"""What every misbehaving implementation shares: the protocol loop, and the model's right answer.

Each script beside this one breaks the protocol or the rules in one way, on
the scenarios whose id ends in ``.fault`` (or everywhere, if that is its
fault), and answers every other scenario correctly.
"""

from __future__ import annotations

import json
import os
import sys

from gateproof.conformance.harness.documents import COMMAND_DEPTH, dumps, parse_json
from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.versions import VERSIONS

RULES = [*VERSIONS, *GATEWAY_VERSIONS]


def started(name: str, rules=RULES) -> dict:
    return {"started": {"protocol": 1, "name": name, "version": "0", "language": "python", "homepage": "", "rules": list(rules), "kinds": ["ceiling", "gateway"]}}


def is_fault(scenario: dict) -> bool:
    return scenario.get("id", "").endswith(".fault")


def right(seq: int, scenario: dict) -> dict:
    return {"seq": seq, "outcome": run_scenario(read_scenario(scenario))}


def wrong(seq: int, scenario: dict) -> dict:
    """A valid outcome that is wrong at every strictness: its last result is missing."""
    reply = right(seq, scenario)
    reply["outcome"]["results"] = reply["outcome"]["results"][:-1]
    return reply


def serve(name: str, answer, arrange=lambda lines: lines, rules=RULES) -> None:
    """Answer each run with the lines ``answer(seq, scenario)`` gives; ``arrange`` orders one batch of replies; ``rules`` are declared."""
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        *lines, pending = (pending + chunk).split(b"\n")
        replies = []
        for line in filter(None, lines):
            message = parse_json(line, repeats=None, limit=None, depth=COMMAND_DEPTH)  # as the harness writes it: repeated keys kept
            if message["cmd"] == "stop":
                return
            if message["cmd"] == "start":
                replies.append(json.dumps(started(name, rules)))
            else:
                replies += [r if isinstance(r, str) else dumps(r).decode() for r in answer(message["seq"], message["scenario"])]
        sys.stdout.write("".join(r + "\n" for r in arrange(replies)))
        sys.stdout.flush()
