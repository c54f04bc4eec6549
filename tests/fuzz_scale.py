"""How many documents the input fuzzing tries: the suite's share by default, ``GATEPROOF_FUZZ`` times as many when asked (``make fuzz``)."""

import os

VARIABLE = "GATEPROOF_FUZZ"


def scale_problem() -> str | None:
    """What is wrong with ``GATEPROOF_FUZZ`` as set, or None (conftest refuses the run with it)."""
    value = os.environ.get(VARIABLE, "1")
    if value.isdigit() and int(value) >= 1:
        return None
    return f"{VARIABLE} must be a whole number of at least 1 (how many times the suite's share of documents to try), not {value!r}"


def fuzz_examples(count: int) -> int:
    """``count`` examples, times ``GATEPROOF_FUZZ``."""
    return count * (1 if scale_problem() else int(os.environ.get(VARIABLE, "1")))
