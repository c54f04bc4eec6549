"""Deciding many scenarios, one JSON document per line, in one process or several.

Each line is decided on its own, so lines can go to worker processes and come
back in input order; the first invalid line stops the run at that line.
"""

from __future__ import annotations

import multiprocessing
from functools import partial
from typing import Iterable, Iterator

from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario

from .documents import dumps, parse_json

#: Lines handed to a worker at a time: large enough that the hand-over costs little.
CHUNK = 256


def decided(document, rules: str | None = None) -> dict:
    """The outcome of a document under its own rules, or under ``rules`` in their place (ScenarioError when invalid)."""
    scenario = read_scenario(document)
    if rules is None:
        return run_scenario(scenario)
    from .proofs.replay import decided_under, is_for  # the prover's variants load only when asked for

    if not is_for(rules, document):
        raise ScenarioError("$", f"--rules {rules} does not apply to this kind of scenario")
    return decided_under(rules, document)


def decide_line(line: bytes, rules: str | None = None) -> bytes | ScenarioError:
    """The outcome of one scenario line as JSON, or the error that refused it."""
    try:
        return dumps(decided(parse_json(line), rules))
    except ScenarioError as error:
        return error


def decide_lines(lines: Iterable[bytes], jobs: int = 1, rules: str | None = None) -> Iterator[tuple[int, bytes | ScenarioError]]:
    """(line number, outcome or error) for every non-blank line, in input order."""
    numbered = ((number, line) for number, line in enumerate(lines, start=1) if line.strip())
    if jobs <= 1:
        for number, line in numbered:
            yield number, decide_line(line, rules)
        return
    numbers: list[int] = []

    def feed():
        for number, line in numbered:
            numbers.append(number)
            yield line

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with context.Pool(jobs) as pool:
        for index, result in enumerate(pool.imap(partial(decide_line, rules=rules), feed(), chunksize=CHUNK)):
            yield numbers[index], result
