"""Answers the fault scenario once, then again, late: just before its answer to the next run it is sent."""

from fake import is_fault, right, serve

owed = []


def answer(seq, scenario):
    late, owed[:] = list(owed), []
    reply = right(seq, scenario)
    if is_fault(scenario):
        owed.append(reply)
    return [*late, reply]


serve("late-duplicate", answer)
