"""Puts hostile text everywhere a report shows an implementation's words: its name, replies, messages, context and stderr.

Markup for HTML (``<script>``, ``onerror=``), Markdown (a code fence, table
pipes), console markup (``[bold]``), bidirectional controls (a right-to-left
override) and control characters, in the name it
answers start with, in a wrong outcome's field, in errored and skipped
messages, in an errored run's context, on stderr, and once as garbage on
stdout. Which scenario gets which is fixed by its id, so every run is alike.
"""

import sys
import zlib

import fake
from fake import right, serve

HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(2)> | a | b | ``` fence ``` ~~~ [bold]loud[/bold] [/path] \u202egnp.exe\u2066\u2069\u200f\u061c \x07\x1b[31m\x00\x0b"
NAME = f"hostile {HOSTILE}"
#: A message of several lines, one of them a bare fence that would close a code block of three backticks.
ERRORED = f"errored {HOSTILE}\n```\n<script>alert(3)</script>\n</details>"


def answer(seq: int, scenario: dict) -> list:
    choice = zlib.crc32(scenario.get("id", "").encode()) % 5
    sys.stderr.write(f"stderr says {HOSTILE}\n")
    sys.stderr.flush()
    if choice == 0:
        reply = right(seq, scenario)
        reply["outcome"]["scenario"] = HOSTILE
        return [reply]
    if choice == 1:
        return [{"seq": seq, "errored": {"message": ERRORED, "context": {"traceback": f"Traceback {HOSTILE}\n  line 2"}}}]
    if choice == 2:
        return [{"seq": seq, "skipped": {"message": f"skipped {HOSTILE}"}}]
    if choice == 3 and scenario.get("id", "").startswith("gw.cross-tenant"):
        return [f"garbage {HOSTILE}"]
    return [right(seq, scenario)]


def started(name: str, rules=fake.RULES) -> dict:
    """The fake's start, with links a page must not follow: a script address, and an address carrying markup."""
    message = STARTED(name, rules)
    message["started"].update(homepage="javascript:alert(5)", issues='https://example.org/issues?q="><script>alert(6)</script>')
    return message


STARTED, fake.started = fake.started, started
serve(NAME, answer)
