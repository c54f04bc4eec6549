"""World changes between calls (and between a call's check and its write): what the host or storage does, never the model."""

from __future__ import annotations

from attrs import frozen

from ..records import replaced
from .world import GatewayWorld


@frozen
class ReassignCase:
    case_id: str
    assignees: frozenset[str]


@frozen
class RevokeSession:
    session_id: str


@frozen
class RemoveDestination:
    destination_id: str


@frozen
class EditCase:
    """Storage now holds other content for the case (for instance, a planted instruction)."""

    case_id: str
    content: str


@frozen
class EditRunbook:
    runbook_id: str
    content: str


@frozen
class AdvanceClock:
    seconds: int


Change = ReassignCase | RevokeSession | RemoveDestination | EditCase | EditRunbook | AdvanceClock


def apply_change(world: GatewayWorld, change: Change) -> GatewayWorld:
    """The world after one change; the reader has already checked that every record named exists.

    A change copies one path of the table it changes, never the table, so its
    cost does not grow with the records stored (``gateproof.model.tables``).
    """
    if isinstance(change, ReassignCase):
        return world.with_case(replaced(world.case_index[change.case_id], assignees=change.assignees))
    if isinstance(change, RevokeSession):
        return world.with_session(replaced(world.session_index[change.session_id], valid=False))
    if isinstance(change, RemoveDestination):
        return world.without_destination(change.destination_id)
    if isinstance(change, EditCase):
        return world.with_case(replaced(world.case_index[change.case_id], content=change.content))
    if isinstance(change, EditRunbook):
        return world.with_runbook(replaced(world.runbook_index[change.runbook_id], content=change.content))
    return replaced(world, clock=world.clock + change.seconds)


def apply_changes(world: GatewayWorld, changes) -> GatewayWorld:
    for change in changes:
        world = apply_change(world, change)
    return world
