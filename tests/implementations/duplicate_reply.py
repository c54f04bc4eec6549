"""Answers the fault scenario twice, in the same batch of replies: pipelined, the second reply is a protocol violation."""

from fake import is_fault, right, serve


def answer(seq, scenario):
    reply = right(seq, scenario)
    return [reply, reply] if is_fault(scenario) else [reply]


serve("duplicate-reply", answer)
