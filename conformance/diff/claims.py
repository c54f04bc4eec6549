"""The consequence claims the ADRs make about themselves, checked by search.

Each claim is a predicate over one story; a check searches for a story that
breaks it and shrinks the one it finds. A claim some versions are documented
to break (the defect a later ADR names) says so, so a broken claim is either
a documented defect or a finding, and one outside its span is not claimed.
"""

from __future__ import annotations

from typing import Callable

from attrs import frozen

from gateproof.model.scenario import ScenarioError, read_scenario
from gateproof.model.versions import ClaimSpan, declarations

from .search import outcome_under, span_words, within
from ..generation.reducer import reduce
from ..generation.stories import StoryKind, fits, story_document

#: Keys that say what entered a run or what is said about it, not what the gate decided.
NOT_DECISION = {"dropped", "forced_snippets", "forced_skills", "state"}


def decisions(outcome: dict) -> list[dict]:
    """Each step's result without the keys that record rather than decide."""
    return [{k: v for k, v in result.items() if k not in NOT_DECISION} for result in outcome["results"]]


def without_dropped(outcome: dict) -> list[dict]:
    return [{k: v for k, v in result.items() if k != "dropped"} for result in outcome["results"]]


def names_across_suspension(outcome: dict) -> bool:
    """The resume names the source the run's first send named, when neither changed anything in between."""
    gated = [r for r in outcome["results"] if r["op"] in ("dequeue", "resume") and "decision" in r]
    if len(gated) < 2 or gated[0]["decision"] == "dry_run":
        return True
    return gated[0]["source"] == gated[1]["source"]


@frozen
class Claim:
    """A declared claim (``gateproof.model.versions.ClaimSpan``) with how it is checked."""

    id: str
    adr: str  # the ADR of the version that declares it
    statement: str
    stories: StoryKind  # the stories the claim is about
    pairwise: bool  # compares --from with --to; otherwise checked under each version alone
    holds: Callable  # (document, version, other) -> bool
    checked_as: str
    span: ClaimSpan

    @property
    def holds_from(self) -> str:
        return self.span.holds_from

    def holds_over(self, version: str) -> bool:
        """Whether the ADRs document the claim as holding under ``version``."""
        return within(version, self.span.holds_from, self.span.holds_until)

    def applies(self, left: str, right: str) -> bool:
        """A pairwise claim is about the pairs inside its span only; the others are checked under any version."""
        return not self.pairwise or (self.holds_over(left) and self.holds_over(right))


def _agree(view):
    return lambda document, version, other: view(outcome_under(document, version)) == view(outcome_under(document, other))


@frozen
class Check:
    """What a claim's search compares: two versions (``pairwise``) or each version alone, and what that says."""

    pairwise: bool
    holds: Callable  # (document, version, other) -> bool
    says: str


#: The checks a declared claim may name (``ClaimSpan.check``).
CHECKS = {
    "same decisions": Check(True, _agree(decisions), "the two versions give the same decisions"),
    "same results but the dropped record": Check(True, _agree(without_dropped),
                                                 "the two versions give the same results once the dropped record is set aside"),
    "decisions of pre-164": Check(False, lambda d, version, _: decisions(outcome_under(d, version)) == decisions(outcome_under(d, "pre-164")),
                                  "under each version, the decisions are those `pre-164` gives"),
    "same source across a suspension": Check(False, lambda d, version, _: names_across_suspension(outcome_under(d, version)),
                                             "under each version, the resume names the source the run's first send named"),
}

#: The kinds of story a declared claim may be about (``ClaimSpan.stories``): the story generator's flags, and how they read.
STORIES = {
    "unclassified": ({"classified": False}, "whose records declare no class"),
    "forcing nothing": ({"forcing": False}, "that forces nothing"),
    "unchanged": ({"changing": False}, "in which no record changes"),
    "tied": ({"tied_skills": True}, "whose system prompt and skills declare one class"),
    "observed": ({"observing": True}, "whose gate observes"),
}


class UnknownClaim(ValueError):
    """A declared claim names a check or a kind of story nothing here knows."""


def _claim(version, span: ClaimSpan) -> Claim:
    if span.check not in CHECKS:
        raise UnknownClaim(f"{span.id}: check {span.check!r} is none of {', '.join(map(repr, CHECKS))}")
    unknown = [word for word in span.stories if word not in STORIES]
    if unknown:
        raise UnknownClaim(f"{span.id}: stories {', '.join(map(repr, unknown))} are none of {', '.join(map(repr, STORIES))}")
    check = CHECKS[span.check]
    flags = {flag: value for word in span.stories for flag, value in STORIES[word][0].items()}
    about = " and ".join(STORIES[word][1] for word in span.stories)
    checked_as = f"{check.says}, on every story {about}" if about else f"{check.says}, on every story"
    return Claim(span.id, version.adr, span.statement, StoryKind(**flags), check.pairwise, check.holds, checked_as, span)


def declared_claims() -> tuple[Claim, ...]:
    """Every claim the version declarations make, each with its check; UnknownClaim for one that names no known check."""
    return tuple(_claim(version, span) for version in declarations() for span in version.claims)


@frozen
class ClaimCheck:
    claim: Claim
    versions: tuple[str, ...]
    held: bool
    counterexample: dict | None

    @property
    def expected(self) -> bool:
        """Whether the ADRs claim it for these versions: outside its span a claim is not made, and neither result is a finding.

        Before the ADR that closes a defect the claim may break (the defect),
        or hold where the defect cannot arise (``pre-164`` forces nothing).
        """
        return all(self.claim.holds_over(v) for v in self.versions)

    @property
    def unexpected(self) -> bool:
        """A claim the ADRs make for these versions, broken: a finding."""
        return self.expected and not self.held

    @property
    def documented(self) -> str:
        if self.held or self.expected:
            return ""
        return f"documented: {self.claim.adr} makes this claim for {span_words(self.claim.span)} only"


#: Stories a claim's counterexample may be reduced through: each costs a decision under one or two versions.
REDUCTION_BUDGET = 2000


def check_claim(claim: Claim, version: str, other: str, examples: int, seed: int = 0) -> ClaimCheck:
    """Search ``examples`` seeded stories for one that breaks ``claim`` under ``version`` (compared with ``other`` when pairwise).

    The first story that breaks it is reduced to the smallest story of the
    claim's kind that still breaks it.
    """
    versions = (version, other) if claim.pairwise else (version,)

    def breaks(document: dict) -> bool:
        return not claim.holds(document, version, other)

    def still_breaks(document: dict) -> bool:
        if not fits(document, claim.stories):
            return False
        try:
            read_scenario(document)
        except ScenarioError:
            return False
        return breaks(document)

    for number in range(examples):
        story = story_document(seed * 1_000_003 + number, claim.stories)
        if breaks(story):
            return ClaimCheck(claim, versions, False, reduce(story, still_breaks, REDUCTION_BUDGET))
    return ClaimCheck(claim, versions, True, None)


def claims_to_check(left: str, right: str) -> list[tuple[Claim, str, str]]:
    """Every claim that concerns the two versions, with the versions to check it under: pairwise claims once, the others under each version."""
    checks = []
    for claim in declared_claims():
        if claim.pairwise:
            if claim.applies(left, right):
                checks.append((claim, left, right))
        else:
            checks += [(claim, version, version) for version in (left, right)]
    return checks


def check_claims(left: str, right: str, examples: int = 300, seed: int = 0) -> list[ClaimCheck]:
    """Every claim of :func:`claims_to_check`, checked."""
    return [check_claim(claim, version, other, examples, seed) for claim, version, other in claims_to_check(left, right)]
