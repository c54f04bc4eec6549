"""Any ``run(scenario) -> outcome`` function behind the conformance protocol, on stdin and stdout.

Input is read in whatever chunks arrive, and the replies to a chunk's lines
are written and flushed :data:`REPLIES_AT_ONCE` at a time and at its end: a
pipelining harness gets its replies in small batches while the rest are
decided, so it never waits for a whole chunk's worth (a chunk of 64 KiB can
hold dozens of runs), and a harness that waits for each reply gets it at once.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Callable

import orjson

from gateproof.conformance.harness.documents import COMMAND_DEPTH, dumps, parse_json
from gateproof.model.scenario import ScenarioError
from gateproof.conformance.harness.protocol import (Errored, Outcome, ProtocolError, Run, Skipped, Start, Started, Stop, outcome_line,
                                                    read_command)

#: Replies written together: few enough that the harness can check them and send more while the rest are decided.
REPLIES_AT_ONCE = 4


def answer(info: Started, run: Callable[[dict], dict], run_message: Run, skip_reason: Callable[[dict], str | None]):
    """The reply to one run: the outcome, skipped when the scenario is not decided here, errored on any failure."""
    scenario = run_message.scenario
    reason = skip_reason(scenario) if info.decides(scenario) else f"{info.name} decides {', '.join(info.kinds)} scenarios under {', '.join(info.rules)} only"
    if reason is not None:
        return Skipped(run_message.seq, reason, info.issues)
    try:
        return Outcome(run_message.seq, run(scenario))
    except Exception as error:  # an implementation's failure is a reply, never a crash
        return Errored(run_message.seq, f"{type(error).__name__}: {error}", {"traceback": traceback.format_exc()})


def reply_to(line: bytes, info: Started, run, skip_reason) -> bytes | None:
    """The reply line to one command line; None after stop."""
    try:
        command = read_command(parse_json(line, repeats=None, limit=None, depth=COMMAND_DEPTH))  # integers exact, repeated keys kept
    except (ScenarioError, ProtocolError, TypeError) as error:
        raise SystemExit(f"{info.name}: cannot read a command: {error}") from None
    if isinstance(command, Stop):
        return None
    if isinstance(command, Start):
        if command.version != info.protocol:
            raise SystemExit(f"{info.name}: speaks protocol {info.protocol}, asked for {command.version}")
        return orjson.dumps(info.serializable()) + b"\n"
    reply = answer(info, run, command, skip_reason)
    if type(reply) is Outcome and type(reply.outcome) is dict:
        # An integer seq and an object: the envelope is valid by construction (as the harness's run lines are), and not checked again.
        return outcome_line(reply.seq, dumps(reply.outcome)) + b"\n"
    return dumps(reply.serializable()) + b"\n"


def serve(info: Started, run: Callable[[dict], dict], skip_reason: Callable[[dict], str | None] = lambda scenario: None) -> None:
    """Answer commands on stdin until stop or end of input."""
    stdin, stdout = sys.stdin.fileno(), sys.stdout.buffer
    pending = b""
    while True:
        chunk = os.read(stdin, 1 << 16)
        if not chunk:
            return
        *lines, pending = (pending + chunk).split(b"\n")
        replies = []
        for line in lines:
            if not line.strip():
                continue
            reply = reply_to(line, info, run, skip_reason)
            if reply is None:
                stdout.write(b"".join(replies))
                stdout.flush()
                return
            replies.append(reply)
            if len(replies) == REPLIES_AT_ONCE:
                stdout.write(b"".join(replies))
                stdout.flush()
                replies = []
        stdout.write(b"".join(replies))
        stdout.flush()
