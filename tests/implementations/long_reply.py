"""Answers every scenario with its outcome's last message replaced by ``LONG_REPLY_CHARACTERS`` x's (a million unless told): a long, wrong reply."""

import os

from fake import right, serve

LENGTH = int(os.environ.get("LONG_REPLY_CHARACTERS", "1000000"))


def answer(seq: int, scenario: dict) -> list:
    reply = right(seq, scenario)
    reply["outcome"]["results"][-1]["message"] = "x" * LENGTH
    return [reply]


serve("long-reply", answer)
