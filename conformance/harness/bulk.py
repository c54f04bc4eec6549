"""Deciding many scenarios, one JSON document per line, in one process or several.

Each line is decided on its own, so lines can go to worker processes in
chunks and come back in input order. Memory stays flat on an endless
stream: at most :data:`AHEAD` chunks per worker are in flight, and the next
chunk is read only when the oldest one's outcomes have been handed on.
Whoever reads :func:`decide_lines` decides what an invalid line does; the
generator holds the worker pool, so it must be closed (``with`` it, or run it
to its end) before the process exits, and :func:`decisions` does just that.
"""

from __future__ import annotations

import math
import os
from collections import deque
from contextlib import contextmanager
from itertools import islice
from typing import Iterable, Iterator

from attrs import evolve

from gateproof.model.scenario import ScenarioError, run_scenario
from gateproof.model.scenario.read import Scenario, read_valid_scenario, validated
from gateproof.model.versions import VERSIONS

from .documents import dumps, parse_json

#: Lines handed to a worker at a time: large enough that the hand-over costs
#: little beside deciding them, small enough that a second worker starts soon.
CHUNK = 256
#: Chunks in flight per worker: one being decided, one waiting, so no worker idles while the reader catches up.
AHEAD = 2
#: Lines a stream must hold beyond the first chunk before a worker pool starts:
#: a shorter one is decided in this process, where it ends before a pool would have started.
POOL_AFTER = 2 * CHUNK

Numbered = tuple[int, bytes]
Result = tuple[int, "bytes | ScenarioError"]


def outcome_of(scenario, document: dict, rules: str | None = None) -> dict:
    """The outcome of a scenario read from ``document``, under its own rules or under ``rules`` in their place.

    A trust-ceiling rule version replaces the version the scenario was read
    with, which is all a document's ``rules`` decides; a gateway version, a
    wrong variant or rules of the other kind go to the prover's replay,
    which reads the document under them.
    """
    if rules is None:
        return run_scenario(scenario)
    if isinstance(scenario, Scenario) and rules in VERSIONS:
        return run_scenario(evolve(scenario, rules=VERSIONS[rules]))
    from ..implementations.wrong.decide import decided_under, is_for  # the wrong variants load only when asked for

    if not is_for(rules, document):
        raise ScenarioError("$", f"--rules {rules} does not apply to this kind of scenario")
    return decided_under(rules, document)


def decided(document, rules: str | None = None) -> dict:
    """The outcome of a document under its own rules, or under ``rules`` in their place (ScenarioError when invalid).

    The document is validated once, and read once unless a wrong variant reads it again under its own semantics.
    """
    return outcome_of(read_valid_scenario(validated(document)), document, rules)


def decide_line(line: bytes, rules: str | None = None) -> bytes | ScenarioError:
    """The outcome of one scenario line as JSON, or the error that refused it."""
    try:
        return dumps(decided(parse_json(line), rules))
    except ScenarioError as error:
        return error


def error_record(number: int, error: ScenarioError) -> bytes:
    """The line ``decide --jsonl --keep-going`` writes in place of an invalid line's outcome.

    Its shape is ``conformance/schema/decide-error.schema.json``: the line's
    number (counting from 1, blank lines included), the field and the problem.
    """
    return dumps({"gateproof": 1, "line": number, "error": {"field": error.path, "problem": error.problem}})


def decide_chunk(chunk: list[Numbered], rules: str | None = None) -> list[Result]:
    """Every line of a chunk decided, each with its number: what a worker process does."""
    return [(number, decide_line(line, rules)) for number, line in chunk]


def usable_cores() -> int:
    """The processors this process may run on, which can be fewer than the machine has."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


def idle_cores() -> int:
    """The usable cores the last minute's load leaves free, rounded up: at least one, this process's own.

    On a machine whose cores are all busy a second process only adds its
    hand-over to the work (measured: 5 to 15% slower on two saturated cores).
    """
    cores = usable_cores()
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover - no load average on this platform
        return cores
    return max(1, min(cores, math.ceil(cores - load)))


def worker_count(jobs: int) -> int:
    """Processes worth deciding with for ``jobs``: never more than the cores left idle for this process."""
    return max(1, min(jobs, idle_cores()))


def decide_lines(lines: Iterable[bytes], jobs: int = 1, rules: str | None = None) -> Iterator[Result]:
    """(line number, outcome or error) for every non-blank line, in input order.

    ``jobs`` processes decide: this one and ``jobs - 1`` workers, never more
    than the cores this process may use, and only this one when the stream
    ends before a pool would pay. This process decides a chunk itself
    whenever the oldest chunk a worker holds is not back yet, so a worker
    that gets no core costs little more than its chunks' hand-over.
    """
    numbered = ((number, line) for number, line in enumerate(lines, start=1) if line.strip())
    processes = worker_count(jobs)
    head = list(islice(numbered, CHUNK + POOL_AFTER)) if processes > 1 else []
    if processes <= 1 or len(head) < CHUNK + POOL_AFTER:
        for number, line in head:
            yield number, decide_line(line, rules)
        for number, line in numbered:
            yield number, decide_line(line, rules)
        return
    yield from _shared(_chunks(head, numbered), processes - 1, rules)


def _shared(chunks: Iterator[list[Numbered]], workers: int, rules: str | None) -> Iterator[Result]:
    """Chunks decided by ``workers`` worker processes and this one, handed on in order, at most :data:`AHEAD` chunks a process pending."""
    import multiprocessing  # loaded only by a stream that pays for a pool, not by the start-up of every other

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    pool = context.Pool(workers)
    try:
        pending: deque = deque()  # in chunk order: a worker's AsyncResult, or a list this process decided
        handed = 0  # chunks a worker holds
        ended = False
        while True:
            while handed < workers * AHEAD and not ended:
                chunk = next(chunks, None)
                if chunk is None:
                    ended = True
                else:
                    pending.append(pool.apply_async(decide_chunk, (chunk, rules)))
                    handed += 1
            if not pending:
                break
            oldest = pending[0]
            if isinstance(oldest, list) or oldest.ready() or ended or len(pending) >= (workers + 1) * AHEAD:
                pending.popleft()
                if not isinstance(oldest, list):
                    handed -= 1
                    oldest = oldest.get()
                yield from oldest
                continue
            chunk = next(chunks, None)  # the oldest is still being decided: decide the next chunk here meanwhile
            if chunk is None:
                ended = True
            else:
                pending.append(decide_chunk(chunk, rules))
        pool.close()
    finally:
        # Reached on every exit: the end, a reader that stops early (close()), or an exception.
        pool.terminate()
        pool.join()


def _chunks(head: list[Numbered], rest: Iterator[Numbered]) -> Iterator[list[Numbered]]:
    for start in range(0, len(head), CHUNK):
        yield head[start:start + CHUNK]
    while chunk := list(islice(rest, CHUNK)):
        yield chunk


@contextmanager
def decisions(lines: Iterable[bytes], jobs: int = 1, rules: str | None = None):
    """:func:`decide_lines` as a context: its worker pool is ended when the block is left, however it is left."""
    results = decide_lines(lines, jobs, rules)
    try:
        yield results
    finally:
        results.close()
