"""Who may do what to which case: the lab-001 conditions and the order they are checked in.

Every fact here comes from the host's session, stored records or configuration;
the only thing taken from the proposal is which record it names. Checks that
read nothing about a case (session, role, destination) come before those that
do, and the tenant comes first among the case checks, so a caller learns nothing
about a case of another tenant, not even whether it exists.
"""

from __future__ import annotations

from typing import Callable

from .arguments import Check
from .records import Case, GatewayWorld, Session

SUPPORT_ROLE = "support"
SUPERVISOR_ROLE = "supervisor"

#: G001.10: reasons the caller is told differently from what the audit records.
CALLER_REASONS = {"tenant_mismatch": "case_not_found"}

DestinationCheck = Callable[[GatewayWorld, Session, str, dict], tuple[Check, ...]]


def is_session_valid(session: Session) -> bool:
    """G001.6: a session the host has revoked authorizes nothing."""
    return session.valid


def has_support_role(session: Session) -> bool:
    """G001.7: only a session holding the support role may export."""
    return SUPPORT_ROLE in session.roles


def is_internal_destination(world: GatewayWorld, destination_id: str) -> bool:
    """G001.8: an export goes only to a configured destination marked internal; unknown ids are denied alike."""
    destination = world.destination_index.get(destination_id)
    return destination is not None and destination.internal


def lookup_case(world: GatewayWorld, case_id: str) -> Case | None:
    """G001.9: the stored case a call names, or None when storage holds no such case."""
    return world.case_index.get(case_id)


def is_same_tenant(session: Session, case: Case) -> bool:
    """G001.10: a case is visible only to sessions of its own tenant; a mismatch is answered as ``case_not_found``."""
    return session.tenant == case.tenant


def is_assigned(session: Session, case: Case) -> bool:
    """G001.11: an export needs the session's user among the case's assignees."""
    return session.user in case.assignees


def may_read(session: Session, case: Case) -> bool:
    """G001.12: a case may be read by its assignees whatever their role, and by a supervisor of its tenant."""
    return session.user in case.assignees or SUPERVISOR_ROLE in session.roles


def check_session(session: Session) -> Check:
    """G001.6 as a check: the first condition after the shape, before anything else is consulted."""
    return Check("G001.6", "session is valid", "session_invalid", is_session_valid(session))


def check_lab_destination(world: GatewayWorld, session: Session, tool: str, arguments: dict) -> tuple[Check, ...]:
    """G001.8 as a check: lab-001 allows no destination but a configured internal one."""
    return (Check("G001.8", "destination is configured and internal", "destination_denied", is_internal_destination(world, arguments["destination_id"])),)


def check_authorization(
    world: GatewayWorld, session: Session, tool: str, arguments: dict, check_destination: DestinationCheck = check_lab_destination
) -> tuple[Check, ...]:
    """G001.13: the conditions on a well-formed call of a valid session, in precedence order, up to the first that fails.

    The order is role, destination, case existence, tenant, then assignment
    or the read rule. G001.16: nothing here reads case content or
    runbooks, so no text planted there can change a decision.
    """
    checks: list[Check] = []

    def add(check: Check) -> bool:
        checks.append(check)
        return check.passed

    exporting = tool == "export_case"
    if exporting and not add(Check("G001.7", "session holds the support role", "role_denied", has_support_role(session))):
        return tuple(checks)
    if exporting and not all(add(check) for check in check_destination(world, session, tool, arguments)):
        return tuple(checks)
    case = lookup_case(world, arguments["case_id"])
    if not add(Check("G001.9", "case exists", "case_not_found", case is not None)):
        return tuple(checks)
    if not add(Check("G001.10", "case belongs to the session's tenant", "tenant_mismatch", is_same_tenant(session, case))):
        return tuple(checks)
    if exporting:
        add(Check("G001.11", "session's user is assigned to the case", "not_assigned", is_assigned(session, case)))
    else:
        add(Check("G001.12", "session may read the case (assigned, or supervisor)", "not_assigned", may_read(session, case)))
    return tuple(checks)


def compute_reason(checks: tuple[Check, ...]) -> str:
    """G001.13: the reason of the first failed check; ``allowed`` when every check held."""
    return next((check.reason for check in checks if not check.passed), "allowed")
