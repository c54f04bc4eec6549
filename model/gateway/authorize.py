"""Who may do what to which record: the conditions over a catalog's tools and the order they are checked in.

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
from .catalog import ApprovalRule, CatalogTool
from .catalog_checks import ANY_ROLE
from .world import Case, GatewayWorld, Session

#: G001.10: reasons the caller is told differently from what the audit records.
CALLER_REASONS = {"tenant_mismatch": "case_not_found"}

ActionCheck = Callable[[GatewayWorld, Session, CatalogTool, dict], tuple[Check, ...]]


def is_session_valid(session: Session) -> bool:
    """G001.6: a session the host has revoked authorizes nothing."""
    return session.valid


def has_tool_role(session: Session, tool: CatalogTool) -> bool:
    """G001.7: a session may call a tool only holding one of the roles it lists (``tools[].roles``); ``*`` is any role, and no role is checked.

    The lab's export lists ``support``; its read lists ``*``.
    """
    return ANY_ROLE in tool.roles or not tool.roles.isdisjoint(session.roles)


def lookup_case(world: GatewayWorld, case_id: str, kind: str = "case") -> Case | None:
    """G001.9: the stored record of the tool's kind (``tools[].record.kind``) a call names, or None when storage holds no such record."""
    case = world.case_index.get(case_id)
    return case if case is not None and case.kind == kind else None


def is_same_tenant(session: Session, case: Case) -> bool:
    """G001.10: a record is visible only to sessions of its own tenant; a mismatch is answered as ``case_not_found``."""
    return session.tenant == case.tenant


def is_assigned(session: Session, case: Case) -> bool:
    """G001.11: a call with a side effect (an export or a write) needs the session's user among the record's assignees."""
    return session.user in case.assignees


def has_tenant_reader_role(session: Session, tool: CatalogTool) -> bool:
    """G001.12: the role that may read any record of its own tenant (``tools[].tenant_reader_role``; the lab's ``supervisor``), when the retrieval names one."""
    return tool.tenant_reader_role is not None and tool.tenant_reader_role in session.roles


def may_read(assigned, supervisor, ops=CONCRETE):
    """G001.12: a record may be read by its assignees whatever their role, and by a tenant reader of its tenant."""
    return ops.Or(assigned, supervisor)


def exports_to(configured, internal, ops=CONCRETE):
    """G001.8: lab-001 exports only to a destination that is configured and marked internal; unknown ids are denied alike."""
    return ops.And(configured, internal)


@frozen
class AuthorizationFacts:
    """What the conditions after the session read about the caller and the record: bools, or z3 terms in the proofs.

    A fact about a record that does not exist is false; the record's
    existence is checked first, so it is never what decides.
    """

    support: object  # G001.7: the session holds one of the tool's roles
    supervisor: object  # G001.12: the session holds the tool's tenant reader role
    case_exists: object
    same_tenant: object
    assigned: object


def facts_of(world: GatewayWorld, session: Session, tool: CatalogTool, arguments: dict) -> AuthorizationFacts:
    """G001.7, G001.9–G001.12: the facts the host's session and stored record hold, read once per call.

    The record is the one the tool's record argument (``tools[].record.argument``) names, of its kind.
    """
    case = lookup_case(world, arguments[tool.record_argument], tool.record_kind)
    return AuthorizationFacts(
        support=has_tool_role(session, tool),
        supervisor=has_tenant_reader_role(session, tool),
        case_exists=case is not None,
        same_tenant=case is not None and is_same_tenant(session, case),
        assigned=case is not None and is_assigned(session, case),
    )


def authorization_checks(side_effect, facts: AuthorizationFacts, action_checks, ops=CONCRETE, role_checked=None) -> tuple[tuple[Check, object], ...]:
    """G001.13: every condition after the session, in precedence order, each with whether it applies to the tool.

    The order is role, destination and approval, record existence, tenant,
    then assignment (a side effect) or the read rule (a retrieval).
    ``action_checks`` are the version's destination and approval conditions
    on the call. The role is checked where the tool lists roles
    (``role_checked``; of the lab's tools, the export). Written with
    ``ops`` so the proofs decide a call by these very conditions.
    """
    return (
        (Check("G001.7", "role_denied", facts.support), side_effect if role_checked is None else role_checked),
        *((check, True) for check in action_checks),
        (Check("G001.9", "case_not_found", facts.case_exists), True),
        (Check("G001.10", "tenant_mismatch", facts.same_tenant), True),
        (Check("G001.11", "not_assigned", facts.assigned), side_effect),
        (
            Check("G001.12", "not_assigned", may_read(facts.assigned, facts.supervisor, ops)),
            ops.Not(side_effect),
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


def lookup_destination(world: GatewayWorld, tool: CatalogTool, arguments: dict):
    """G001.8: the configured destination the call's ``tools[].destination`` argument names, or None."""
    return world.destination_index.get(arguments[tool.destination])


def is_argument_above(approval: ApprovalRule, arguments: dict) -> bool:
    """G001.18, G002.5: an ``argument_above`` approval applies when the call carries its argument with a value strictly above ``above``."""
    value = arguments.get(approval.argument)
    return approval.when == "argument_above" and value is not None and value > approval.above


def needs_argument_approval(tool: CatalogTool, arguments: dict) -> bool:
    """G001.18, G002.5: some ``argument_above`` approval of the tool (``tools[].approvals``) applies to the call."""
    return any(is_argument_above(approval, arguments) for approval in tool.approvals)


def check_lab_action(world: GatewayWorld, session: Session, tool: CatalogTool, arguments: dict) -> tuple[Check, ...]:
    """G001.8, G001.18 under lab-001, which honours no approval: a destination must be configured and internal, and an action that needs an approval is refused."""
    checks = ()
    if tool.destination is not None:
        destination = lookup_destination(world, tool, arguments)
        checks = lab_destination_checks(destination is not None, destination is not None and destination.internal)
    if needs_argument_approval(tool, arguments):
        checks += (Check("G001.18", "approval_required", False),)
    return checks


def check_authorization(
    world: GatewayWorld, session: Session, tool: CatalogTool, arguments: dict, check_action: ActionCheck = check_lab_action
) -> tuple[Check, ...]:
    """G001.13: the conditions on a well-formed call of a valid session, in precedence order, up to the first that fails.

    The checks that do not apply to the tool are left out: assignment
    applies to a tool whose ``tools[].effect`` is a side effect, the read
    rule to a retrieval, the role to a tool that lists roles. G001.16:
    nothing here reads record content or runbooks, so no text planted there
    can change a decision.
    """
    checks = authorization_checks(
        tool.has_side_effect, facts_of(world, session, tool, arguments), check_action(world, session, tool, arguments),
        role_checked=ANY_ROLE not in tool.roles,
    )
    return until_first_failure(check for check, applies in checks if applies)


def compute_reason(checks: tuple[Check, ...]) -> str:
    """G001.13: the reason of the first failed check; ``allowed`` when every check held."""
    return REASON_CODES[first_failed_reason(checks)]
