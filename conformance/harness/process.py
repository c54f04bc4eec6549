"""Driving one implementation as a subprocess: start, pipelined runs, timeouts, restarts. Never through a shell.

Runs are pipelined: up to ``window`` are in flight, and replies are matched
by ``seq`` in whatever order they come. A fault that cannot be pinned on one
run (the process exits, stops answering for ``timeout`` seconds, prints a line
that is not a reply, or answers a ``seq`` nobody asked for) costs a restart,
after which the runs that were in flight are sent again one at a time, so
each fault lands on the run that causes it and no other run's result is lost.

A second reply to a run already answered is that run's protocol violation:
handed to ``on_duplicate`` with the run's scenario, whenever it comes, and
never read as the reply of a run still waiting. Replies are matched by
``seq``, so the stream stays trusted and nothing is restarted for it.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Callable, Iterable, Iterator

import orjson

from gateproof.model.scenario import ScenarioError

from .documents import COMMAND_DEPTH, dumps, parse_json
from .channel import Broken, Channel, StartFailed
from .protocol import Errored, Outcome, ProtocolError, RunReply, Start, Started, outcome_line, read_run_reply, read_started, run_line

__all__ = ["Broken", "ImplementationProcess", "StartFailed"]


#: Runs written to the pipe together while a pipeline fills: sooner keeps the implementation busy, in batches keeps wake-ups few.
FLUSH_EVERY = 16
#: Answered runs remembered by seq, so a late second reply is pinned on its own run; an older seq reads as not in flight.
#: Each is kept as its run line: one bytes object, where the scenario is a tree of hundreds, and thousands of such trees
#: kept alive make every allocation of a campaign dearer (valgrind counts 1.3% more of the harness's instructions).
REMEMBERED = 4096


def unreadable_reply(line: bytes, error: ScenarioError) -> str:
    """Why a reply line could not be read: nested deeper than the protocol allows, or not JSON at all."""
    if error.problem.startswith("nested more than"):
        return (f"printed a reply nested more than {COMMAND_DEPTH} levels deep (at {error.path}): the protocol allows "
                f"an outcome {COMMAND_DEPTH - 1} levels, one level down in its reply (PROTOCOL.md, Sizes and limits)")
    return f"printed a line that is not JSON: {line[:80]!r}"


#: Seconds an implementation has to answer ``start``, after a restart too: an interpreter, a server and a connection to it
#: start on a loaded machine in far more than a reply takes (PROTOCOL.md, start).
DEFAULT_START_TIMEOUT = 60.0


class ImplementationProcess:
    """An implementation behind the protocol: started once, restarted whenever it breaks."""

    def __init__(self, argv: Iterable[str], timeout: float = 10.0, window: int = 64,
                 on_duplicate: Callable[[dict, Errored], None] | None = None, environment: dict[str, str] | None = None,
                 start_timeout: float = DEFAULT_START_TIMEOUT):
        self.argv = tuple(argv)
        self.environment = environment  # None: verify's own
        self.timeout = timeout
        # Starting is slower than answering (an interpreter, a server, a connection): its own allowance, never less than a reply's.
        self.start_timeout = max(timeout, start_timeout)
        self.window = window
        self.on_duplicate = on_duplicate or self._note_duplicate
        self.seq = 0
        self.restarts = 0
        self.reordered = 0  # replies that overtook an earlier run: allowed, and counted
        self.notes: list[str] = []
        self.channel: Channel | None = None
        self.info: Started | None = None
        self.pipelined = 0  # runs of run_many in flight: while any are, no run may be sent alone
        # Seconds from the reply before the last one (or the first run sent) to the last: with runs in flight,
        # what answering that run added to the whole; a run alone, how long it took.
        self.reply_seconds = 0.0
        self.answered: OrderedDict[int, bytes] = OrderedDict()  # the run lines of the latest runs this process answered, by seq

    def start(self) -> Started:
        channel = Channel(self.argv, self.environment)
        channel.send(orjson.dumps(Start().serializable()) + b"\n")
        try:
            line = channel.lines(self.start_timeout)[0]
            info = read_started(orjson.loads(line))
        except (Broken, orjson.JSONDecodeError, ProtocolError) as error:
            channel.close(0)
            tail = "; ".join(channel.stderr_tail)
            raise StartFailed(f"did not answer start: {error}" + (f" (stderr: {tail})" if tail else "")) from None
        if info.protocol != Start().version:
            channel.close()
            raise StartFailed(f"speaks protocol {info.protocol}, the harness speaks {Start().version}")
        if self.info is not None and info != self.info:
            self.notes.append(f"answered start differently after a restart: {info.name} {info.version}")
        self.channel, self.info = channel, info
        self.answered.clear()  # a new process was sent none of the earlier runs
        return info

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()
            self.channel = None

    def _restart(self, reason: str) -> None:
        self.restarts += 1
        self.notes.append(f"restarted after: {reason}")
        self.channel.close(0)
        self.start()

    def _send(self, scenario: dict) -> tuple[int, bytes]:
        """The run's seq and the line sent for it."""
        self.seq += 1
        line = run_line(self.seq, dumps(scenario))
        self.channel.send(line)
        return self.seq, line

    def _lines(self, deadline: float) -> list[bytes]:
        """Lines that arrive before ``deadline``: the timeout counts from the last run answered, not the last line."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Broken(f"no reply within {self.timeout:g}s")
        try:
            return self.channel.lines(remaining)
        except Broken as broken:
            if broken.reason.startswith("no reply within"):
                raise Broken(f"no reply within {self.timeout:g}s") from None
            raise

    def _reply(self, line: bytes, inflight) -> RunReply | None:
        """The reply a line carries, or None for a second reply to a run already answered (handed to ``on_duplicate``).

        A reply whose seq is in flight but whose body breaks the schema is its run's error.
        """
        try:
            # Integers exact, repeated keys kept; a reply holds its outcome one level down, as a run holds its scenario.
            message = parse_json(line, repeats=None, limit=None, depth=COMMAND_DEPTH)
        except ScenarioError as error:
            raise Broken(unreadable_reply(line, error)) from None
        seq = message.get("seq") if isinstance(message, dict) else None
        if type(seq) is int and seq not in inflight and seq in self.answered:
            detail = {"fault": "duplicate", "reply": line[:2000].decode("utf-8", "replace")}
            self.on_duplicate(self._answered_scenario(seq), Errored(seq, f"answered run {seq} more than once: a run has exactly one reply", detail))
            return None
        if type(seq) is not int or seq not in inflight:
            raise Broken(f"answered seq {seq!r}, which is not in flight")
        try:
            reply = read_run_reply(message)
        except ProtocolError as error:
            return Errored(seq, f"reply breaks the protocol: {error}", {"fault": "schema", "reply": line[:2000].decode("utf-8", "replace")})
        if isinstance(reply, Errored) and "stderr" not in reply.context:
            # An implementation that caught its own error has usually said more on stderr than in its message.
            tail = self.channel.stderr_so_far()
            if tail:
                reply = Errored(reply.seq, reply.message, {**reply.context, "stderr": tail})
        return reply

    def _remember(self, seq: int, line: bytes) -> None:
        self.answered[seq] = line
        if len(self.answered) > REMEMBERED:
            self.answered.popitem(last=False)

    def _answered_scenario(self, seq: int) -> dict:
        """The scenario of an answered run, read back from its run line exactly (integers at any size, repeated keys kept)."""
        return parse_json(self.answered[seq], repeats=None, limit=None, depth=COMMAND_DEPTH)["scenario"]

    def _note_duplicate(self, scenario: dict, errored: Errored) -> None:
        self.notes.append(f"{scenario.get('id', '')}: {errored.message}")

    def run_many(self, scenarios: Iterable[dict], expect: Callable[[dict], dict | None] | None = None) -> Iterator[tuple[dict, RunReply]]:
        """Each scenario with its reply, as replies arrive; up to ``window`` in flight.

        ``expect`` gives the outcome a scenario is expected to have (or None),
        asked once the scenario is drawn: a reply line that is, byte for byte,
        that outcome as compact JSON in its reply (what a correct
        implementation writing JSON as orjson does sends) is read as that very
        outcome, without parsing and checking it again. Any other line is read
        in full.

        A consumer that stops early leaves no reply behind: what is still in
        flight is read and dropped, so the next run's reply is its own.
        """
        pending = iter(scenarios)
        answered_at = None
        inflight: OrderedDict[int, tuple[dict, bytes]] = OrderedDict()  # seq -> the scenario and its run line
        agreeing: dict[int, tuple[bytes, dict]] = {}  # seq -> the reply line that carries the expected outcome, and that outcome
        exhausted, deadline = False, None  # the timeout runs from the last run answered: a flood of duplicates does not reset it
        try:
            while inflight or not exhausted:
                while not exhausted and len(inflight) < self.window:
                    scenario = next(pending, None)
                    if scenario is None:
                        exhausted = True
                    else:
                        seq, sent = self._send(scenario)
                        answered_at = answered_at or time.monotonic()
                        inflight[seq] = scenario, sent
                        outcome = None if expect is None else expect(scenario)
                        if outcome is not None:
                            agreeing[seq] = outcome_line(seq, dumps(outcome)), outcome
                        if len(inflight) % FLUSH_EVERY == 0:
                            self.channel.flush()
                if not inflight:
                    return
                self.pipelined = len(inflight)
                deadline = deadline or time.monotonic() + self.timeout
                try:
                    for line in self._lines(deadline):
                        oldest = next(iter(inflight), None)  # none left: a line now is a second reply, or a broken stream
                        known = agreeing.get(oldest)
                        if known is not None and line == known[0]:
                            reply = Outcome(oldest, known[1])
                        else:
                            reply = self._reply(line, inflight)
                            if reply is None:
                                continue
                        agreeing.pop(reply.seq, None)
                        if reply.seq != oldest:
                            self.reordered += 1
                        scenario, sent = inflight.pop(reply.seq)
                        self._remember(reply.seq, sent)
                        self.pipelined, deadline = len(inflight), None
                        now = time.monotonic()
                        self.reply_seconds, answered_at = now - answered_at, now
                        yield scenario, reply
                except Broken as broken:
                    self._restart(broken.reason)
                    retried = [scenario for scenario, _ in inflight.values()]
                    inflight.clear()
                    agreeing.clear()
                    self.pipelined, deadline = 0, None
                    for scenario in retried:
                        yield scenario, self.run_one(scenario)
        except GeneratorExit:
            self._drain(inflight)
            raise
        finally:
            self.pipelined = 0

    def _drain(self, inflight: OrderedDict[int, tuple[dict, bytes]]) -> None:
        """Read and drop the replies still owed; a stream that breaks meanwhile is restarted."""
        try:
            deadline = time.monotonic() + self.timeout
            while inflight:
                for line in self._lines(deadline):
                    reply = self._reply(line, inflight)
                    if reply is not None:
                        self._remember(reply.seq, inflight.pop(reply.seq)[1])
                        deadline = time.monotonic() + self.timeout
        except Broken as broken:
            self._restart(broken.reason)
        inflight.clear()
        self.pipelined = 0

    def run_one(self, scenario: dict) -> RunReply:
        """One scenario alone: whatever goes wrong is this scenario's error, and the process is restarted for the next.

        Never while pipelined runs are in flight: their replies would be read
        as this run's, and a sound implementation blamed for the harness's mistake.
        A late second reply to an earlier run is that run's, and this one waits on for its own.
        """
        if self.pipelined:
            raise RuntimeError(f"run_one while {self.pipelined} pipelined runs are in flight")
        seq, sent = self._send(scenario)
        sent_at = time.monotonic()
        deadline = sent_at + self.timeout
        try:
            reply = None
            while reply is None:
                lines = self._lines(deadline)
                while lines and reply is None:
                    reply = self._reply(lines.pop(0), {seq})
            self._remember(seq, sent)
            self.reply_seconds = time.monotonic() - sent_at
            for line in lines:
                self._reply(line, ())  # nothing else is in flight: a second reply to this run, or a broken stream
            return reply
        except Broken as broken:
            context = {"fault": broken.reason, "stderr": list(self.channel.stderr_tail)}
            self._restart(broken.reason)
            return Errored(seq, broken.reason, context)
