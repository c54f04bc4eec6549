"""One implementation process and its pipes: bytes out, complete lines in, and its whole process group ended on every exit path.

Each implementation starts in a session of its own, so it and everything it
starts (a launcher script that does not ``exec``, a worker it forks) share
one process group, and ending the implementation ends that group: when it
is stopped, restarted or timed out, when it closes its stdout, and when
``verify`` itself exits, normally, by an exception, or on SIGTERM, SIGINT or
SIGHUP (:func:`end_groups_on_signals`). A member that starts a session of its
own has left the group, and is out of reach.

The leader is never reaped before its group is killed: a reaped leader's
number may be given to another process, and a group killed by that number
could be someone else's.
"""

from __future__ import annotations

import atexit
import os
import select
import selectors
import signal
import subprocess
import threading
import time
from collections import deque
from typing import Callable

import orjson

from .protocol import Stop

#: Seconds an implementation that closed its stdout is given to exit before its group is killed; never more than the timeout.
EOF_GRACE = 1.0
#: The longest reply line the protocol allows (64 MiB): an outcome of a 16 MiB scenario fits; a stream that never ends a line does not.
MAX_REPLY_BYTES = 64 * 1024 * 1024
POLL = 0.01

_LIVE: set["Channel"] = set()  # channels whose process group has not been ended


class StartFailed(Exception):
    """The implementation could not be started, or did not answer ``start`` as the protocol says."""


class Broken(Exception):
    """The stream can no longer be trusted: the reason, and what the implementation last said on stderr."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def end_every_group() -> None:
    """End the process group of every implementation still running."""
    for channel in list(_LIVE):
        channel.end_group()


atexit.register(end_every_group)


def end_groups_on_signals(signals=(signal.SIGTERM, signal.SIGINT, signal.SIGHUP)) -> Callable[[], None]:
    """On any of ``signals``, end every implementation's group and exit with status 128 + the signal's number.

    Every signal after the first is ignored, to the end of the process: a
    second Ctrl-C while the groups end, or while Python unwinds and exits,
    must neither cut the ending short nor kill verify by the signal.

    Returns what puts the handlers found back, unless a signal came. Outside
    the main thread, where no handler can be set, it does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    received: list[int] = []

    def handler(number, frame):
        if received:
            return  # a second signal, come before the first's handler set them ignored
        received.append(number)
        for each in signals:
            signal.signal(each, signal.SIG_IGN)
        end_every_group()
        raise SystemExit(128 + number)

    found = {each: signal.signal(each, handler) for each in signals}

    def restore() -> None:
        if received:
            return  # the process is ending on a signal: the handlers it would restore would let a later one kill it
        for each, previous in found.items():
            signal.signal(each, previous)

    return restore


def _describe(found) -> str:
    if found.si_code == os.CLD_EXITED:
        return f"exited with status {found.si_status}"
    return f"was killed by signal {found.si_status}"


