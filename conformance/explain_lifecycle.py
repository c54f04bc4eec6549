"""Explaining the story steps: which uids a run read from what, which lookup resolved them, what was dropped, the re-gate.

Like the send explanation, it reads the same traces the outcome is built
from, so the explanation cannot tell a different story from the decision.
"""

from __future__ import annotations

from gateproof.model.enforcement import MISSING
from gateproof.model.lifecycle import ENDED, ForcedSet, is_dry_run, takes_configuration_only_path
from gateproof.model.scenario.read_story import Delete, Dequeue, Queue, Resume, SetEnforcement, Suspend, Update
from gateproof.model.scenario.run import send_result
from gateproof.model.scenario.story import Story, story_step, trace_dequeue, trace_resume
from gateproof.model.versions import Rules

from .explain_gate import dropped_lines, gate_lines

LOOKUP_WORDS = {"enabled": "enabled-only", "existing": "existing (switched off or not)", "all by name": "every undeleted skill, once each, by name"}


def forced_set_lines(forced: ForcedSet, read_as: str) -> list[str]:
    lines = []
    for kind, uids, found, lookup in (("snippets", forced.snippet_uids, forced.snippets, forced.snippet_lookup), ("skills", forced.skill_uids, forced.skills, forced.skill_lookup)):
        if uids:
            lines.append(f"    forced {kind}: {read_as} {list(uids)} -> {LOOKUP_WORDS[lookup]} lookup -> resolved {[r.uid for r in found]}")
    return lines or ["    (no forced uids)"]


def _queue(story: Story, step: Queue, rules: Rules) -> list[str]:
    flag = "a dry run" if is_dry_run(step.dry_run) else "not a dry run (only a strict true is)"
    return [
        f'queue run "{step.run}" through configuration "{step.configuration}"',
        f"  the payload stores forced snippets {step.forced_snippets!r}, forced skills {step.forced_skills!r}; {flag}  [C175.5]",
        "  nothing is composed yet: the uids are resolved when the run is dequeued",
    ]


def _ended(op: str, step, story: Story) -> list[str] | None:
    run = story.runs[step.run]
    if run.state == ENDED:
        return [f'{op} run "{step.run}": the run has already ended ({run.ended}), so nothing happens']
    return None


def _dequeue(story: Story, step: Dequeue, rules: Rules) -> list[str]:
    run = story.runs[step.run]
    trace = trace_dequeue(story.world, run, step, rules)
    head = f'dequeue run "{step.run}": its composition  [C175.5]'
    if trace is None:
        return [head, f'  configuration "{run.configuration}" is deleted: the run is reported gone, not gated']
    lines = [head, "  the payload's uids read as positive integers only, through the composition lookups  [C175.4, C175.2]"]
    lines += forced_set_lines(trace.forced, "stored")
    if rules.records_dropped:
        lines += dropped_lines(trace) or ["  every requested source arrived: nothing to record  [C179.1]"]
    return lines + gate_lines(story.world, trace, send_result(trace, rules, run.be_user, run.uid), rules)


def _suspend(story: Story, step: Suspend, rules: Rules) -> list[str]:
    result, _ = story_step(story, step, rules, "")
    head = f'suspend run "{step.run}" for {"typed input" if step.reason == "input" else "approval"}'
    if step.state is not None:
        return [head, f"  the stored state is given as written: {step.state!r}"]
    if not rules.regates_on_resume:
        return [head, f"  rules {rules.name}: the state stores no forced uids, so a resume cannot re-gate them  [C164.7]"]
    return [head, f"  the state stores the uids of the forced records the run runs with: {result['state']}  [C165.1]"]


def _resume(story: Story, step: Resume, rules: Rules) -> list[str]:
    run = story.runs[step.run]
    trace = trace_resume(story.world, run, step, rules)
    head = f'resume run "{step.run}"{" with typed input" if step.with_input else ""}: re-gated against the live records, zone and switch  [C165.3]'
    if trace is None:
        return [head, f'  configuration "{run.configuration}" is deleted: the run is reported gone']
    lines = [head]
    if not rules.regates_on_resume:
        lines.append(f"  rules {rules.name}: no forced set was persisted, so the configuration alone is gated  [C164.7]")
    else:
        lines.append("  stored uids read as positive integers or digit strings  [C165.2, C166.3, C175.3]")
        lines += forced_set_lines(trace.forced, "stored")
        if takes_configuration_only_path(trace.forced):
            lines.append("  nothing to rebuild: the configuration-only path  [C165.5]")
    lines.append("  nothing is recorded as dropped on a resume  [C179.2]")
    return lines + gate_lines(story.world, trace, send_result(trace, rules, run.be_user, run.uid), rules)


def _change(story: Story, step, rules: Rules) -> list[str]:
    if isinstance(step, Update):
        return [f"update {step.kind} {step.key!r}: {step.changes}  [S002.1]"]
    if isinstance(step, Delete):
        return [f"delete {step.kind} {step.key!r}  [S002.2]"]
    value = "removed (enforces)" if step.value is MISSING else repr(step.value)
    return [f"set the enforcement switch: {value}  [S002.3]"]


def explain_story_step(story: Story, step, rules: Rules) -> list[str]:
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
