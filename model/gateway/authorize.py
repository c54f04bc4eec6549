"""Who may do what to which case: the lab-001 conditions and the order they are checked in.

Every fact here comes from the host's session, stored records or configuration;
the only thing taken from the proposal is which record it names. Checks that
read nothing about a case (session, role, destination) come before those that
do, and the tenant comes first among the case checks, so a caller learns nothing
about a case of another tenant, not even whether it exists.
"""

from __future__ import annotations

from typing import Callable

from attrs import frozen

from ..lattice import CONCRETE
from .arguments import REASON_CODES, Check, first_failed_reason, until_first_failure
from .lab import DESTINATION_ARGUMENT, EXPORT_TOOL, RECORD_ARGUMENT, SUPERVISOR_ROLE, SUPPORT_ROLE
from .records import Case, GatewayWorld, Session

#: G001.10: reasons the caller is told differently from what the audit records.
CALLER_REASONS = {"tenant_mismatch": "case_not_found"}

DestinationCheck = Callable[[GatewayWorld, Session, str, dict], tuple[Check, ...]]


def is_session_valid(session: Session) -> bool:
    """G001.6: a session the host has revoked authorizes nothing."""
    return session.valid


def has_support_role(session: Session) -> bool:
    """G001.7: only a session holding the support role (the export tool's ``tools[].roles``) may export."""
    return SUPPORT_ROLE in session.roles


def lookup_case(world: GatewayWorld, case_id: str) -> Case | None:
    """G001.9: the stored case a call names, or None when storage holds no such case."""
    return world.case_index.get(case_id)


def is_same_tenant(session: Session, case: Case) -> bool:
    """G001.10: a case is visible only to sessions of its own tenant; a mismatch is answered as ``case_not_found``."""
    return session.tenant == case.tenant


def is_assigned(session: Session, case: Case) -> bool:
    """G001.11: an export needs the session's user among the case's assignees."""
    return session.user in case.assignees


def has_supervisor_role(session: Session) -> bool:
    """G001.12: the role that may read any case of its own tenant (the retrieval tool's ``tools[].tenant_reader_role``)."""
    return SUPERVISOR_ROLE in session.roles


def may_read(assigned, supervisor, ops=CONCRETE):
    """G001.12: a case may be read by its assignees whatever their role, and by a supervisor of its tenant."""
    return ops.Or(assigned, supervisor)


def exports_to(configured, internal, ops=CONCRETE):
    """G001.8: lab-001 exports only to a destination that is configured and marked internal; unknown ids are denied alike."""
    return ops.And(configured, internal)


@frozen
class AuthorizationFacts:
    """What the conditions after the session read about the caller and the case: bools, or z3 terms in the proofs.

    A fact about a case that does not exist is false; the case's existence
    is checked first, so it is never what decides.
    """

    support: object
    supervisor: object
    case_exists: object
    same_tenant: object
    assigned: object


def facts_of(world: GatewayWorld, session: Session, arguments: dict) -> AuthorizationFacts:
    """G001.7, G001.9–G001.12: the facts the host's session and stored case hold, read once per call.

    The case is the one the tool's record argument (``tools[].record.argument``) names.
    """
    case = lookup_case(world, arguments[RECORD_ARGUMENT])
    return AuthorizationFacts(
        support=has_support_role(session),
        supervisor=has_supervisor_role(session),
        case_exists=case is not None,
        same_tenant=case is not None and is_same_tenant(session, case),
        assigned=case is not None and is_assigned(session, case),
    )


def authorization_checks(exporting, facts: AuthorizationFacts, destination_checks, ops=CONCRETE) -> tuple[tuple[Check, object], ...]:
    """G001.13: every condition after the session, in precedence order, each with whether it applies to the tool.

    The order is role, destination, case existence, tenant, then assignment
    (export) or the read rule. ``destination_checks`` are the version's
    destination conditions, applying to exports only. Written with ``ops``
    so the proofs decide a call by these very conditions.
    """
    return (
        (Check("G001.7", "role_denied", facts.support), exporting),
        *((check, exporting) for check in destination_checks),
        (Check("G001.9", "case_not_found", facts.case_exists), True),
        (Check("G001.10", "tenant_mismatch", facts.same_tenant), True),
        (Check("G001.11", "not_assigned", facts.assigned), exporting),
        (
            Check("G001.12", "not_assigned", may_read(facts.assigned, facts.supervisor, ops)),
            ops.Not(exporting),
        ),
    )


def session_check(valid) -> Check:
    """G001.6 as a check over whether the session is valid."""
    return Check("G001.6", "session_invalid", valid)


def check_session(session: Session) -> Check:
    """G001.6 as a check: the first condition after the shape, before anything else is consulted."""
    return session_check(is_session_valid(session))


def lab_destination_checks(configured, internal, ops=CONCRETE) -> tuple[Check, ...]:
    """G001.8 as a check over whether the destination is configured and internal."""
    return (Check("G001.8", "destination_denied", exports_to(configured, internal, ops)),)


def check_lab_destination(world: GatewayWorld, session: Session, tool: str, arguments: dict) -> tuple[Check, ...]:
    """G001.8 as a check: lab-001 allows no destination but a configured internal one, named by ``tools[].destination``."""
    destination = world.destination_index.get(arguments[DESTINATION_ARGUMENT])
    configured = destination is not None
    return lab_destination_checks(configured, configured and destination.internal)


def check_authorization(
    world: GatewayWorld, session: Session, tool: str, arguments: dict, check_destination: DestinationCheck = check_lab_destination
) -> tuple[Check, ...]:
    """G001.13: the conditions on a well-formed call of a valid session, in precedence order, up to the first that fails.

    The checks that do not apply to the tool are left out: those of an
    export apply to the tool whose ``tools[].effect`` is ``export``. G001.16:
    nothing here reads case content or runbooks, so no text planted there
    can change a decision.
    """
    exporting = tool == EXPORT_TOOL.name
    destination = check_destination(world, session, tool, arguments) if exporting else ()
    checks = authorization_checks(exporting, facts_of(world, session, arguments), destination)
    return until_first_failure(check for check, applies in checks if applies)


def compute_reason(checks: tuple[Check, ...]) -> str:
    """G001.13: the reason of the first failed check; ``allowed`` when every check held."""
    return REASON_CODES[first_failed_reason(checks)]
