"""Which way a disagreement leans: the implementation lets out more than the model, holds back what the model lets out, or neither.

A disagreement is ``security`` when, at any step, the implementation's result
lets out something the model's does not:

- a call the model denies, allowed (``decision`` ``allow``): the reason table
  of G001.13, and the model's own ``rule`` for that call (G001.10 for a case
  of another tenant, G001.12 for a read neither assigned nor a supervisor's);
- an export the model does not make (G001.14: a record, its tenant and a
  destination; the payload aside), a read it does not serve (G001.12), or a
  write it does not make (G001.14: a tool, its record and its arguments),
  whatever the call's decision says;
- an audit record holding record content or proposal text that the model's
  record at that step does not hold (G001.15; for a send's record, a source's
  text, C144.14): a string of the record containing the text of a stored record, a
  runbook, a snippet, a skill, a system prompt or a task input, or equal to a
  value the proposal carried (its tool, an argument's name or value) that
  names nothing the world holds;
- a send the model refuses, or does not make at all (a refused or ended run,
  a dry run), sent (``sent`` true; C144.10, C144.11, C164.1, C164.5);
- a send both let through, the implementation's of a stricter declared class
  than the model's (C144.9, C094.5), or letting into the run a forced source
  the model leaves out (C164.1, C175.3).

It is ``refusal`` when it lets out nothing more anywhere, but holds back
something the model lets out: a call the model allows, denied; an export, a
read or a write the model makes, left out; a send the model makes, withheld; a forced
source the model lets into a run, left out. Every other disagreement is
``other``: names, messages, fields, codes, a class named less strict for the
same context sent.

Each way is judged step by step on the whole outcome, not only the first
step that differs: a gateway that rewrites an audit field on every call and
also allows one cross-tenant read differs first in the audit and is security
for the read. A disagreement and its mirror (expected and actual swapped) are
both ``security`` only when it leans both ways at once, letting more out at
one place and less at another (an export of the case to another destination
than the model's, or a call allowed at one step and another denied at the
next): a refusal read the other way is security, and security read the other
way a refusal or other.
"""

from __future__ import annotations

from typing import Iterator

from attrs import frozen

from gateproof.model.gateway.catalog import Catalog
from gateproof.model.gateway.lab import LAB_CATALOG
from gateproof.model.gateway.scenario import catalog_of
from gateproof.model.ladder import parse_data_class
from gateproof.model.scenario.errors import ScenarioError

from .compare import same_json

SECURITY, REFUSAL, OTHER = "security", "refusal", "other"
#: Every class, in the order disagreements are listed: security first, then refusals, then the rest.
SEVERITIES = (SECURITY, REFUSAL, OTHER)

#: What each way of letting more out is called, seen from the side that lets more out.
WAYS = {
    "call": "allows a call the model denies",
    "export": "makes an export the model does not",
    "read": "serves a read the model does not",
    "write": "makes a write the model does not",
    "audit": "writes {record} content or proposal text into the audit",
    "send": "sends context the model does not send",
    "class": "sends context of a stricter class than the model's",
    "forced": "lets into the run a forced source the model leaves out",
}
#: The ways that, read the other way, hold back what the model lets out: a refusal. The model's audit holding
#: more text, or its send a stricter class, is no refusal of the implementation's: only a difference.
HELD_BACK = {
    "call": "denies a call the model allows",
    "export": "leaves out an export the model makes",
    "read": "leaves out a read the model serves",
    "write": "leaves out a write the model makes",
    "send": "withholds context the model sends",
    "forced": "leaves out of the run a forced source the model lets in",
}
#: Keys of a scenario whose string values are content an audit record never holds (G001.15, C144.14, C144.17).
CONTENT_KEYS = frozenset({"content", "text", "system_prompt", "input", "system_prompt_override"})
_SENT_DECISIONS = ("permitted", "observed", "undeclared", "allow")


@frozen
class Lean:
    """One way one step's result lets out more than the other side's: where, what, and the rules it breaks."""

    step: int
    way: str  # a key of WAYS
    rules: tuple[str, ...]
    detail: str = ""  # the reason the model gives a call, the text found in the audit
    record: str = "case"  # what the scenario's catalog calls its stored records

    def text(self, severity: str) -> str:
        """What the implementation does, as a person reads it: what it lets out for security, what it holds back for a refusal."""
        said = (WAYS[self.way] if severity == SECURITY else HELD_BACK[self.way]).format(record=self.record)
        return f"step {self.step}: {said}" + (f" ({self.detail})" if self.detail else "") + (f" [{', '.join(self.rules)}]" if self.rules else "")


