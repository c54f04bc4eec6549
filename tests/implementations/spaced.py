"""Answers every run rightly, written as the standard library writes JSON: spaces after separators, keys in reverse order."""

import json

from fake import right, serve


def answer(seq, scenario):
    reply = right(seq, scenario)
    return [json.dumps(dict(reversed(list(reply.items()))), ensure_ascii=True)]


serve("spaced", answer)
