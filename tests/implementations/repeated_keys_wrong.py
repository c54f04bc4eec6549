"""Right on every scenario but those whose calls write an argument key twice: it answers their decision the other way.

Its disagreements are all on documents holding an object that repeats a
key, which the harness must shrink and report like any other.
"""

from fake import right, serve

from gateproof.model.scenario.document import RepeatedKeys


def answer(seq: int, scenario: dict) -> list[dict]:
    reply = right(seq, scenario)
    steps = scenario.get("steps", [])
    for step, result in zip(steps, reply["outcome"]["results"]):
        if isinstance(step.get("arguments"), RepeatedKeys):
            result["decision"] = "allow" if result["decision"] == "deny" else "deny"
    return [reply]


serve("repeated-keys-wrong", answer)
