"""Explaining the story steps: which uids a run read from what, which lookup resolved them, what was dropped, the re-gate.

Like the send explanation, it reads the same traces the outcome is built
from, so the explanation cannot tell a different story from the decision.
Each function returns the step's heading and the rules it applied.
"""

from __future__ import annotations

from gateproof.model.enforcement import MISSING
from gateproof.model.lifecycle import DEQUEUE, ENDED, RESUME, ForcedSet, PathLookups, fails_on_dequeue, is_dry_run, path_lookups, takes_configuration_only_path
from gateproof.model.scenario.read_story import Delete, Dequeue, Queue, Resume, SetEnforcement, Suspend, Update
from gateproof.model.scenario.run import send_result
from gateproof.model.scenario.story import Story, story_step, trace_dequeue, trace_resume
from gateproof.model.versions import Rules

from .gate import dropped_applied, gate_applied, switch_value, switch_words
from .trace import Applied, shown

LOOKUP_WORDS = {"enabled": "enabled-only", "existing": "existing (switched off or not)", "all by name": "every undeleted skill, once each, by name"}
#: The order each lookup hands its records back in, where its words do not say it: where readings of C165.6 and C175.3 part.
LOOKUP_ORDER = {"enabled": " in the order asked", "existing": " in the order asked", "all by name": ""}

Explained = tuple[str, list[Applied]]


def lookup_words(lookups: PathLookups) -> str:
    """The lookups a path resolves with (``lifecycle.path_lookups``), in words: the model's, never restated here."""
    return f"snippets {LOOKUP_WORDS[lookups.snippets]}, skills {LOOKUP_WORDS[lookups.skills]}"


def forced_set_details(forced: ForcedSet, read_as: str) -> tuple[list[str], dict, dict]:
    """The lines, inputs and result of resolving a forced set: uids read, lookup, records found."""
    lines, inputs, result = [], {}, {}
    for kind, uids, found, lookup in (("snippets", forced.snippet_uids, forced.snippets, forced.snippet_lookup), ("skills", forced.skill_uids, forced.skills, forced.skill_lookup)):
        if uids:
            resolved = [r.uid for r in found]
            lines.append(f"forced {kind}: {read_as} {shown(list(uids))} -> {LOOKUP_WORDS[lookup]} lookup{LOOKUP_ORDER[lookup]} -> resolved {shown(resolved)}")
            inputs[kind] = {"uids": list(uids), "lookup": lookup}
            result[kind] = resolved
    return lines or ["(no forced uids)"], inputs, result


def forced_applied(forced: ForcedSet, says: str, rules: tuple[str, ...], read_as: str = "stored", state=MISSING) -> Applied:
    """The forced set resolved; with the stored ``state`` a resume read it from (uids read as nothing included) when given."""
    lines, inputs, result = forced_set_details(forced, read_as)
    if state is not MISSING:
        lines, inputs = [f"the run's stored state, as written: {shown(state)}", *lines], dict(inputs, state=state)
    return Applied("forced-set", says, rules, lines, inputs, result)


def _queue(story: Story, step: Queue, rules: Rules) -> Explained:
    dry = is_dry_run(step.dry_run)
    flag = "a dry run" if dry else "not a dry run (only a strict true is)"
    stored = {"forced_snippets": step.forced_snippets, "forced_skills": step.forced_skills, "dry_run": step.dry_run}
    return f'queue run "{step.run}" through configuration "{step.configuration}"', [
        Applied("payload", f"the payload stores forced snippets {shown(step.forced_snippets)}, forced skills {shown(step.forced_skills)}; {flag}",
                ("C175.5",), inputs=stored, result={"dry_run": dry}),
        Applied("deferred", "nothing is composed yet: the uids are resolved when the run is dequeued"),
    ]


def _ended(op: str, step, story: Story) -> Explained | None:
    run = story.runs[step.run]
    if run.state == ENDED:
        return f'{op} run "{step.run}": the run has already ended ({run.ended}), so nothing happens', [
            Applied("ended", f"the run ended: {run.ended}", result=run.ended)]
    return None


def _gone(run) -> Applied:
    return Applied("gone", f'configuration "{run.configuration}" is deleted: the run is reported gone, not gated', result="gone")


