'use strict';
// The checks of a well-formed call that read the session, the configuration and the stored case (G001.6 to G001.12,
// G001.18, and under lab-001+next G002.5 and G002.6), each reading the called tool's declared fields (`spec`). Each check is a function returning a refusal or null; the order of
// the lists is the order of the reason table (G001.13), and nothing after the first refusal is consulted.
const { rolesOf, isValid, assigneesOf } = require('./gateway_world');
const { canonicalText } = require('./proposal');
const { numeric, ANY_ROLE } = require('./catalog');

const refusal = (reason, rule) => ({ reason, rule });

// G001.6: a revoked session authorizes nothing, whatever the tool.
function sessionCheck({ session }) {
  return isValid(session) ? null : refusal('session_invalid', 'G001.6');
}

// G001.7: the session holds one of the tool's roles; a tool open to any role (`*`) checks none.
function roleCheck({ spec, session }) {
  if (spec.roles.includes(ANY_ROLE)) return null;
  return spec.roles.some((role) => rolesOf(session).includes(role)) ? null : refusal('role_denied', 'G001.7');
}

// G001.8: an export's destination must be configured; it must also be internal unless, past the lab, the tool
// declares an approval for an external one, which it then goes on to need (G002.5).
function destinationCheck({ spec, args, world, next }) {
  if (spec.destination === undefined) return null;
  const destination = world.destination(args[spec.destination]);
  if (destination === undefined) return refusal('destination_denied', 'G001.8');
  if (!destination.internal && !(next && approvesExternal(spec))) return refusal('destination_denied', 'G001.8');
  return null;
}

const approvesExternal = (spec) => spec.approvals.some((approval) => approval.when === 'external_destination');

// G002.5, G001.18: whether one of the tool's approval conditions holds for the call: an export to a configured
// destination not marked internal, or a numeric argument present and strictly above its value.
function needsApproval({ spec, args, world }) {
  return spec.approvals.some((approval) => {
    if (approval.when === 'argument_above') return Object.hasOwn(args, approval.argument) && numeric(args[approval.argument]) > approval.above;
    const destination = world.destination(args[spec.destination]);
    return destination !== undefined && !destination.internal;
  });
}

// G002.5, G002.6: a call an approval condition holds for needs an approval naming the same tool, the same canonical
// arguments (G002.7) and the same user; one that names it must be unexpired, usable strictly before its expiry.
// None naming it is approval_required; only expired ones is approval_expired. G001.18: lab-001 honours no approval.
function approvalCheck({ spec, args, session, world, next }) {
  if (!needsApproval({ spec, args, world })) return null;
  if (!next) return refusal('approval_required', 'G001.18');
  const action = canonicalText(args);
  const naming = world.approvals.filter(
    (approval) => approval.tool === spec.name && approval.user === session.user && canonicalText(approval.arguments) === action,
  );
  if (naming.length === 0) return refusal('approval_required', 'G002.5');
  if (naming.every((approval) => world.clock >= approval.expires_at)) return refusal('approval_expired', 'G002.6');
  return null;
}

// The stored record the call names by its record argument, when it is one of the tool's kind.
function recordOf({ spec, args, world }) {
  const stored = world.storedCase(args[spec.recordArgument]);
  return stored !== undefined && stored.kind === spec.kind ? stored : undefined;
}

// G001.9: the record must be in storage, and of the tool's kind.
function caseCheck(context) {
  return recordOf(context) === undefined ? refusal('case_not_found', 'G001.9') : null;
}

// G001.10: a record of another tenant is refused before anything about it (its assignees) is consulted.
function tenantCheck(context) {
  return recordOf(context).tenant === context.session.tenant ? null : refusal('tenant_mismatch', 'G001.10');
}

// G001.11, G001.12: a side effect (export, write) needs the user among the assignees; a retrieval is allowed to any
// assignee, whatever the role, and to a holder of the tool's tenant reader role (the tenant check made it the session's).
function assignmentCheck(context) {
  const { spec, session } = context;
  const assigned = assigneesOf(recordOf(context)).includes(session.user);
  if (spec.sideEffect) return assigned ? null : refusal('not_assigned', 'G001.11');
  return assigned || rolesOf(session).includes(spec.tenantReaderRole) ? null : refusal('not_assigned', 'G001.12');
}

// The checks about the session and its configuration, then those about the case (G001.13). The history checks of
// lab-001+next (the rate limit, the key) sit between the session and the role at check time: gateway.js runs them.
const SESSION_CHECKS = [sessionCheck];
const CONFIGURATION_AND_CASE_CHECKS = [roleCheck, destinationCheck, approvalCheck, caseCheck, tenantCheck, assignmentCheck];

function firstRefusal(checks, context) {
  for (const check of checks) {
    const found = check(context);
    if (found !== null) return found;
  }
  return null;
}

module.exports = { SESSION_CHECKS, CONFIGURATION_AND_CASE_CHECKS, firstRefusal };
