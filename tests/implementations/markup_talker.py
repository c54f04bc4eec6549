"""Speaks in console markup: its name, its error messages and its stderr hold ``[bold]`` and ``[/path]``."""

import sys

from fake import right, serve


def answer(seq: int, scenario: dict) -> list:
    print("[/path] [bold]not markup[/bold]", file=sys.stderr, flush=True)
    if seq % 2:
        return [{"seq": seq, "errored": {"message": "cannot open [/path] for [bold]", "context": {}}}]
    return [right(seq, scenario)]


serve("[bold]talker[/bold]", answer)
