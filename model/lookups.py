"""Record lookups: by uid (the two lookups of ADR-166/175) and by tag (ADR-144).

The two uid lookups differ in one filter only. Both keep the caller's uid
order, skip unknown uids, never return a deleted record, ignore the hidden
flag and keep duplicates.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .lattice import CONCRETE
from .records import Snippet
from .text import ascii_lower, trim
from .versions import ALL_BY_NAME, ENABLED, EXISTING


#: C144.19: the two collations an installation's database may compare strings by.
CASE_SENSITIVE, CASE_INSENSITIVE = "case-sensitive", "case-insensitive"


def collated(value: str, collation: str) -> str:
    """C144.19: a string as the database compares it: as stored, or with ASCII letters folded to lower case."""
    return ascii_lower(value) if collation == CASE_INSENSITIVE else value


def is_kept_by(lookup: str, deleted, switched_on, ops=CONCRETE):
    """C165.4, C166.1, C166.2: whether a lookup returns a stored record it was asked for.

    No lookup returns a deleted record; only the enabled lookup reads the
    switch. Written with ``ops`` so the lifecycle proofs filter records by
    this very rule (see ``gateproof.model.lattice``).
    """
    if lookup == ENABLED:
        return ops.And(ops.Not(deleted), switched_on)
    return ops.Not(deleted)


def _lookup_in_caller_order(lookup: str, index: Mapping[int, object], uids: Sequence[int]) -> tuple:
    found = []
    for uid in uids:
        record = index.get(uid)
        if record is not None and is_kept_by(lookup, record.deleted, record.switched_on):
            found.append(record)
    return tuple(found)


def lookup_enabled(index: Mapping[int, object], uids: Sequence[int]) -> tuple:
    """C166.1, C175.1: the lookup for a prompt assembled now: switched-on, undeleted records only."""
    return _lookup_in_caller_order(ENABLED, index, uids)


def lookup_existing(index: Mapping[int, object], uids: Sequence[int]) -> tuple:
    """C166.2, C175.1, C165.4: the lookup for text already in a transcript: every undeleted record."""
    return _lookup_in_caller_order(EXISTING, index, uids)


def lookup_all_by_name(index: Mapping[int, object], uids: Sequence[int]) -> tuple:
    """C165.6: the skill resume lookup before ADR-175: every undeleted record asked for, once each, by name.

    It filtered the whole table by uid, so it ignored the switch and the
    duplicates and returned the repository's name order, not the caller's.
    """
    wanted = set(uids)
    found = [record for uid, record in index.items() if uid in wanted and is_kept_by(ALL_BY_NAME, record.deleted, record.switched_on)]
    return tuple(sorted(found, key=lambda record: (record.name, record.uid)))


def has_tag(snippet: Snippet, tag: str) -> bool:
    """C144.4: the snippet's comma-separated tags hold the tag as a whole token, case-insensitively."""
    # A whole token equal to the tag is also a substring of the lowered tags:
    # the cheap test rules out most snippets before any token is split off.
    tags = ascii_lower(snippet.tags)
    return tag in tags and tag in map(trim, tags.split(","))


def lookup_active_by_tag(snippets: Sequence[Snippet], tag: str, collation: str = CASE_SENSITIVE) -> tuple[Snippet, ...]:
    """C144.4, C144.19: active, undeleted snippets carrying a tag, by sorting then name under the collation.

    ``tag`` is already normalised (trimmed, lowercased) and never empty: the
    configuration's tag list skips an empty token, so it selects nothing. Hidden snippets are
    returned here; the configuration's selection leaves them out (C144.5).
    """
    matching = [s for s in snippets if s.active and not s.deleted and has_tag(s, tag)]
    # Names equal under the collation keep the order the world lists them in.
    return tuple(sorted(matching, key=lambda s: (s.sorting, collated(s.name, collation))))
