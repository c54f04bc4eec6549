"""The deliberately wrong variants as the proofs run them: each variant with its encoding.

A proof that cannot fail proves nothing, so each invariant must fail under
at least one variant (its teeth). The variants themselves, and how each
decides a scenario document, are in ``gateproof.conformance.implementations.wrong``;
what is written here is what the proofs need besides: which sources a
variant's gate folds, where that is not the model's, and each wrong
gateway's reason for an abstract call, tied to its runner by the
differential test in ``tests/test_proofs_gateway.py``.
"""

from __future__ import annotations

from attrs import asdict, evolve

from gateproof.model.gateway.arguments import Check, first_failed_reason

from gateproof.model.gateway.catalog_checks import ANY_ROLE

from ..implementations import unsafe_gateway
from ..implementations.wrong.decide import REFUTED
from ..implementations.wrong.variant import WRONG_PREFIX, Variant
from .gateway_call import (
    FORGED_KEY, declared_values_ok, facts_of_call, has_extra, has_field, has_missing, lab_checks, lacks, tool_is,
)
from .send import Semantics, gated_positions


def gated_only_with_forced_set(send, rules, ops):
    """wrong:gate-only-with-forced-set: no source is folded unless the run carries a forced set."""
    carries_forced = ops.Or(*(ops.And(listed, forced) for listed, forced in zip(send.listed, send.forced)))
    return tuple(ops.And(carries_forced, gated) for gated in gated_positions(send, rules, ops))


def unsafe_reason(call, ops):
    """wrong:unsafe-gateway: one of the lab's tools, whatever the catalog, string values for the declared fields and a stored case are all it asks."""
    return first_failed_reason((
        Check("G001.1", "unknown_tool", tool_is(call, lambda tool: tool.name in unsafe_gateway.TOOLS, ops)),
        Check("G001.2", "malformed_input",
              ops.And(call.arguments_object, ops.Not(has_missing(call, ops)), declared_values_ok(call, ops))),
        Check("G001.9", "case_not_found", call.case_exists),
    ), ops)


def forged_authority_reason(call, ops):
    """wrong:trusts-forged-authority: the forged field is accepted and grants the support role."""
    facts = facts_of_call(call, ops)
    facts = evolve(facts, support=ops.Or(facts.support, has_field(call, FORGED_KEY, ops)))
    no_extra = ops.Not(has_extra(call, ops, ignored=(FORGED_KEY,)))
    return first_failed_reason(lab_checks(call, ops, facts=facts, no_extra=no_extra), ops)


def skips_assignment_reason(call, ops):
    """wrong:skips-assignment: every session counts as assigned to every case."""
    return first_failed_reason(lab_checks(call, ops, facts=evolve(facts_of_call(call, ops), assigned=True)), ops)


def approval_for_every_export_reason(call, ops):
    """wrong:approval-for-every-export: every export needs a recorded approval, internal destinations too."""
    destination = (
        Check("G001.8", "destination_denied", call.destination_configured),
        Check("G002.5", "approval_required", False),
    )
    return first_failed_reason(lab_checks(call, ops, destination=destination), ops)


def skips_role_for_retrievals_reason(call, ops):
    """wrong:skips-role-for-retrievals: the role is checked for tools with a side effect only."""
    listed = tool_is(call, lambda tool: tool.has_side_effect and ANY_ROLE not in tool.roles, ops)
    return first_failed_reason(lab_checks(call, ops, role_checked=listed), ops)


def approves_argument_above_reason(call, ops):
    """wrong:approves-argument-above: under lab-001 an argument_above approval is never asked."""
    return first_failed_reason(lab_checks(call, ops, approval=()), ops)


def optional_taken_as_required_reason(call, ops):
    """wrong:optional-taken-as-required: a call leaving out an optional argument is refused as missing_argument."""
    return first_failed_reason(lab_checks(call, ops, no_missing=ops.Not(lacks(call, lambda tool, argument: True, ops))), ops)


def required_taken_as_optional_reason(call, ops):
    """wrong:required-taken-as-optional: a required argument that names no record or destination may be left out."""
    naming = ops.Not(lacks(call, lambda tool, argument: argument.required and argument.name in (tool.record_argument, tool.destination), ops))
    return first_failed_reason(lab_checks(call, ops, no_missing=naming), ops)


#: What each variant adds for the proofs, by name; a variant not named here folds as the model does.
ENCODINGS: dict[str, dict] = {
    WRONG_PREFIX + "gate-only-with-forced-set": {"gated": gated_only_with_forced_set},
    WRONG_PREFIX + "unsafe-gateway": {"gateway_reason": unsafe_reason},
    WRONG_PREFIX + "trusts-forged-authority": {"gateway_reason": forged_authority_reason},
    WRONG_PREFIX + "skips-assignment": {"gateway_reason": skips_assignment_reason},
    WRONG_PREFIX + "approval-for-every-export": {"gateway_reason": approval_for_every_export_reason},
    WRONG_PREFIX + "skips-role-for-retrievals": {"gateway_reason": skips_role_for_retrievals_reason},
    WRONG_PREFIX + "approves-argument-above": {"gateway_reason": approves_argument_above_reason},
    WRONG_PREFIX + "optional-taken-as-required": {"gateway_reason": optional_taken_as_required_reason},
    WRONG_PREFIX + "required-taken-as-optional": {"gateway_reason": required_taken_as_optional_reason},
}


def encoded(variant: Variant) -> Semantics:
    """``variant`` with what the proofs add to it."""
    return Semantics(**asdict(variant, recurse=False), **ENCODINGS.get(variant.name, {}))


#: The variants the proofs refute, as the proofs run them.
WRONG_VARIANTS: dict[str, Semantics] = {name: encoded(variant) for name, variant in REFUTED.items()}
