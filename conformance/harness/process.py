"""Driving one implementation as a subprocess: start, pipelined runs, timeouts, restarts. Never through a shell.

Runs are pipelined: up to ``window`` are in flight, and replies are matched
by ``seq`` in whatever order they come. A fault that cannot be pinned on one
run (the process exits, stops answering for ``timeout`` seconds, prints a line
that is not a reply, or answers a ``seq`` nobody asked for) costs a restart,
after which the runs that were in flight are sent again one at a time, so
each fault lands on the run that causes it and no other run's result is lost.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import time
from collections import OrderedDict, deque
from typing import Iterable, Iterator

import orjson

from gateproof.model.scenario import ScenarioError

from ..documents import dumps, parse_json
from .protocol import Errored, ProtocolError, Run, RunReply, Start, Started, Stop, read_run_reply, read_started


#: Runs written to the pipe together while a pipeline fills: sooner keeps the implementation busy, in batches keeps wake-ups few.
FLUSH_EVERY = 16


class StartFailed(Exception):
    """The implementation could not be started, or did not answer ``start`` as the protocol says."""


class Broken(Exception):
    """The stream can no longer be trusted: the reason, and what the implementation last said on stderr."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Channel:
    """One running process: bytes out to its stdin, complete lines in from its stdout, its stderr's tail kept."""

    def __init__(self, argv: tuple[str, ...]):
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        except OSError as error:
            raise StartFailed(f"cannot run {argv[0]}: {error.strerror or error}") from None
        self.selector = selectors.DefaultSelector()
        for stream in (self.process.stdout, self.process.stderr):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream.fileno(), selectors.EVENT_READ)
        os.set_blocking(self.process.stdin.fileno(), False)
        self.outgoing = bytearray()
        self.incoming = bytearray()  # the unfinished last line: appended to, never copied whole, so a long reply reads in linear time
        self.stderr_tail: deque[str] = deque(maxlen=20)
        self.stdin_registered = False

    def send(self, data: bytes) -> None:
        self.outgoing += data

    def flush(self) -> None:
        """Write what the pipe takes now, without waiting: the implementation starts on these runs while more are prepared."""
        if self.outgoing:
            self._write()

    def lines(self, timeout: float) -> list[bytes]:
        """The complete lines that arrive within ``timeout`` seconds, at least one; Broken on exit or silence."""
        deadline = time.monotonic() + timeout
        while True:
            self._watch_stdin()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Broken(f"no reply within {timeout:g}s")
            for key, events in self.selector.select(remaining):
                if events & selectors.EVENT_WRITE:
                    self._write()
                elif key.fd == self.process.stderr.fileno():
                    self._read_stderr()
                else:
                    found = self._read_stdout()
                    if found:
                        return found

    def _watch_stdin(self) -> None:
        wanted = bool(self.outgoing)
        if wanted != self.stdin_registered and self.process.stdin is not None:
            if wanted:
                self.selector.register(self.process.stdin.fileno(), selectors.EVENT_WRITE)
            else:
                self.selector.unregister(self.process.stdin.fileno())
            self.stdin_registered = wanted

    def _write(self) -> None:
        try:
            written = os.write(self.process.stdin.fileno(), self.outgoing)
        except BlockingIOError:
            return
        except BrokenPipeError:
            self.outgoing.clear()  # it stopped reading; its exit shows on stdout
            return
        del self.outgoing[:written]

    def _read_stdout(self) -> list[bytes]:
        chunk = os.read(self.process.stdout.fileno(), 1 << 16)
        if not chunk:
            status = self.process.wait()
            raise Broken(f"exited with status {status}")
        end = chunk.rfind(b"\n")
        if end < 0:
            self.incoming += chunk
            return []
        self.incoming += chunk[:end]
        found = bytes(self.incoming).split(b"\n")
        self.incoming = bytearray(chunk[end + 1:])
        return [line for line in found if line.strip()]

    def _read_stderr(self) -> None:
        chunk = os.read(self.process.stderr.fileno(), 1 << 16)
        if not chunk:
            self.selector.unregister(self.process.stderr.fileno())
            return
        self.stderr_tail.extend(chunk.decode("utf-8", "replace").splitlines())

    def close(self, grace: float = 1.0) -> None:
        """Ask it to stop, then make sure it has."""
        try:
            if self.process.poll() is None:
                # Written without blocking: a process whose stdin is full is not listening, and is killed below.
                os.write(self.process.stdin.fileno(), orjson.dumps(Stop().serializable()) + b"\n")
                self.process.stdin.close()
                self.process.wait(grace)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.selector.close()
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()