def severity_rank(severity: str | None) -> int:
    """Where a class comes in :data:`SEVERITIES`; anything else comes last."""
    return SEVERITIES.index(severity) if severity in SEVERITIES else len(SEVERITIES)


def _strings(value) -> Iterator[str]:
    """Every string within a JSON value, keys included: an object that writes a key twice answers each pair."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, child in value.items():
            yield from _strings(key)
            yield from _strings(child)
    elif isinstance(value, list):
        for child in value:
            yield from _strings(child)


def _contents(value, found: set, names: set) -> None:
    """Every non-blank text under a content key into ``found``, every other string (a record's name) into ``names``."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key in CONTENT_KEYS and isinstance(child, str):
                if child.strip():
                    found.add(child.strip())
            else:
                _contents(child, found, names)
    elif isinstance(value, list):
        for child in value:
            _contents(child, found, names)
    elif isinstance(value, str):
        names.add(value)


@frozen
class Known:
    """What a disagreement is judged against: the texts no audit record may hold, and what the catalog calls its records."""

    contents: frozenset
    proposals: frozenset
    record: str = "case"


def scenario_catalog(scenario: dict | None) -> Catalog:
    """The catalog a gateway scenario declares (S001.9), the lab's for any other document or one the model cannot read."""
    if not (isinstance(scenario, dict) and scenario.get("kind") == "gateway"):
        return LAB_CATALOG
    try:
        return catalog_of(scenario)
    except ScenarioError:
        return LAB_CATALOG  # the model decides no such document, so no outcome of it is judged


def texts_of(scenario: dict | None, *outcomes: dict) -> Known:
    """The content and proposal texts no audit record may hold. Content, held anywhere in a record's strings, is every
    stored text of the scenario (without one, what the exports carry); proposal text, a whole string of a record, is
    what a call's tool and arguments carry that names nothing the world holds: a tool of the scenario's catalog, a
    stored record, a configured destination, a session's user or tenant are what a record names, whoever proposed them."""
    contents: set = set()
    proposals: set = set()
    catalog = scenario_catalog(scenario)
    names: set = {tool.name for tool in catalog.tools}
    _contents(scenario.get("world") if isinstance(scenario, dict) else None, contents, names)
    _contents(scenario, contents, set())
    for outcome in outcomes if scenario is None else ():
        for result in _results(outcome):
            exports = result.get("exports")
            for export in exports if isinstance(exports, list) else ():
                payload = export.get("payload") if isinstance(export, dict) else None
                if isinstance(payload, str) and payload.strip():
                    contents.add(payload.strip())
    steps = scenario.get("steps") if isinstance(scenario, dict) else None
    for step in steps if isinstance(steps, list) else ():
        if isinstance(step, dict) and step.get("op") == "call":
            proposals.update(text for text in _strings([step.get("tool"), step.get("arguments")]) if text)
    record = " or ".join(kind.name for kind in catalog.record_kinds)
    return Known(frozenset(contents), frozenset(proposals - names), record)


def _results(outcome) -> list:
    results = outcome.get("results") if isinstance(outcome, dict) else None
    return [r if isinstance(r, dict) else {} for r in results] if isinstance(results, list) else []


def lets_through(result: dict) -> bool:
    """Whether a step's result lets something out: a call allowed, or a send that goes out (``sent``, else its decision)."""
    if result.get("op") == "call":
        return result.get("decision") == "allow"
    if "sent" in result:
        return result.get("sent") is True
    return result.get("decision") in _SENT_DECISIONS


def _extra(mine, theirs) -> list:
    """What ``theirs`` lists beyond ``mine``, counted as a multiset of JSON values."""
    left = list(mine) if isinstance(mine, list) else []
    extra = []
    for item in theirs if isinstance(theirs, list) else ():
        match = next((i for i, kept in enumerate(left) if same_json(kept, item)), None)
        if match is None:
            extra.append(item)
        else:
            left.pop(match)
    return extra


def _destinations(exports) -> list:
    """Each export as what leaves and where it goes, its payload aside: a stale or edited payload of the same case to the
    same destination lets nothing more out (G001.14 decides the payload, and the comparison shows it)."""
    if not isinstance(exports, list):
        return []
    return [{k: v for k, v in export.items() if k != "payload"} if isinstance(export, dict) else export for export in exports]


def _leaked(audit, known: Known) -> set:
    """The content and proposal texts an audit record holds."""
    held = set(_strings(audit))
    return {("content", t) for t in known.contents if any(t in s for s in held)} | {("proposal", t) for t in known.proposals if t in held}


def _rank(result: dict) -> int | None:
    declared = parse_data_class(result.get("declared_class"))
    return None if declared is None else declared.rank


def step_leans(step: int, mine: dict, theirs: dict, known: Known) -> list[Lean]:
    """Every way ``theirs`` lets out more than ``mine`` at one step."""
    found = []
    call = "call" in (mine.get("op"), theirs.get("op"))
    through = lets_through(theirs), lets_through(mine)
    if through[0] and not through[1]:
        if call:
            named = mine.get("rule") if isinstance(mine.get("rule"), str) else None
            found.append(Lean(step, "call", ("G001.13", *filter(None, [named])), str(mine.get("reason") or "")))
        else:
            found.append(Lean(step, "send", ("C144.10", "C144.11"), str(mine.get("decision") or mine.get("ended") or "")))
    if _extra(_destinations(mine.get("exports")), _destinations(theirs.get("exports"))):
        found.append(Lean(step, "export", ("G001.14",)))
    if _extra(mine.get("reads"), theirs.get("reads")):
        found.append(Lean(step, "read", ("G001.12",)))
    if _extra(mine.get("writes"), theirs.get("writes")):
        found.append(Lean(step, "write", ("G001.14",)))
    leaked = _leaked(theirs.get("audit"), known) - _leaked(mine.get("audit"), known)
    if leaked:
        kind, text = sorted(leaked)[0]
        shown = text if len(text) <= 40 else text[:37] + "..."
        found.append(Lean(step, "audit", ("G001.15",) if call else ("C144.14",), f"{kind} {shown!r}", known.record))
    if all(through) and not call:
        ranks = _rank(theirs), _rank(mine)
        if None not in ranks and ranks[0] > ranks[1]:
            found.append(Lean(step, "class", ("C144.9", "C094.5"), f"{theirs.get('declared_class')}, not {mine.get('declared_class')}"))
        if _extra(mine.get("forced_snippets"), theirs.get("forced_snippets")) or _extra(mine.get("forced_skills"), theirs.get("forced_skills")):
            found.append(Lean(step, "forced", ("C164.1", "C175.3")))
    return found


def leans(mine: dict, theirs: dict, known: Known) -> list[Lean]:
    """Every way, step by step, ``theirs`` lets out more than ``mine``; a result one side lacks lets out nothing."""
    ours, others = _results(mine), _results(theirs)
    length = max(len(ours), len(others))
    ours, others = ours + [{}] * (length - len(ours)), others + [{}] * (length - len(others))
    return [lean for step, (a, b) in enumerate(zip(ours, others)) for lean in step_leans(step, a, b, known)]


def classify(expected: dict, actual: dict, scenario: dict | None = None) -> tuple[str | None, list[Lean]]:
    """The class of a disagreement and the ways it leans that way; (None, []) when the outcomes do not differ at all.

    ``expected`` is the model's outcome, ``actual`` the implementation's, and
    ``scenario`` the document both decided, which holds the texts an audit
    record must not (without it, only exported payloads are known content).
    """
    if same_json(expected, actual):
        return None, []
    known = texts_of(scenario, expected, actual)
    more = leans(expected, actual, known)
    if more:
        return SECURITY, more
    less = [lean for lean in leans(actual, expected, known) if lean.way in HELD_BACK]
    return (REFUSAL, less) if less else (OTHER, [])


def severity(expected: dict, actual: dict, scenario: dict | None = None) -> str | None:
    """``security``, ``refusal`` or ``other`` (:func:`classify`); None when the outcomes do not differ."""
    return classify(expected, actual, scenario)[0]
