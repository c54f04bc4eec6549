"""The invariants of the tool-call gateway over every catalog up to the bound: allow only what the host's facts allow, and all of it.

Each claim reads the verdict of one abstract call (``gateway_call``) under
any catalog of at most ``bound`` tools drawn from the tool shapes
(``catalog_space``): the reason the gateway gives and whether it allowed
the call. What a tool's conditions are is read from its declaration.
"""

from __future__ import annotations

from gateproof.model.gateway.catalog_checks import ANY_ROLE

from .catalog import implies, invariant
from .domains import GATEWAY_CALLS
from .gateway_call import UNKNOWN_TOOL, fresh_call, has_extra, has_missing, is_well_formed, needs_approval, tool_is


def one_call(bound: int):
    """Any call of a tool of any catalog of at most ``bound`` tools, or of no tool of it, with at most ``bound`` fields, under any facts."""
    return (fresh_call("call", bound),), []


def meets_every_condition(call, ops):
    """A valid session; a role the tool lists, where it lists roles; a record of the session's tenant; assigned for a side effect,
    assigned or the tool's tenant reader for a retrieval; a configured internal destination for an export; no unmet approval."""
    def declared(holds):
        return tool_is(call, holds, ops)

    return ops.And(
        call.tool != UNKNOWN_TOOL, call.session_valid,
        implies(declared(lambda tool: ANY_ROLE not in tool.roles), call.holds_role, ops),
        call.case_exists, call.same_tenant,
        implies(declared(lambda tool: tool.effect != "retrieval"), call.assigned, ops),
        implies(declared(lambda tool: tool.effect == "retrieval"),
                ops.Or(call.assigned, ops.And(call.holds_reader, declared(lambda tool: tool.tenant_reader_role is not None))), ops),
        implies(declared(lambda tool: tool.effect == "export"), ops.And(call.destination_configured, call.destination_internal), ops),
        ops.Not(needs_approval(call, ops)),
    )


@invariant(
    "I014",
    one_call,
    ("G001.6", "G001.7", "G001.8", "G001.9", "G001.10", "G001.11", "G001.12", "G001.18"),
    ("wrong:unsafe-gateway", "wrong:trusts-forged-authority", "wrong:skips-assignment", "wrong:skips-role-for-retrievals", "wrong:approves-argument-above"),
    domain=GATEWAY_CALLS,
)
def allowed_call_meets_every_condition(calls, verdicts, ops):
    """Under every catalog up to the bound, an allowed call comes from a valid session holding a role its tool lists (where it lists roles), names a record of the session's tenant, assigned to the session's user for a side effect or, for a retrieval, assigned or read by the tool's tenant reader, goes to a configured internal destination for an export, and needs no approval."""
    (call,), (verdict,) = calls, verdicts
    return implies(verdict.allowed, meets_every_condition(call, ops), ops)


@invariant(
    "I015",
    one_call,
    ("G001.1", "G001.5", "G001.6", "G001.7", "G001.8", "G001.11", "G001.12", "G001.13"),
    ("wrong:unsafe-gateway", "wrong:approval-for-every-export", "wrong:optional-taken-as-required"),
    domain=GATEWAY_CALLS,
)
def well_formed_call_meeting_every_condition_is_allowed(calls, verdicts, ops):
    """Under every catalog up to the bound, a well-formed call that meets every condition of its tool is allowed."""
    (call,), (verdict,) = calls, verdicts
    return implies(ops.And(is_well_formed(call, ops), meets_every_condition(call, ops)), verdict.allowed, ops)


@invariant(
    "I016",
    one_call,
    ("G001.3", "G001.4", "G001.13"),
    ("wrong:unsafe-gateway", "wrong:trusts-forged-authority", "wrong:required-taken-as-optional"),
    domain=GATEWAY_CALLS,
)
def no_extra_or_missing_argument_is_allowed(calls, verdicts, ops):
    """Under every catalog up to the bound, no call carrying an argument its tool does not declare, or lacking one it requires, is ever allowed."""
    (call,), (verdict,) = calls, verdicts
    return implies(ops.Or(has_extra(call, ops), has_missing(call, ops)), ops.Not(verdict.allowed), ops)
