"""The invariants of the tool-call gateway: allow only what the host's facts allow, and all of it.

Each claim reads the verdict of one abstract call (``gateway_call``): the
reason the gateway gives and whether it allowed the call.
"""

from __future__ import annotations

from .catalog import implies, invariant
from .domains import GATEWAY_CALLS
from .gateway_call import EXPORT, READ, fresh_call, has_extra, has_missing, is_well_formed


def one_call(bound: int):
    """Any call of a known or unknown tool with at most ``bound`` fields, under any session, case and destination."""
    return (fresh_call("call", bound),), []


def _export_conditions(call, ops):
    return ops.And(
        call.tool == EXPORT, call.session_valid, call.support, call.destination_configured, call.destination_internal,
        call.case_exists, call.same_tenant, call.assigned,
    )


def _read_conditions(call, ops):
    return ops.And(call.tool == READ, call.session_valid, call.case_exists, call.same_tenant, ops.Or(call.assigned, call.supervisor))


@invariant(
    "I014",
    one_call,
    ("G001.6", "G001.7", "G001.8", "G001.9", "G001.10", "G001.11", "G001.12"),
    ("wrong:unsafe-gateway", "wrong:trusts-forged-authority", "wrong:skips-assignment"),
    domain=GATEWAY_CALLS,
)
def allowed_call_meets_every_condition(calls, verdicts, ops):
    """An allowed export comes from a valid session holding the support role, assigned to a case of its own tenant, going to a configured internal destination; an allowed read is of a case of the session's tenant, by an assignee or a supervisor."""
    (call,), (verdict,) = calls, verdicts
    return implies(verdict.allowed, ops.Or(_export_conditions(call, ops), _read_conditions(call, ops)), ops)


@invariant(
    "I015",
    one_call,
    ("G001.1", "G001.5", "G001.6", "G001.7", "G001.8", "G001.11", "G001.12", "G001.13"),
    ("wrong:approval-for-every-export",),
    domain=GATEWAY_CALLS,
)
def well_formed_call_meeting_every_condition_is_allowed(calls, verdicts, ops):
    """A well-formed call that meets every condition of its tool is allowed."""
    (call,), (verdict,) = calls, verdicts
    meets = ops.Or(_export_conditions(call, ops), _read_conditions(call, ops))
    return implies(ops.And(is_well_formed(call, ops), meets), verdict.allowed, ops)


@invariant(
    "I016",
    one_call,
    ("G001.3", "G001.4", "G001.13"),
    ("wrong:unsafe-gateway", "wrong:trusts-forged-authority"),
    domain=GATEWAY_CALLS,
)
def no_extra_or_missing_argument_is_allowed(calls, verdicts, ops):
    """No call carrying an undeclared argument, or lacking a declared one, is ever allowed."""
    (call,), (verdict,) = calls, verdicts
    return implies(ops.Or(has_extra(call, ops), has_missing(call, ops)), ops.Not(verdict.allowed), ops)
