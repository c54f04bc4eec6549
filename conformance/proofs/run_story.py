"""A run's short story as the proofs see it: composed, suspended, forced records changed, resumed.

A :class:`RunStory` holds a configuration's own sources and up to ``bound``
forced snippets and ``bound`` forced skills, each with its class, whether
the run asked for it, its switch when the run starts, and its switch and
whether it is deleted when the run resumes. :func:`story_sends` turns the
two gated steps into :class:`~.send.Send` values through the model's own
lookups for each path (``lifecycle.path_lookups``), lookup filter
(``lookups.is_kept_by``) and suspend rule (``lifecycle.is_stored_on_suspend``), so
the send-level rules, right or wrong, judge them exactly as they judge any
send. The story machinery around them (parsing uids, storage changes, run
states) is tied to ``run_scenario`` by the differential test in
``tests/test_proofs_run_story.py``.

Each record is asked for at most once and keeps its class. A forced
snippet may carry the name of one of the configuration's sources, and the
gate then lists it only when that source is not listed (C164.3, restated
here over names); other names are distinct. A source is identified by its
name, so a verdict names a record id that a replay can read back. The zone
is the least trusted and the switch observes, so every declared send is
observed and the run goes on to its suspension and resume.
"""

from __future__ import annotations

import z3
from attrs import frozen

from gateproof.model import lifecycle, lookups
from gateproof.model.lattice import NO_SOURCE, UNDECLARED
from gateproof.model.versions import ALL_BY_NAME
from gateproof.model.zones import STRICTEST_ZONE

from .send import HIGHEST_CLASS_RANK, Send, Verdict

OWN_NAME = -1


@frozen
class ForcedRecords:
    """One kind of forced record, by position in the order the run asked for them."""

    ranks: tuple
    requested: tuple
    on_at_start: tuple
    on_at_resume: tuple
    deleted_at_resume: tuple
    #: Each record's place in name order (a permutation), read by the name-ordered lookup.
    name_order: tuple

    @property
    def bound(self) -> int:
        return len(self.ranks)


@frozen
class RunStory:
    configuration_ranks: tuple
    configuration_listed: tuple
    snippets: ForcedRecords
    skills: ForcedRecords
    #: Per forced snippet, the configuration source whose name it carries, or :data:`OWN_NAME`.
    snippet_aliases: tuple

    @property
    def bound(self) -> int:
        return len(self.configuration_ranks)

    def record_ids(self) -> tuple[range, range, range]:
        """Every source's id: the configuration's, then the forced snippets', then the forced skills'."""
        n = self.bound
        return range(n), range(n, n + self.snippets.bound), range(n + self.snippets.bound, n + self.snippets.bound + self.skills.bound)


def fresh_records(name: str, bound: int) -> ForcedRecords:
    def terms(what, sort):
        return tuple(sort(f"{name}.{what}{i}") for i in range(bound))

    return ForcedRecords(
        terms("rank", z3.Int), terms("requested", z3.Bool), terms("on_at_start", z3.Bool),
        terms("on_at_resume", z3.Bool), terms("deleted_at_resume", z3.Bool), terms("name_order", z3.Int),
    )


def fresh_story(name: str, bound: int) -> RunStory:
    return RunStory(
        tuple(z3.Int(f"{name}.configuration_rank{i}") for i in range(bound)),
        tuple(z3.Bool(f"{name}.configuration_listed{i}") for i in range(bound)),
        fresh_records(f"{name}.snippet", bound),
        fresh_records(f"{name}.skill", bound),
        tuple(z3.Int(f"{name}.snippet_alias{i}") for i in range(bound)),
    )


def well_formed_story(story: RunStory) -> list:
    ranks = (*story.configuration_ranks, *story.snippets.ranks, *story.skills.ranks)
    facts = [z3.And(UNDECLARED <= rank, rank <= HIGHEST_CLASS_RANK) for rank in ranks]
    facts += [z3.And(OWN_NAME <= alias, alias < story.bound) for alias in story.snippet_aliases]
    for records in (story.snippets, story.skills):
        facts += [z3.And(0 <= place, place < records.bound) for place in records.name_order]
        if records.bound > 1:
            facts.append(z3.Distinct(*records.name_order))
    return facts


def _in_name_order(records: ForcedRecords, values: tuple, ops) -> tuple:
    """``values`` (one per record) rearranged so that slot ``j`` holds the record whose name is ``j``-th."""
    slots = []
    for slot in range(records.bound):
        term = values[-1]
        for index in range(records.bound - 2, -1, -1):
            term = ops.If(records.name_order[index] == slot, values[index], term)
        slots.append(term)
    return tuple(slots)


def _looked_up(records: ForcedRecords, asked: tuple, lookup: str, deleted: tuple, switched_on: tuple, ids, ops):
    """C166.1, C166.2, C165.6: the slots a lookup returns (ranks, found flags, record ids), in its order."""
    found = tuple(ops.And(a, lookups.is_kept_by(lookup, d, on, ops)) for a, d, on in zip(asked, deleted, switched_on))
    if lookup != ALL_BY_NAME:
        return records.ranks, found, tuple(ids)
    return (_in_name_order(records, records.ranks, ops), _in_name_order(records, found, ops), _in_name_order(records, tuple(ids), ops))


def _named_like_an_earlier_source(story: RunStory, found: tuple, ops) -> tuple:
    """C164.3: per forced snippet, whether a listed configuration source or an earlier forced one already carries its name."""
    aliases = story.snippet_aliases
    return tuple(
        ops.And(alias != OWN_NAME, ops.Or(
            False,
            *(ops.And(alias == position, listed) for position, listed in enumerate(story.configuration_listed)),
            *(ops.And(found[earlier], aliases[earlier] == alias) for earlier in range(index)),
        ))
        for index, alias in enumerate(aliases)
    )


