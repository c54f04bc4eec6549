"""The readings a default campaign once caught on some seeds only, and their families, caught whatever the seed.

Each reading of a compared text (trimmed, folded with Unicode's case) and of
a raw integer past 64 bits is a Node variant; the corpus holds the boundary
pair that tells each apart, and the corpus is the same on every seed, so
the corpus alone must catch every one. Three of the four readings a generated
document can hold are also drawn decisively by the generators: each seed of
several draws, within the share a default campaign draws, the corner that
tells it apart.
"""

from __future__ import annotations

import shutil
from itertools import islice

import pytest

from gateproof.conformance.generation import scenarios
from gateproof.conformance.generation.decisive_corners import UNICODE_TWIN_TAGS
from gateproof.conformance.harness.campaign import CampaignSettings
from gateproof.conformance.mutation.variants import CAUGHT, drive_all, read_variants
from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.versions import VERSIONS

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
#: A tag's readings under a case-insensitive collation, a playground integer past 64 bits, an idempotency key trimmed or
#: read on a read call; then the family of each: every compared text trimmed or folded, every raw integer past 64 bits.
READINGS = ("collation-folds-tags", "request-past-64-dropped", "idem-key-trimmed", "idem-read-keys")
FAMILY = (
    "hastag-unicode-lower", "collation-unicode-fold", "idem-read-binds", "request-huge-dropped", "request-float-huge-dropped",
    "request-string-no-saturate", "saturate-boundary", "queued-past-64-wraps", "suspended-past-64-wraps", "be-user-saturated",
    "case-id-trimmed", "destination-trimmed", "tenant-trimmed", "assignee-trimmed", "role-trimmed", "approval-user-trimmed",
    "approval-tool-upper", "role-upper", "switch-upper", "model-relation-unicode-fold", "skill-name-trimmed",
    "snippet-fallback-name-trimmed", "zone-trimmed", "tool-casefold", "audit-case-id-number-stringified",
)
SEEDS = (0, 1, 2)
#: The most scenarios of one target a default campaign draws (its examples shared among every version of both kinds).
SHARE = CampaignSettings().examples // (len(VERSIONS) + len(GATEWAY_VERSIONS))


@needs_node
def test_the_corpus_alone_catches_each_reading_and_its_family():
    by_name = {variant.name: variant for variant in read_variants()}
    outcomes = drive_all([by_name[name] for name in READINGS + FAMILY], jobs=2, options=("--examples", "0"))
    assert [(o.variant.name, o.status, o.detail) for o in outcomes if o.status != CAUGHT] == []
    assert all(o.first.startswith(("ceiling.", "lifecycle.", "gw.")) for o in outcomes)


def drawn(kind: str, version: str, seed: int) -> list[dict]:
    return list(islice(scenarios(kind, version, seed), SHARE))


def tags_a_letter_apart(document: dict) -> bool:
    """A world under a case-insensitive collation whose configurations select a tag that a live secretAdjacent snippet
    carries in another case of a letter outside A-Z, and a step that sends or reads out."""
    world, twins = document["world"], {frozenset(pair) for pair in UNICODE_TWIN_TAGS}
    selected = {tag for c in world["configurations"] for tag in str(c.get("snippet_tags", "")).split(",")}
    return world.get("collation") == "case-insensitive" and any(
        s.get("data_class") == "secretAdjacent" and s.get("active", True) and not s.get("hidden") and not s.get("deleted")
        and any(frozenset((s.get("tags"), tag)) in twins for tag in selected) for s in world["snippets"]
    ) and any(step["op"] in ("send", "readout") for step in document["steps"])


def keys_after_an_export(document: dict) -> tuple[bool, bool]:
    """Whether a call carries a key bound by an earlier export with a space around it; whether a read by the session that
    bound a key, of the case its export named, carries that key (a read such a session may make, so what it is answered
    shows how the key was read)."""
    bound, spaced, on_a_read = {}, False, False
    for step in document["steps"]:
        key = step.get("idempotency_key") if step["op"] == "call" else None
        if isinstance(key, str):
            spaced |= key != key.strip() and key.strip() in bound
            on_a_read |= step["tool"] == "read_case" and bound.get(key) == (step["session"], case_of(step))
            if step["tool"] == "export_case":
                bound.setdefault(key, (step["session"], case_of(step)))
    return spaced, on_a_read


def case_of(step: dict) -> object:
    arguments = step["arguments"]
    return arguments.get("case_id") if type(arguments) is dict else None


@pytest.mark.parametrize("seed", SEEDS)
def test_each_seed_draws_the_tag_corner_a_unicode_fold_reads_otherwise(seed):
    assert sum(tags_a_letter_apart(d) for d in drawn("ceiling", "adr-179", seed)) >= 10


@pytest.mark.parametrize("seed", SEEDS)
def test_each_seed_draws_keys_with_spaces_and_keys_on_reads_after_an_export(seed):
    found = [keys_after_an_export(d) for d in drawn("gateway", "lab-001+next", seed)]
    assert sum(spaced for spaced, _ in found) >= 10 and sum(on_a_read for _, on_a_read in found) >= 15
