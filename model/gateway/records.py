"""What the gateway reads: the host-held sessions, stored cases and runbooks, the
configured destinations, recorded approvals and the rate limit.

None of it can be written by the model: a call's arguments only *name* records.
"""

from __future__ import annotations

from attrs import evolve, frozen

from ..records import lookup_by


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
    session_index: dict[str, Session] = lookup_by("sessions", "id")
    case_index: dict[str, Case] = lookup_by("cases", "id")
    destination_index: dict[str, Destination] = lookup_by("destinations", "id")

    def with_case(self, case: Case) -> GatewayWorld:
        return evolve(self, cases=tuple(case if c.id == case.id else c for c in self.cases))

    def with_session(self, session: Session) -> GatewayWorld:
        return evolve(self, sessions=tuple(session if s.id == session.id else s for s in self.sessions))
