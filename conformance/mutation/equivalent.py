"""The reviewed list of equivalent mutants: changes no scenario the format can express tells apart.

Each entry names a mutant, the line it changes as it read when it was judged,
the kind of reason, and why no scenario can tell the difference. An entry
whose mutant no longer exists, or whose line now reads otherwise, is stale:
the judgement was about code that is gone, and must be made again.

The kinds are counted apart, because only one of them says the suite cannot
see a change in what the model decides:

- ``no-difference``: the mutant decides every valid scenario as the model does;
- ``refused-document``: it changes only how a document the model refuses is
  refused (the wording, the field named), and no refused document has an
  outcome to compare;
- ``outside-outcome``: it changes code only ``explain``, ``diff`` or the proofs
  run, which no outcome carries.
"""

from __future__ import annotations

from pathlib import Path

import orjson
from attrs import frozen

from .mutants import Mutant

EQUIVALENT_FILE = Path(__file__).resolve().parent / "equivalent.json"


KINDS = ("no-difference", "refused-document", "outside-outcome")


@frozen
class Equivalence:
    id: str
    line: str  # the mutant's line before the change, as it read when judged
    kind: str  # one of KINDS
    reason: str


@frozen
class Stale:
    entry: Equivalence
    why: str


def read_equivalents(path: Path = EQUIVALENT_FILE) -> tuple[Equivalence, ...]:
    """The entries of ``path``; ValueError saying what is wrong with a file that is not such a list."""
    try:
        document = orjson.loads(path.read_bytes())
        entries = tuple(Equivalence(e["id"], e["line"], e["kind"], e["reason"]) for e in document["equivalent"])
    except OSError as error:
        raise ValueError(f"{path}: cannot read ({error.strerror})") from None
    except (orjson.JSONDecodeError, KeyError, TypeError) as error:
        raise ValueError(f'{path}: not a list of equivalent mutants ({{"equivalent": [{{"id", "line", "kind", "reason"}}]}}): {error}') from None
    unknown = [e for e in entries if e.kind not in KINDS]
    if unknown:
        raise ValueError(f"{path}: {unknown[0].id}: kind {unknown[0].kind!r} is not one of {', '.join(KINDS)}")
    repeated = sorted({e.id for e in entries if sum(1 for other in entries if other.id == e.id) > 1})
    if repeated:
        raise ValueError(f"{path}: {repeated[0]} is listed twice")
    return entries


def stale_entries(entries: tuple[Equivalence, ...], mutants: list[Mutant]) -> list[Stale]:
    """The entries that no longer name a mutant of the model as it stands, with why."""
    by_id = {m.id: m for m in mutants}
    stale = []
    for entry in entries:
        mutant = by_id.get(entry.id)
        if mutant is None:
            stale.append(Stale(entry, "no such mutant any more"))
        elif mutant.before != entry.line:
            stale.append(Stale(entry, f"its line now reads {mutant.before!r}"))
    return stale
