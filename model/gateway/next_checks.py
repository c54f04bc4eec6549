"""The checks past the lab (rule version ``lab-001+next``): the ADR's "next checks".

Each closes a gap the ADR names: state that changes between the check and the
write, a repeated side effect, a session calling without bound, and an
external export that only a trusted, exact approval may allow.
"""

from __future__ import annotations

from attrs import frozen

from .arguments import Check, compute_canonical_arguments
from .authorize import check_authorization, check_session, lookup_destination, needs_argument_approval
from .catalog import ApprovalRule, CatalogTool, RateLimit
from .world import Approval, GatewayWorld, Session


@frozen
class CallRecord:
    """One earlier call as the rate limit counts it."""

    session: str
    time: int
    counted: bool  # False for a call refused by the rate limit itself


@frozen
class KeyBinding:
    """An idempotency key bound by an allowed export: the exact action it stands for."""

    key: str
    fingerprint: tuple[str, str, str]


def calls_in_window(limit: RateLimit, history: tuple[CallRecord, ...], session_id: str, now: int) -> tuple[int, ...]:
    """G002.4: the times of the session's counted calls in the window up to now, strictly after ``now - window`` and at or before ``now``."""
    return tuple(r.time for r in history if r.session == session_id and r.counted and now - limit.window < r.time <= now)


def is_within_rate_limit(limit: RateLimit | None, history: tuple[CallRecord, ...], session_id: str, now: int) -> bool:
    """G002.4: a session may make at most ``limit.calls`` counted calls in the ``limit.window`` seconds up to now."""
    if limit is None:
        return True
    return len(calls_in_window(limit, history, session_id, now)) < limit.calls


def compute_fingerprint(session: Session, tool: str, arguments: dict) -> tuple[str, str, str]:
    """G002.2: what an idempotency key is bound to: the session, the tool and the canonical arguments."""
    return session.id, tool, compute_canonical_arguments(arguments)


def lookup_key_binding(bindings: tuple[KeyBinding, ...], key: str | None) -> KeyBinding | None:
    """G002.2: the allowed export an idempotency key already stands for, if any; denied calls bind no key, nor does a call without one."""
    return next((binding for binding in bindings if binding.key == key), None)


def is_same_action(binding: KeyBinding, fingerprint: tuple[str, str, str]) -> bool:
    """G002.3: a reused key must name the very same action; a key reused for another action is ``idempotency_conflict``."""
    return binding.fingerprint == fingerprint


def is_approval_for(approval: Approval, session: Session, tool: str, arguments: dict) -> bool:
    """G002.5: an approval covers a call only when its tool, canonical arguments and user are exactly the call's."""
    return approval.tool == tool and approval.user == session.user and approval.arguments == compute_canonical_arguments(arguments)


def is_unexpired(approval: Approval, now: int) -> bool:
    """G002.6: an approval is usable strictly before its expiry time."""
    return now < approval.expires_at


def check_next_action(world: GatewayWorld, session: Session, tool: CatalogTool, arguments: dict) -> tuple[Check, ...]:
    """G001.8, G002.5, G002.6: an internal destination passes; a configured external one only where the tool declares an
    ``external_destination`` approval, and then with an unexpired approval of this exact action, as any call that
    needs one (an ``argument_above`` approval that applies) does.

    The destination is the one ``tools[].destination`` names; the approvals are ``tools[].approvals``.
    """
    needed = needs_argument_approval(tool, arguments)
    if tool.destination is not None:
        destination = lookup_destination(world, tool, arguments)
        external_allowed = ApprovalRule("external_destination") in tool.approvals
        if destination is None or not (destination.internal or external_allowed):
            return (Check("G001.8", "destination_denied", False),)
        checks: tuple[Check, ...] = (Check("G001.8", "destination_denied", True),) if destination.internal else ()
        needed = needed or not destination.internal
    else:
        checks = ()
    if not needed:
        return checks
    approvals = [a for a in world.approvals if is_approval_for(a, session, tool.name, arguments)]
    found = Check("G002.5", "approval_required", bool(approvals))
    if not approvals:
        return checks + (found,)
    live = any(is_unexpired(a, world.clock) for a in approvals)
    return checks + (found, Check("G002.6", "approval_expired", live))


def recheck_at_write(world: GatewayWorld, session_id: str, tool: CatalogTool, arguments: dict) -> tuple[Check, ...]:
    """G002.1: at the moment of the write every condition is judged again on the state as it is then."""
    session = world.session_index[session_id]
    first = check_session(session)
    if not first.passed:
        return (first,)
    return (first,) + check_authorization(world, session, tool, arguments, check_next_action)
