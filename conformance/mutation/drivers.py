"""The drivers run after verify on a mutant it did not catch: the refusal corpus, and explain's traces.

verify compares outcomes of valid documents. A mutant can still change what
a person is shown: how ``gateproof decide`` refuses an invalid document (the
field, the message), or what ``gateproof explain`` says. Each such mutant is
run once more, in a subprocess with the mutant installed
(:mod:`.answers`), and every answer is compared with the pristine model's,
computed the same way once per run; the first that differs catches it,
named by its driver (``refusals`` or ``explain``) and its case.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

from attrs import evolve

from gateproof.model.scenario.document import read_object

from .answers import STILLBORN_EXIT
from .execute import CAUGHT, ERROR, STILLBORN, SURVIVED, Finding

#: The same hash seed for the pristine model's answers and every mutant's: nothing shown may depend on it, and nothing is left to chance.
ENVIRONMENT = {"PYTHONHASHSEED": "0"}
READER_GRACE = 10.0  # seconds the reader of a finished run's output is given to reach its end


class DriverFailure(Exception):
    """The pristine model's answers could not be computed: no mutant can be judged against them."""


def answers_command(mutant_id: str | None) -> list[str]:
    return [sys.executable, "-m", "gateproof.conformance.mutation.answers", *([mutant_id] if mutant_id else [])]


def _run(mutant_id: str | None, timeout: float, expected: list | None = None) -> tuple[int | None, list, bool, bytes]:
    """The exit status (None when cut short), the answers read, whether they were all the output, and the stderr of one answers run.

    Each answer is read as it is written. Given the model's answers
    (``expected``), the run is ended at the first that differs: what follows
    cannot change the finding, and a mutant that answers one document wrong
    may never end on the next (a value holding itself, walked without end).
    """
    deadline = time.monotonic() + timeout
    found: list = []
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(answers_command(mutant_id), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err,
                                   env={**os.environ, **ENVIRONMENT})
        lines: queue.SimpleQueue = queue.SimpleQueue()
        reader = threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True)
        reader.start()
        status, line = None, b""
        try:
            while (entry := _read_answer(line := _next_line(lines, deadline))) is not None:  # a broken line ends what can be compared
                found.append(entry)
                if expected is not None and (len(found) > len(expected) or entry != expected[len(found) - 1]):
                    break
            else:
                status = _exit_status(process, deadline)
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
            reader.join(READER_GRACE)  # the pipe's writer is gone: the reader is at its end
            process.stdout.close()
        err.seek(0)
        return status, found, not line, err.read()


def _read_lines(stream, lines: queue.SimpleQueue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(b"")  # the end of the output


def _next_line(lines: queue.SimpleQueue, deadline: float) -> bytes:
    """The next line; empty at the end of the output or at the deadline."""
    try:
        return lines.get(timeout=max(0.0, deadline - time.monotonic()))
    except queue.Empty:
        return b""


def _exit_status(process: subprocess.Popen, deadline: float) -> int | None:
    try:
        return process.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return None


def _read_answer(line: bytes) -> tuple[str, str, object] | None:
    """(driver, id, answer) of one line; None when there is none, or it is cut off, or not JSON.

    Read with the standard parser: integers exact, a key written twice kept
    (a ``RepeatedKeys``), and no depth limit, since an answer holds a
    document of the deepest nesting allowed a level or more down.
    """
    if not line.endswith(b"\n"):
        return None
    try:
        entry = json.loads(line, object_pairs_hook=read_object)
        return entry["driver"], entry["id"], entry["answer"]
    except Exception:  # noqa: BLE001 - a broken line is no answer
        return None


class Pristine:
    """The pristine model's answers, computed once, on first use, whichever thread asks first."""

    def __init__(self, timeout: float):
        self.timeout, self._lock, self._answers = timeout, threading.Lock(), None

    def answers(self) -> list[tuple[str, str, object]]:
        with self._lock:
            if self._answers is None:
                status, answers, whole, err = _run(None, self.timeout)
                if status == 0 and not whole:
                    raise DriverFailure(f"the pristine model's answer {len(answers) + 1} cannot be read back")
                if status != 0:
                    tail = err.decode("utf-8", "replace").strip().splitlines()[-5:]
                    why = f"timed out after {self.timeout:g}s" if status is None else f"exit status {status}"
                    raise DriverFailure(f"the pristine model's answers failed ({why}, after {len(answers)} answers): {' / '.join(tail)}")
                self._answers = answers
            return self._answers


def first_difference(pristine: list, mutant: list) -> tuple[int, str, str, str] | None:
    """(position from 1, driver, case id, what differs) of the first answer the mutant gives otherwise; None when all agree."""
    for position, (expected, found) in enumerate(zip(pristine, mutant), start=1):
        if expected != found:
            driver, case_id, answer = expected
            return position, driver, case_id, differs(answer, found[2])
    if len(mutant) < len(pristine):
        driver, case_id, _ = pristine[len(mutant)]
        return len(mutant) + 1, driver, case_id, "no answer"
    return None


def differs(expected: object, found: object, path: str = "") -> str:
    """Where two answers first part, and how: ``refused.message: 'XX' where the model gives '$.id: ...'``."""
    if isinstance(expected, dict) and isinstance(found, dict) and expected.keys() == found.keys():
        key = next(k for k in expected if expected[k] != found[k])
        return differs(expected[key], found[key], f"{path}.{key}" if path else str(key))
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        index = next(i for i, (a, b) in enumerate(zip(expected, found)) if a != b)
        return differs(expected[index], found[index], f"{path}[{index}]")
    return f"{path or 'the answer'}: {_brief(found)} where the model gives {_brief(expected)}"


def _brief(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def drive(finding: Finding, pristine: Pristine, timeout: float) -> Finding:
    """A verify survivor judged again by the drivers: caught (its phase the driver, its counterexample the case), or the survivor as it was."""
    if finding.status != SURVIVED:
        return finding
    started = time.perf_counter()
    try:
        expected = pristine.answers()
    except DriverFailure as error:
        return evolve(finding, status=ERROR, detail=str(error))
    status, found, _, err = _run(finding.mutant, timeout, expected)
    seconds = finding.seconds + time.perf_counter() - started
    if status == STILLBORN_EXIT:
        return evolve(finding, status=STILLBORN, seconds=seconds, detail="the mutant cannot be imported to answer the drivers")
    if [(d, i) for d, i, _ in found] != [(d, i) for d, i, _ in expected[:len(found)]]:
        return evolve(finding, status=ERROR, seconds=seconds, detail="the mutant answered other cases than the model: did a corpus file change during the run?")
    difference = first_difference(expected, found)
    if difference is not None and difference[0] <= len(found):  # an answer given, and not the model's
        position, driver, case_id, what = difference
        return evolve(finding, status=CAUGHT, seconds=seconds, to_catch=position, counterexample=case_id, phase=driver, detail=what)
    if status != 0:
        why = f"timed out after {timeout:g}s" if status is None else f"exit status {status}"
        tail = " / ".join(err.decode("utf-8", "replace").strip().splitlines()[-3:])
        return evolve(finding, status=ERROR, seconds=seconds, detail=f"the drivers' answers {why} after {len(found)} of {len(expected)}: {tail}")
    return evolve(finding, seconds=seconds)

