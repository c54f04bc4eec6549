"""Declares every rule version but the default (the latest ADR), as an implementation that has not learned the newest ADR
yet; decides each scenario right under the version it names, and one that names none under the version before the default."""

from fake import RULES, right, serve
from gateproof.model.versions import ADR_SEQUENCE, DEFAULT_VERSION

BEHIND = ADR_SEQUENCE[ADR_SEQUENCE.index(DEFAULT_VERSION) - 1]


def answer(seq: int, scenario: dict) -> list[dict]:
    if scenario.get("kind", "ceiling") == "ceiling" and "rules" not in scenario:
        scenario = {**scenario, "rules": BEHIND}
    return [right(seq, scenario)]


serve("behind", answer, rules=[rules for rules in RULES if rules != DEFAULT_VERSION])
