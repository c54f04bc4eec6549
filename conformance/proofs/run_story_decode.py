"""Run stories as scenario documents, and the verdicts a replayed story shows.

Each story is a scenario of its own: one configuration on the least trusted
zone, its own sources as tag-selected snippets, the forced records, the
switch in observe mode, and the steps queue, dequeue, suspend, the
operators' changes, resume. Every source's name ends in its record id, so a
replayed result says which record it named.
"""

from __future__ import annotations

import re

from gateproof.model.ladder import DataClass
from gateproof.model.lattice import DECISION_KINDS, NO_SOURCE, UNDECLARED
from gateproof.model.zones import STRICTEST_ZONE

from .run_story import OWN_NAME, ForcedRecords, RunStory
from .send import Verdict

_CLASSES = tuple(DataClass)
_RECORD_ID = re.compile(r'-(\d+)"$')
CONFIGURATION, TAG, RUN = "story", "story-configuration", "run"


def _class_value(rank: int) -> str | None:
    return None if rank == UNDECLARED else _CLASSES[rank].value


def _forced_records(records: ForcedRecords, ids: range, kind: str, aliases: tuple = ()) -> list[dict]:
    switch = "active" if kind == "snippet" else "enabled"
    listed = []
    for index, (record_id, rank) in enumerate(zip(ids, records.ranks)):
        if kind == "snippet":
            # Carrying a configuration source's name makes the gate list it once (C164.3).
            name = f"configuration-{aliases[index]}" if aliases[index] != OWN_NAME else f"forced-snippet-{record_id}"
            fields = {"identifier": name, "name": name}
        else:
            # Zero-padded place first: sorting by name is sorting by the story's name order.
            fields = {"name": f"forced-skill-{records.name_order[index]:02d}-{record_id}"}
        listed.append({"uid": index + 1, **fields, "data_class": _class_value(rank), switch: records.on_at_start[index]})
    return listed


def _changes(records: ForcedRecords, kind: str) -> list[dict]:
    switch = "active" if kind == "snippet" else "enabled"
    steps = []
    for index in range(records.bound):
        if records.on_at_resume[index] != records.on_at_start[index]:
            steps.append({"op": "update", "kind": kind, "uid": index + 1, "set": {switch: records.on_at_resume[index]}})
        if records.deleted_at_resume[index]:
            steps.append({"op": "delete", "kind": kind, "uid": index + 1})
    return steps


def story_document(title: str, claim: str, semantics, story: RunStory, number: int, playground: bool = False) -> dict:
    """The story as a scenario: queued, dequeued, suspended, changed, resumed; or, for ``playground``, its records sent once."""
    configuration_ids, snippet_ids, skill_ids = story.record_ids()
    own = [
        {"uid": 1000 + record_id, "identifier": f"configuration-{record_id}", "name": f"configuration-{record_id}",
         "data_class": _class_value(rank), "tags": TAG, "sorting": record_id}
        for record_id, rank, listed in zip(configuration_ids, story.configuration_ranks, story.configuration_listed)
        if listed
    ]
    requested = {
        kind: [index + 1 for index, asked in enumerate(records.requested) if asked]
        for kind, records in (("snippets", story.snippets), ("skills", story.skills))
    }
    if semantics.is_model_version:
        under = f"the rules {semantics.name}, which this scenario names, so decide shows it"
    else:
        under = f"the wrong rule {semantics.name} ({semantics.description}); replay it with decide --rules {semantics.name}"
    steps = [{"op": "send", "configuration": CONFIGURATION, "forced_snippets": requested["snippets"], "forced_skills": requested["skills"]}]
    if not playground:
        steps = [
            {"op": "queue", "run": RUN, "configuration": CONFIGURATION,
             "forced_snippets": requested["snippets"], "forced_skills": requested["skills"]},
            {"op": "dequeue", "run": RUN},
            {"op": "suspend", "run": RUN},
            *_changes(story.snippets, "snippet"),
            *_changes(story.skills, "skill"),
            {"op": "resume", "run": RUN},
        ]
    what = "The records are sent once through the playground." if playground else "The dequeue is the run's first send; the resume re-gates it."
    return {
        "gateproof": 1,
        "id": f"counterexample/{title}/{semantics.name}/{'send' if playground else 'story'}-{number}",
        "description": f"A counterexample to {title} ({claim}) under {under}. {what}",
        "rules": semantics.document_rules,
        "world": {
            "providers": [{"identifier": "provider", "zone": STRICTEST_ZONE.value}],
            "models": [{"identifier": "model", "provider": "provider"}],
            "configurations": [{"identifier": CONFIGURATION, "model": "model", "snippet_tags": TAG}],
            "snippets": own + _forced_records(story.snippets, snippet_ids, "snippet", story.snippet_aliases),
            "skills": _forced_records(story.skills, skill_ids, "skill"),
            "enforcement": "observe",
        },
        "steps": steps,
    }


def story_documents(title: str, claim: str, semantics, stories: tuple[RunStory, ...]) -> list[tuple[dict, list[int]]]:
    return [(story_document(title, claim, semantics, story, number + 1), [number]) for number, story in enumerate(stories)]


def playground_documents(title: str, claim: str, semantics, stories: tuple[RunStory, ...]) -> list[tuple[dict, list[int]]]:
    return [(story_document(title, claim, semantics, story, number + 1, True), [number]) for number, story in enumerate(stories)]


def _verdict(result: dict) -> Verdict:
    declared = result["declared_class"]
    match = _RECORD_ID.search(result["source"])
    return Verdict(
        declared=UNDECLARED if declared is None else DataClass(declared).rank,
        source=int(match.group(1)) if match else NO_SOURCE,
        zone=None,
        kind=DECISION_KINDS.index(result["decision"]),
        sent=result["sent"],
    )


def playground_verdicts_of(outcome: dict) -> list[tuple[Verdict]]:
    """The verdict of the story's one playground send."""
    return [tuple(_verdict(result) for result in outcome["results"] if result["op"] == "send")]


def story_verdicts_of(outcome: dict) -> list[tuple[Verdict, Verdict]]:
    """The dequeue's and the resume's verdict of the story's one run."""
    gated = [result for result in outcome["results"] if result["op"] in ("dequeue", "resume")]
    return [tuple(_verdict(result) for result in gated)]
