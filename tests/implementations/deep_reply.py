"""Answers the fault scenario with a reply nested as deep as ``DEEP_REPLY_LEVELS`` says (66 unless told), the reply itself the first level."""

import os

from fake import is_fault, right, serve

LEVELS = int(os.environ.get("DEEP_REPLY_LEVELS", "66"))


def deep(seq: int) -> str:
    lists = LEVELS - 2  # the reply and its outcome are the first two levels
    return '{"seq": %d, "outcome": {"results": %s}}' % (seq, "[" * lists + "]" * lists)


serve("deep-reply", lambda seq, scenario: [deep(seq)] if is_fault(scenario) else [right(seq, scenario)])
