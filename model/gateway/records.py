"""What the gateway reads: the host-held sessions, stored cases and runbooks, the
configured destinations, recorded approvals and the rate limit.

None of it can be written by the model: a call's arguments only *name* records.
"""

from __future__ import annotations

from attrs import Factory, evolve, field, frozen

#: Tables whose index a change has already built, by the table's identity: at most a few, the latest first.
_BUILT: list[tuple[tuple, dict]] = []


def _index(table: tuple) -> dict:
    """The records of ``table`` by id; the index a change built with the table is taken as it is."""
    for built, index in _BUILT:
        if built is table:
            return index
    return {record.id: record for record in table}


def _built(index: dict) -> tuple:
    """The table of ``index``'s records, in its order, remembered with the index so the world need not rebuild it."""
    table = tuple(index.values())
    _BUILT.insert(0, (table, index))
    del _BUILT[8:]
    return table


def lookup_by_id(table: str):
    """A derived field of a gateway world: its ``table``'s records by id, no part of its equality.

    A world changed by one record copies its old index and replaces that
    record (a copy at C speed) instead of reading every record again, so a
    story of many changes over a large world stays fast; the tables that did
    not change keep their index.
    """
    return field(init=False, eq=False, repr=False, default=Factory(lambda world: _index(getattr(world, table)), takes_self=True))


@frozen
class Session:
    """A session as the host holds it: who is calling, with which roles, for which tenant."""

    id: str
    user: str
    tenant: str
    roles: frozenset[str] = frozenset()
    valid: bool = True


@frozen
class Case:
    """A stored case record; ``content`` is data to export, never an instruction or a fact to decide by."""

    id: str
    tenant: str
    assignees: frozenset[str] = frozenset()
    content: str = ""


@frozen
class Destination:
    """A configured export destination; only ``internal`` ones are allowed under lab-001."""

    id: str
    internal: bool


@frozen
class Runbook:
    """A stored document the agent reads; like case content, it decides nothing."""

    id: str
    content: str = ""


@frozen
class Approval:
    """An approval recorded by a trusted flow, bound to one exact action (G002.5)."""

    id: str
    tool: str
    arguments: str  # canonical JSON of the approved arguments (G002.7)
    user: str
    expires_at: int


@frozen
class RateLimit:
    """At most ``calls`` calls per session in any ``window`` seconds (G002.4)."""

    calls: int
    window: int


@frozen
class GatewayWorld:
    """One snapshot of everything the gateway may consult, and the current time.

    The lookups by id are built with the world, as the ceiling's world builds
    its own: every call reads them; being derived, they take no part in equality.
    """

    sessions: tuple[Session, ...] = ()
    cases: tuple[Case, ...] = ()
    destinations: tuple[Destination, ...] = ()
    runbooks: tuple[Runbook, ...] = ()
    approvals: tuple[Approval, ...] = ()
    rate_limit: RateLimit | None = None
    clock: int = 0
    session_index: dict[str, Session] = lookup_by_id("sessions")
    case_index: dict[str, Case] = lookup_by_id("cases")
    destination_index: dict[str, Destination] = lookup_by_id("destinations")

    def with_case(self, case: Case) -> GatewayWorld:
        """The world with ``case`` in place of the stored case of its id, in the same position."""
        return evolve(self, cases=_built({**self.case_index, case.id: case}))

    def with_session(self, session: Session) -> GatewayWorld:
        return evolve(self, sessions=_built({**self.session_index, session.id: session}))

    def without_destination(self, destination_id: str) -> GatewayWorld:
        index = dict(self.destination_index)
        index.pop(destination_id, None)
        return evolve(self, destinations=_built(index))