def _snippet_ids(story: RunStory, own_ids, ops) -> tuple:
    """A forced snippet's id is its name's: a configuration source's when it carries that name."""
    return tuple(ops.If(alias == OWN_NAME, own, alias) for alias, own in zip(story.snippet_aliases, own_ids))


def _deduplicated(story: RunStory, slots, ops):
    ranks, found, ids = slots
    duplicate = _named_like_an_earlier_source(story, found, ops)
    return ranks, tuple(ops.And(f, ops.Not(d)) for f, d in zip(found, duplicate)), ids


def _send(story: RunStory, snippet_slots, skill_slots) -> tuple[Send, tuple]:
    ranks = (*story.configuration_ranks, *snippet_slots[0], *skill_slots[0])
    listed = (*story.configuration_listed, *snippet_slots[1], *skill_slots[1])
    ids = (*range(story.bound), *snippet_slots[2], *skill_slots[2])
    forced = tuple(index >= story.bound for index in range(len(ranks)))
    return Send(ranks, listed, forced, STRICTEST_ZONE.rank, (), (), False), ids


def _composed(story: RunStory, lookups, ops) -> tuple[tuple, tuple]:
    """The slots of a prompt composed now through ``lookups``: the requested records against their switches at the start."""
    _, own_snippet_ids, skill_ids = story.record_ids()
    snippet_ids = _snippet_ids(story, own_snippet_ids, ops)
    never = tuple(False for _ in range(story.snippets.bound))
    snippets = _looked_up(story.snippets, story.snippets.requested, lookups.snippets, never, story.snippets.on_at_start, snippet_ids, ops)
    skills = _looked_up(story.skills, story.skills.requested, lookups.skills, never, story.skills.on_at_start, skill_ids, ops)
    return snippets, skills


def _checked(rules, *paths) -> list:
    """The model's lookups of each path (``lifecycle.path_lookups``); ValueError for one this encoding cannot order."""
    found = [lifecycle.path_lookups(path, rules) for path in paths]
    for lookups in found:
        # Only a resume's skills may come back in name order: the other slots must stay in the caller's order.
        if ALL_BY_NAME in (lookups.snippets, *(() if lookups.path == lifecycle.RESUME else (lookups.skills,))):
            raise ValueError(f"{rules.name}: only a resume of skills is looked up by name")
    return found


def playground_send(story: RunStory, rules, ops) -> tuple[Send, tuple]:
    """The story's records sent once through the playground (C164.6, C175.2): composed through the playground's lookups."""
    [lookups] = _checked(rules, lifecycle.PLAYGROUND_SEND)
    snippets, skills = _composed(story, lookups, ops)
    return _send(story, _deduplicated(story, snippets, ops), skills)


def story_sends(story: RunStory, rules, ops) -> tuple[tuple[Send, tuple], tuple[Send, tuple]]:
    """The dequeued send and the resumed send, each with the record id of every position.

    Each path resolves through the lookups the model names for it
    (``lifecycle.path_lookups``): the dequeue from the requested uids against
    the switches at the start, the resume from the uids a suspend stored
    (C165.1: those that resolved; none before ADR-165) against the records
    as they are then.
    """
    dequeue, resume = _checked(rules, lifecycle.DEQUEUE, lifecycle.RESUME)
    composed_snippets, composed_skills = _composed(story, dequeue, ops)
    _, own_snippet_ids, skill_ids = story.record_ids()
    snippet_ids = _snippet_ids(story, own_snippet_ids, ops)
    resumed = []
    for records, composed, lookup, ids in (
        (story.snippets, composed_snippets, resume.snippets, snippet_ids),
        (story.skills, composed_skills, resume.skills, skill_ids),
    ):
        stored = tuple(
            ops.And(rules.regates_on_resume, lifecycle.is_stored_on_suspend(asked, found, ops))
            for asked, found in zip(records.requested, composed[1])
        )
        resumed.append(_looked_up(records, stored, lookup, records.deleted_at_resume, records.on_at_resume, ids, ops))
    # Snippets are never looked up by name, so slot i is snippet i and the de-duplication applies slot by slot.
    return (
        _send(story, _deduplicated(story, composed_snippets, ops), composed_skills),
        _send(story, _deduplicated(story, resumed[0], ops), resumed[1]),
    )


def named_record(verdict: Verdict, ids: tuple, ops) -> Verdict:
    """The verdict with the named source's position replaced by its record id."""
    term = ids[-1]
    for position in range(len(ids) - 2, -1, -1):
        term = ops.If(verdict.source == position, ids[position], term)
    return Verdict(verdict.declared, ops.If(verdict.source == NO_SOURCE, NO_SOURCE, term), verdict.zone, verdict.kind, verdict.sent)


def judge_story(semantics, story: RunStory, ops) -> tuple[Verdict, Verdict]:
    """The verdicts of the composed and the resumed send, naming record ids."""
    return tuple(named_record(semantics.judge(send, ops), ids, ops) for send, ids in story_sends(story, semantics.rules, ops))


def judge_playground_send(semantics, story: RunStory, ops) -> tuple[Verdict]:
    """The verdict of the story's records sent once through the playground, naming record ids."""
    send, ids = playground_send(story, semantics.rules, ops)
    return (named_record(semantics.judge(send, ops), ids, ops),)
