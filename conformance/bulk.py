"""Deciding many scenarios, one JSON document per line, in one process or several.

Each line is decided on its own, so lines can go to worker processes and come
back in input order; the first invalid line stops the run at that line.
"""

from __future__ import annotations

import multiprocessing
from typing import Iterable, Iterator

from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario

from .documents import dumps, parse_json

#: Lines handed to a worker at a time: large enough that the hand-over costs little.
CHUNK = 256


def decide_line(line: bytes) -> bytes | ScenarioError:
    """The outcome of one scenario line as JSON, or the error that refused it."""
    try:
        return dumps(run_scenario(read_scenario(parse_json(line))))
    except ScenarioError as error:
        return error


def decide_lines(lines: Iterable[bytes], jobs: int = 1) -> Iterator[tuple[int, bytes | ScenarioError]]:
    """(line number, outcome or error) for every non-blank line, in input order."""
    numbered = ((number, line) for number, line in enumerate(lines, start=1) if line.strip())
    if jobs <= 1:
        for number, line in numbered:
            yield number, decide_line(line)
        return
    numbers: list[int] = []

    def feed():
        for number, line in numbered:
            numbers.append(number)
            yield line

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with context.Pool(jobs) as pool:
        for index, result in enumerate(pool.imap(decide_line, feed(), chunksize=CHUNK)):
            yield numbers[index], result