def _dequeue(story: Story, step: Dequeue, rules: Rules) -> Explained:
    run = story.runs[step.run]
    trace = trace_dequeue(story.world, run, step, rules)
    head = f'dequeue run "{step.run}": its composition  [C175.5]'
    if trace is None:
        return head, [_gone(run)]
    if fails_on_dequeue(run, rules):
        return head, [Applied("failed", f"rules {rules.name}: the run row's user {run.be_user} is below 0, which the payload's tool "
                                        "options refuse: the run fails before anything is composed", ("C175.5",), result="failed")]
    lookups = path_lookups(DEQUEUE, rules)
    applied = [forced_applied(trace.forced, f"the payload's uids read as positive integers only; {lookup_words(lookups)}", lookups.rules)]
    if rules.records_dropped:
        applied += dropped_applied(trace) or [Applied("dropped", "every requested source arrived: nothing to record", ("C179.1",), result=[])]
    return head, applied + gate_applied(story.world, trace, send_result(trace, rules, run.be_user, run.uid), rules)


def _suspend(story: Story, step: Suspend, rules: Rules) -> Explained:
    result, _ = story_step(story, step, rules, "")
    head = f'suspend run "{step.run}" for {"typed input" if step.reason == "input" else "approval"}'
    if step.state is not None:
        return head, [Applied("state", f"the stored state is given as written: {shown(step.state)}", inputs={"state": step.state}, result=result["state"])]
    if not rules.regates_on_resume:
        return head, [Applied("state", f"rules {rules.name}: the state stores no forced uids, so a resume cannot re-gate them", ("C164.7",), result=result["state"])]
    return head, [Applied("state", f"the state stores the uids of the forced records the run runs with: {shown(result['state'])}", ("C165.1",), result=result["state"])]


def _resume(story: Story, step: Resume, rules: Rules) -> Explained:
    run = story.runs[step.run]
    trace = trace_resume(story.world, run, step, rules)
    head = f'resume run "{step.run}"{" with typed input" if step.with_input else ""}: re-gated against the live records, zone and switch  [C165.3]'
    if trace is None:
        return head, [_gone(run)]
    applied = []
    if not rules.regates_on_resume:
        applied.append(Applied("configuration-only", f"rules {rules.name}: no forced set was persisted, so the configuration alone is gated", ("C164.7",)))
    else:
        lookups = path_lookups(RESUME, rules)
        applied.append(forced_applied(trace.forced, f"stored uids read as positive integers or digit strings; {lookup_words(lookups)}",
                                      lookups.rules, state=run.suspended_state))
        if takes_configuration_only_path(trace.forced):
            applied.append(Applied("configuration-only", "nothing to rebuild: the configuration-only path", ("C165.5",)))
    applied.append(Applied("dropped", "nothing is recorded as dropped on a resume", ("C179.2",), result=[]))
    return head, applied + gate_applied(story.world, trace, send_result(trace, rules, run.be_user, run.uid), rules)


def _change(story: Story, step, rules: Rules) -> Explained:
    if isinstance(step, Update):
        return f"update {step.kind} {shown(step.key)}: {shown(step.changes)}", [
            Applied("change", "the record's fields are replaced as given", ("S002.1",), inputs={"kind": step.kind, "key": step.key, "changes": step.changes})]
    if isinstance(step, Delete):
        return f"delete {step.kind} {shown(step.key)}", [
            Applied("change", "the record is deleted", ("S002.2",), inputs={"kind": step.kind, "key": step.key})]
    value = "removed (enforces)" if step.value is MISSING else switch_words(step.value)
    return f"set the enforcement switch: {value}", [
        Applied("change", "the switch is stored as given, or removed", ("S002.3",), inputs={"switch": switch_value(step.value)})]


def explain_story_step(story: Story, step, rules: Rules) -> Explained:
    """The explanation of one story step against the story as the steps before it left it."""
    if isinstance(step, Queue):
        return _queue(story, step, rules)
    if isinstance(step, (Update, Delete, SetEnforcement)):
        return _change(story, step, rules)
    op = {Dequeue: "dequeue", Suspend: "suspend", Resume: "resume"}[type(step)]
    ended = _ended(op, step, story)
    if ended is not None:
        return ended
    return {Dequeue: _dequeue, Suspend: _suspend, Resume: _resume}[type(step)](story, step, rules)
