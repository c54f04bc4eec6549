"""Answers every run rightly; its replies to the first three runs carry 30 MB of spaces inside the JSON, well within the reply limit."""

import json

from fake import right, serve

PADDING = " " * (30 * 1024 * 1024)


def answer(seq, scenario):
    reply = json.dumps(right(seq, scenario))
    if seq > 3:
        return [reply]
    return ["{" + PADDING + reply[1:]]


serve("padded", answer)
