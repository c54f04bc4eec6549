"""What the gateway reads: the host-held sessions, stored records and runbooks, the
configured destinations, recorded approvals, the rate limit and the catalog that
declares the gateway's tools.

None of it can be written by the model: a call's arguments only *name* records.
"""

from __future__ import annotations

from attrs import frozen

from ..records import replaced
from ..tables import Table, lookup_of, table_field
from .catalog import Catalog, RateLimit
from .lab import LAB_CATALOG


@frozen
class Session:
    """A session as the host holds it: who is calling, with which roles, for which tenant."""

    id: str
    user: str
    tenant: str
    roles: frozenset[str]
    valid: bool


@frozen
class Case:
    """A stored record of one of the catalog's ``record_kinds`` (the lab's cases); ``content`` is data to export, never an instruction or a fact to decide by.

    No two records of a world share an id, whatever their kinds (S001.9).
    """

    id: str
    tenant: str
    assignees: frozenset[str]
    content: str
    kind: str = "case"


@frozen
class Destination:
    """A configured export destination; only ``internal`` ones are allowed under lab-001."""

    id: str
    internal: bool


@frozen
class Runbook:
    """A stored document the agent reads; like case content, it decides nothing."""

    id: str
    content: str


@frozen
class Approval:
    """An approval recorded by a trusted flow, bound to one exact action (G002.5)."""

    id: str
    tool: str
    arguments: str  # canonical JSON of the approved arguments (G002.7)
    user: str
    expires_at: int


@frozen
class GatewayWorld:
    """One snapshot of everything the gateway may consult, and the current time.

    Each table holds its lookup by id, built once with the world a reader
    builds and shared by every world changed from it; a change copies one
    path of the table it changes (``gateproof.model.tables``), so its cost
    does not grow with the records stored.
    """

    clock: int
    sessions: Table = table_field("id")
    cases: Table = table_field("id")
    destinations: Table = table_field("id")
    runbooks: Table = table_field("id")
    approvals: tuple[Approval, ...] = ()
    rate_limit: RateLimit | None = None
    catalog: Catalog = LAB_CATALOG

    session_index = lookup_of("sessions")
    case_index = lookup_of("cases")
    destination_index = lookup_of("destinations")
    runbook_index = lookup_of("runbooks")

    @property
    def limit(self) -> RateLimit | None:
        """G002.4: the rate limit the world configures, or else the one its catalog declares."""
        return self.rate_limit if self.rate_limit is not None else self.catalog.rate_limit

    def with_case(self, case: Case) -> GatewayWorld:
        """The world with ``case`` in place of the stored case of its id, in the same position."""
        return replaced(self, cases=self.cases.replaced(case))

    def with_session(self, session: Session) -> GatewayWorld:
        return replaced(self, sessions=self.sessions.replaced(session))

    def with_runbook(self, runbook: Runbook) -> GatewayWorld:
        return replaced(self, runbooks=self.runbooks.replaced(runbook))

    def without_destination(self, destination_id: str) -> GatewayWorld:
        return replaced(self, destinations=self.destinations.without(destination_id))
