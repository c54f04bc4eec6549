"""The JUnit XML report, for a CI's test tab: a run that did what was expected of it shows no failure.

One test suite per implementation, with the seconds its campaign took. An
implementation expected to conform gets a test case per verdict kept (a
failure for each disagreement, an error for each errored run, a skip for
each skipped or known one) and one for its passing generated scenarios. A
mutant expected to be caught gets a passing test case for each disagreement
that caught it, named for it, and one failure only when it was missed. A
campaign cut short gets one error of its own, so a CI never takes a part
for the whole. Text
an implementation wrote is escaped, and characters XML 1.0 forbids are shown
as ``\\u`` escapes of four hex digits (``\\u0000`` for NUL), so the document is always well formed.

A failure whose disagreement is security (``harness/severity.py``: the
implementation lets out more than the model) has the type ``security`` and a
message that opens with ``SECURITY`` and says what it lets out; a refusal the
type ``refusal``; both come first in their suite, security ones before
refusals, and each suite counts them in its properties.
"""

from __future__ import annotations

from xml.etree import ElementTree

from ..harness.expectations import CAUGHT, is_met, verdict_text
from ..harness.results import Tally, Verdict
from ..harness.severity import REFUSAL, SECURITY, severity_rank
from .campaign import RecordedCampaign
from .cases import case_of, json_text
from .escape import visible
from .failure import rules_line, severity_note


def _text(value: object) -> str:
    return visible(str(value))


def _element(parent, tag: str, text: str | None = None, **attributes) -> ElementTree.Element:
    element = ElementTree.SubElement(parent, tag, {k: _text(v) for k, v in attributes.items()})
    if text is not None:
        element.text = _text(text)
    return element


def difference_text(verdict: Verdict) -> str:
    """A verdict as a person reads it in a CI log: each differing field with its rules, both values, and the replay command."""
    case = case_of(verdict, explained=False)
    lines = [*filter(None, [severity_note(verdict)]), f"{verdict.scenario_id}: {verdict.message}", rules_line(verdict)]
    for leaf in case.leaves:
        lines += [f"{leaf.path}  [{', '.join(leaf.rules) or '-'}]", f"  expected: {json_text(leaf.expected)}", f"  actual:   {json_text(leaf.actual)}"]
    if case.replay_command:
        lines.append(f"replay: {case.replay_command}")
    return "\n".join(lines)


def _leaning(verdict: Verdict) -> str | None:
    """The class of a failure that leans one way, security or refusal; None for any other verdict."""
    d = verdict.disagreement
    return d.severity if verdict.status == "failed" and d is not None and d.severity in (SECURITY, REFUSAL) else None


def _conformance_cases(suite, tally: Tally) -> None:
    for verdict in sorted(tally.verdicts, key=lambda v: severity_rank(_leaning(v))):  # security failures, then refusals, then the rest as kept
        case = _element(suite, "testcase", classname=f"{tally.name}.{verdict.family}", name=verdict.scenario_id)
        if verdict.seconds is not None:
            case.set("time", f"{verdict.seconds:.6f}")
        leaning = _leaning(verdict)
        if leaning:
            note = severity_note(verdict)
            _element(case, "failure", difference_text(verdict), message=f"{note}; {verdict.status}: {verdict.message}", type=leaning)
        elif verdict.status in ("failed", "nondeterministic"):
            _element(case, "failure", difference_text(verdict), message=f"{verdict.status}: {verdict.message}", type=verdict.status)
        elif verdict.status == "errored":
            context = "\n".join(f"{k}: {v}" for k, v in verdict.context.items())
            _element(case, "error", context or None, message=verdict.message, type="errored")
        elif verdict.status in ("skipped", "known"):
            _element(case, "skipped", message=f"{verdict.status}: {verdict.issue or verdict.message}")
    passed = {family: count for (family, status), count in sorted(tally.unkept.items()) if status == "passed"}
    if passed:
        what = ", ".join(f"{count} of {family}" for family, count in passed.items())
        _element(suite, "testcase", classname=f"{tally.name}.generated", name=f"{sum(passed.values())} generated scenarios passed ({what})",
                 time=f"{tally.generated_seconds:.3f}")
    if tally.lost and not tally.unavailable:
        _element(_element(suite, "testcase", classname=tally.name, name="campaign"), "error", message=tally.lost, type="lost")


def _mutant_cases(suite, tally: Tally) -> None:
    caught = [v for v in tally.verdicts if v.status == "failed" and v.disagreement is not None]
    for verdict in caught:
        case = _element(suite, "testcase", classname=f"{tally.name}.{verdict.family}", name=f"caught by {verdict.scenario_id}")
        if verdict.seconds is not None:
            case.set("time", f"{verdict.seconds:.6f}")
        _element(case, "system-out", difference_text(verdict))
    if not is_met(tally, CAUGHT) and not tally.unavailable:
        why = tally.lost or f"no disagreement with the model in {tally.scenarios} scenarios"
        _element(_element(suite, "testcase", classname=tally.name, name="caught"), "failure", message=f"MISSED: {why}", type="missed")


def _counts(suite: ElementTree.Element) -> dict[str, int]:
    cases = suite.findall("testcase")
    return {"tests": len(cases), "failures": sum(c.find("failure") is not None for c in cases),
            "errors": sum(c.find("error") is not None for c in cases), "skipped": sum(c.find("skipped") is not None for c in cases)}


def junit_report(campaign: RecordedCampaign) -> str:
    suites = ElementTree.Element("testsuites", name="gateproof verify")
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for tally in campaign.tallies:
        suite = _element(suites, "testsuite", name=tally.name, time=f"{tally.seconds:.3f}", timestamp=campaign.started)
        if tally.unavailable:
            _element(_element(suite, "testcase", classname=tally.name, name="campaign"), "skipped", message=f"unavailable: {tally.unavailable}")
        elif tally.expected == CAUGHT:
            _mutant_cases(suite, tally)
        else:
            _conformance_cases(suite, tally)
        counts = _counts(suite)
        for key, count in counts.items():
            suite.set(key, str(count))
            totals[key] += count
        properties = ElementTree.Element("properties")
        classes = tally.severities()
        for name, value in (("expected", tally.expected), ("verdict", verdict_text(tally, tally.expected)),
                            (SECURITY, classes[SECURITY]), (REFUSAL, classes[REFUSAL]),
                            ("complete", "yes" if campaign.complete else campaign.incomplete_text)):
            _element(properties, "property", name=name, value=value)
        suite.insert(0, properties)
    if not campaign.complete:  # one error a CI shows: what follows is not the whole campaign
        suite = _element(suites, "testsuite", name="campaign", tests=1, failures=0, errors=1, skipped=0, time="0.000", timestamp=campaign.started)
        _element(_element(suite, "testcase", classname="campaign", name="complete"), "error", message=campaign.incomplete_text, type="incomplete")
        totals["tests"] += 1
        totals["errors"] += 1
    for key, count in totals.items():
        suites.set(key, str(count))
    seconds = campaign.seconds if campaign.seconds is not None else sum(t.seconds for t in campaign.tallies)
    suites.set("time", f"{seconds:.3f}")
    return ElementTree.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"

