"""Errors on the second gateway scenario generated for lab-001 and answers every other scenario wrongly."""

from fake import serve, wrong


def answer(seq: int, scenario: dict) -> list:
    if scenario.get("id") == "generated.lab-001.1":
        return [{"seq": seq, "errored": {"message": "cannot decide this one"}}]
    return [wrong(seq, scenario)]


serve("errs-once-then-wrong", answer)
