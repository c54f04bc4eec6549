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
import subprocess
import sys
import threading
import time

from attrs import evolve

from gateproof.model.scenario.document import read_object

from .answers import STILLBORN_EXIT
from .execute import CAUGHT, ERROR, STILLBORN, SURVIVED, Finding

#: The same hash seed for the pristine model's answers and every mutant's: nothing shown may depend on it, and nothing is left to chance.
ENVIRONMENT = {"PYTHONHASHSEED": "0"}


class DriverFailure(Exception):
    """The pristine model's answers could not be computed: no mutant can be judged against them."""


def answers_command(mutant_id: str | None) -> list[str]:
    return [sys.executable, "-m", "gateproof.conformance.mutation.answers", *([mutant_id] if mutant_id else [])]


def _run(mutant_id: str | None, timeout: float) -> tuple[int | None, bytes, bytes]:
    """The exit status (None when cut short by the timeout), stdout and stderr of one answers run."""
    try:
        done = subprocess.run(answers_command(mutant_id), stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
                              env={**os.environ, **ENVIRONMENT})
    except subprocess.TimeoutExpired as expired:
        return None, expired.stdout or b"", expired.stderr or b""
    return done.returncode, done.stdout, done.stderr


def read_answers(output: bytes) -> list[tuple[str, str, object]]:
    """(driver, id, answer) of each whole line; a line cut off, or not JSON, ends the list.

    Read with the standard parser: integers exact, a key written twice kept
    (a ``RepeatedKeys``), and no depth limit, since an answer holds a
    document of the deepest nesting allowed a level or more down.
    """
    found = []
    for line in output.splitlines():
        try:
            entry = json.loads(line, object_pairs_hook=read_object)
            found.append((entry["driver"], entry["id"], entry["answer"]))
        except Exception:  # noqa: BLE001 - a broken line ends what can be compared
            break
    return found


class Pristine:
    """The pristine model's answers, computed once, on first use, whichever thread asks first."""

    def __init__(self, timeout: float):
        self.timeout, self._lock, self._answers = timeout, threading.Lock(), None

    def answers(self) -> list[tuple[str, str, object]]:
        with self._lock:
            if self._answers is None:
                status, out, err = _run(None, self.timeout)
                if status != 0:
                    tail = err.decode("utf-8", "replace").strip().splitlines()[-5:]
                    raise DriverFailure(f"the pristine model's answers failed (exit status {status}): {' / '.join(tail)}")
                answers = read_answers(out)
                if len(answers) != len(out.splitlines()):
                    raise DriverFailure(f"the pristine model's answer {len(answers) + 1} cannot be read back")
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
    status, out, err = _run(finding.mutant, timeout)
    seconds = finding.seconds + time.perf_counter() - started
    if status == STILLBORN_EXIT:
        return evolve(finding, status=STILLBORN, seconds=seconds, detail="the mutant cannot be imported to answer the drivers")
    found = read_answers(out)
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