class ImplementationProcess:
    """An implementation behind the protocol: started once, restarted whenever it breaks."""

    def __init__(self, argv: Iterable[str], timeout: float = 10.0, window: int = 64):
        self.argv = tuple(argv)
        self.timeout = timeout
        self.window = window
        self.seq = 0
        self.restarts = 0
        self.reordered = 0  # replies that overtook an earlier run: allowed, and counted
        self.notes: list[str] = []
        self.channel: Channel | None = None
        self.info: Started | None = None
        self.pipelined = 0  # runs of run_many in flight: while any are, no run may be sent alone

    def start(self) -> Started:
        channel = Channel(self.argv)
        channel.send(orjson.dumps(Start().serializable()) + b"\n")
        try:
            line = channel.lines(self.timeout)[0]
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

    def _send(self, scenario: dict) -> int:
        self.seq += 1
        self.channel.send(dumps(Run(self.seq, scenario).serializable()) + b"\n")
        return self.seq

    def _reply(self, line: bytes, inflight) -> RunReply:
        """The reply a line carries; a reply whose seq is in flight but whose body breaks the schema is its run's error."""
        try:
            message = parse_json(line, repeats=None, limit=None)  # integers exact, repeated keys kept
        except ScenarioError:
            raise Broken(f"printed a line that is not JSON: {line[:80]!r}") from None
        seq = message.get("seq") if isinstance(message, dict) else None
        if not isinstance(seq, int) or seq not in inflight:
            raise Broken(f"answered seq {seq!r}, which is not in flight")
        try:
            return read_run_reply(message)
        except ProtocolError as error:
            return Errored(seq, f"reply breaks the protocol: {error}", {"fault": "schema", "reply": line[:2000].decode("utf-8", "replace")})

    def run_many(self, scenarios: Iterable[dict]) -> Iterator[tuple[dict, RunReply]]:
        """Each scenario with its reply, as replies arrive; up to ``window`` in flight.

        A consumer that stops early leaves no reply behind: what is still in
        flight is read and dropped, so the next run's reply is its own.
        """
        pending = iter(scenarios)
        inflight: OrderedDict[int, dict] = OrderedDict()
        exhausted = False
        try:
            while inflight or not exhausted:
                while not exhausted and len(inflight) < self.window:
                    scenario = next(pending, None)
                    if scenario is None:
                        exhausted = True
                    else:
                        inflight[self._send(scenario)] = scenario
                        if len(inflight) % FLUSH_EVERY == 0:
                            self.channel.flush()
                if not inflight:
                    return
                self.pipelined = len(inflight)
                try:
                    for line in self.channel.lines(self.timeout):
                        reply = self._reply(line, inflight)
                        if reply.seq != next(iter(inflight)):
                            self.reordered += 1
                        scenario = inflight.pop(reply.seq)
                        self.pipelined = len(inflight)
                        yield scenario, reply
                except Broken as broken:
                    self._restart(broken.reason)
                    retried = list(inflight.values())
                    inflight.clear()
                    self.pipelined = 0
                    for scenario in retried:
                        yield scenario, self.run_one(scenario)
        except GeneratorExit:
            self._drain(inflight)
            raise
        finally:
            self.pipelined = 0

    def _drain(self, inflight: OrderedDict[int, dict]) -> None:
        """Read and drop the replies still owed; a stream that breaks meanwhile is restarted."""
        try:
            while inflight:
                for line in self.channel.lines(self.timeout):
                    inflight.pop(self._reply(line, inflight).seq)
        except Broken as broken:
            self._restart(broken.reason)
        inflight.clear()
        self.pipelined = 0

    def run_one(self, scenario: dict) -> RunReply:
        """One scenario alone: whatever goes wrong is this scenario's error, and the process is restarted for the next.

        Never while pipelined runs are in flight: their replies would be read
        as this run's, and a sound implementation blamed for the harness's mistake.
        """
        if self.pipelined:
            raise RuntimeError(f"run_one while {self.pipelined} pipelined runs are in flight")
        seq = self._send(scenario)
        try:
            lines = self.channel.lines(self.timeout)
            reply = self._reply(lines[0], {seq})
            if len(lines) > 1:
                raise Broken(f"answered run {seq} {len(lines)} times")
            return reply
        except Broken as broken:
            context = {"fault": broken.reason, "stderr": list(self.channel.stderr_tail)}
            self._restart(broken.reason)
            return Errored(seq, broken.reason, context)
