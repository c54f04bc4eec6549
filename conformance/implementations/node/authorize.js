'use strict';
// The checks of a well-formed call that read the session, the configuration and the stored case (G001.6 to G001.12,
// and under lab-001+next G002.5 and G002.6). Each check is a function returning a refusal or null; the order of
// the lists is the order of the reason table (G001.13), and nothing after the first refusal is consulted.
const { rolesOf, isValid, assigneesOf } = require('./gateway_world');
const { canonicalText } = require('./proposal');

const refusal = (reason, rule) => ({ reason, rule });

// G001.6: a revoked session authorizes nothing, whatever the tool.
function sessionCheck({ session }) {
  return isValid(session) ? null : refusal('session_invalid', 'G001.6');
}

// G001.7: only the support role exports; read_case has no role check.
function roleCheck({ tool, session }) {
  if (tool !== 'export_case') return null;
  return rolesOf(session).includes('support') ? null : refusal('role_denied', 'G001.7');
}

// G001.8: the destination must be configured; under lab-001 it must also be internal. Past the lab an external one
// is not refused here: it goes on to need an approval (G002.5).
function destinationCheck({ tool, args, world, next }) {
  if (tool !== 'export_case') return null;
  const destination = world.destination(args.destination_id);
  if (destination === undefined) return refusal('destination_denied', 'G001.8');
  if (!destination.internal && !next) return refusal('destination_denied', 'G001.8');
  return null;
}

// G002.5, G002.6: an export to a configured external destination needs an approval naming the same tool, the same
// canonical arguments (G002.7) and the same user; one that names it must be unexpired, usable strictly before its
// expiry. None naming it is approval_required; only expired ones is approval_expired.
function approvalCheck({ tool, args, session, world, next }) {
  if (!next || tool !== 'export_case') return null;
  const destination = world.destination(args.destination_id);
  if (destination === undefined || destination.internal) return null;
  const action = canonicalText(args);
  const naming = world.approvals.filter(
    (approval) => approval.tool === tool && approval.user === session.user && canonicalText(approval.arguments) === action,
  );
  if (naming.length === 0) return refusal('approval_required', 'G002.5');
  if (naming.every((approval) => world.clock >= approval.expires_at)) return refusal('approval_expired', 'G002.6');
  return null;
}

// G001.9: the case must be in storage.
function caseCheck({ args, world }) {
  return world.storedCase(args.case_id) === undefined ? refusal('case_not_found', 'G001.9') : null;
}

// G001.10: a case of another tenant is refused before anything about it (its assignees) is consulted.
function tenantCheck({ args, session, world }) {
  return world.storedCase(args.case_id).tenant === session.tenant ? null : refusal('tenant_mismatch', 'G001.10');
}

// G001.11, G001.12: an export needs the user among the assignees; a read is allowed to any assignee, whatever the
// role, and to a supervisor of the case's tenant (the tenant check has already made it the session's).
function assignmentCheck({ tool, args, session, world }) {
  const assigned = assigneesOf(world.storedCase(args.case_id)).includes(session.user);
  if (tool === 'export_case') return assigned ? null : refusal('not_assigned', 'G001.11');
  return assigned || rolesOf(session).includes('supervisor') ? null : refusal('not_assigned', 'G001.12');
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