class Channel:
    """One running process: bytes out to its stdin, complete lines in from its stdout, its stderr's tail kept."""

    def __init__(self, argv: tuple[str, ...], environment: dict[str, str] | None = None):
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                                            start_new_session=True, env=environment)
        except OSError as error:
            raise StartFailed(f"cannot run {argv[0]}: {error.strerror or error}") from None
        self.ended = False
        _LIVE.add(self)
        self.selector = selectors.DefaultSelector()
        for stream in (self.process.stdout, self.process.stderr):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream.fileno(), selectors.EVENT_READ)
        os.set_blocking(self.process.stdin.fileno(), False)
        self.outgoing = bytearray()
        self.incoming = bytearray()  # the unfinished last line: appended to, never copied whole, so a long reply reads in linear time
        self.stderr_tail: deque[str] = deque(maxlen=20)
        self.stderr_ended = False
        self.stdin_registered = False

    @property
    def group(self) -> int:
        """The process group: the leader's number, since it starts a session of its own."""
        return self.process.pid

    def send(self, data: bytes) -> None:
        self.outgoing += data

    def flush(self) -> None:
        """Write what the pipe takes now, without waiting: the implementation starts on these runs while more are prepared."""
        if self.outgoing:
            self._write()

    def lines(self, timeout: float) -> list[bytes]:
        """The complete lines that arrive within ``timeout`` seconds, at least one; Broken on end of file or silence."""
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
                    found = self._read_stdout(timeout)
                    if found:
                        return found

    def _watch_stdin(self) -> None:
        wanted = bool(self.outgoing)
        if wanted != self.stdin_registered and not self.process.stdin.closed:
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

    def _read_stdout(self, timeout: float) -> list[bytes]:
        chunk = os.read(self.process.stdout.fileno(), 1 << 16)
        if not chunk:
            raise Broken(self._after_end_of_file(min(EOF_GRACE, timeout)))
        end = chunk.rfind(b"\n")
        if end < 0:
            self.incoming += chunk
            self._check_length(len(self.incoming))
            return []
        self.incoming += chunk[:end]
        found = bytes(self.incoming).split(b"\n")
        self.incoming = bytearray(chunk[end + 1:])
        self._check_length(max(len(self.incoming), *map(len, found)))
        return [line for line in found if line.strip()]

    def _check_length(self, length: int) -> None:
        if length > MAX_REPLY_BYTES:
            self.incoming = bytearray()
            raise Broken(f"wrote a line longer than {MAX_REPLY_BYTES} bytes, the most a reply may hold")

    def _after_end_of_file(self, grace: float) -> str:
        """Why the stream ended: how it exited, or that it closed its stdout and kept running (then its group is ended)."""
        status = self.exit_status(grace)
        self.end_group()
        return status or f"closed its stdout but kept running: killed after {grace:g}s"

    def _read_stderr(self) -> bool:
        """Read what stderr holds now into the tail; False once it has ended."""
        chunk = os.read(self.process.stderr.fileno(), 1 << 16)
        if not chunk:
            self.selector.unregister(self.process.stderr.fileno())
            self.stderr_ended = True
            return False
        self.stderr_tail.extend(chunk.decode("utf-8", "replace").splitlines())
        return True

    def stderr_so_far(self) -> list[str]:
        """The tail of stderr, with what was written to it before now read first: a reply on stdout can overtake it."""
        descriptor = self.process.stderr.fileno()
        while not self.stderr_ended and select.select([descriptor], [], [], 0)[0] and self._read_stderr():
            pass
        return list(self.stderr_tail)

    def exit_status(self, within: float) -> str | None:
        """How the leader exited, waiting up to ``within`` seconds for it; None while it runs. It is left unreaped."""
        if self.ended:
            return f"exited with status {self.process.returncode}"
        deadline = time.monotonic() + within
        while True:
            try:
                found = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return "exited"  # reaped elsewhere: how is not known
            if found is not None:
                return _describe(found)
            if time.monotonic() >= deadline:
                return None
            time.sleep(POLL)

    def end_group(self) -> None:
        """Kill every process of the group, then reap the leader; the leader's unreaped exit keeps the group's number ours."""
        if self.ended:
            return
        try:
            os.killpg(self.group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        # Reaped by hand, not by Popen.wait, whose lock a signal handler ending the same group would wait on for ever.
        try:
            _, status = os.waitpid(self.process.pid, 0)
            self.process.returncode = os.waitstatus_to_exitcode(status)
        except ChildProcessError:
            pass
        self.ended = True
        _LIVE.discard(self)

    def close(self, grace: float = 1.0) -> None:
        """Ask it to stop, give it ``grace`` seconds, then end its group."""
        try:
            if not self.ended and self.exit_status(0) is None:
                # Written without blocking: a process whose stdin is full is not listening, and is killed below.
                os.write(self.process.stdin.fileno(), orjson.dumps(Stop().serializable()) + b"\n")
                self.process.stdin.close()
                self.exit_status(grace)
        except OSError:
            pass
        self.end_group()
        self.selector.close()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except OSError:
                pass
