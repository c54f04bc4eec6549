'use strict';
// decideGateway(scenario) -> outcome: a tool-call gateway story (lab ADR-001) under lab-001 or lab-001+next.
// A model proposes a call; the gateway decides it from the session the host holds, the stored records and its own
// configuration, and writes one audit record. What the proposal claims about authority is never read.
const { readDocument, readWorld, readStep } = require('./gateway_read');
const { GatewayWorld, contentOf } = require('./gateway_world');
const { isKnownTool, isArgumentObject, shapeRefusal } = require('./proposal');
const { SESSION_CHECKS, CONFIGURATION_AND_CASE_CHECKS, firstRefusal } = require('./authorize');
const { History, actionOf } = require('./history');
const { repeatsAKey } = require('./json');
const { catalogOf } = require('./catalog');

const GATEWAY_VERSIONS = ['lab-001', 'lab-001+next'];
const DEFAULT_GATEWAY_VERSION = 'lab-001';

// What the caller is told: a case of another tenant answers exactly as a missing one (G001.10).
function callerReason(reason) {
  return reason === 'tenant_mismatch' ? 'case_not_found' : reason;
}

// An argument the proposal carries, only when the arguments are an object that holds it and writes no key twice.
function argument(args, name) {
  return isArgumentObject(args) && !repeatsAKey(args) && Object.hasOwn(args, name) ? args[name] : undefined;
}

class GatewayStory {
  constructor(document, rules) {
    this.catalog = catalogOf(document);
    this.world = new GatewayWorld(readWorld(document.world, this.catalog));
    this.next = rules === 'lab-001+next';
    this.history = new History();
  }

  // G001.15: the audit names only what the gateway trusts: a known tool, a stored record, a configured destination,
  // each as the world holds it when the call is checked; anything else a proposal wrote is recorded as null. The
  // record is the first stored one among the catalog's record arguments, whatever the tool; the destination likewise.
  auditNames(call) {
    const first = (names, lookup) => names.map((name) => lookup(argument(call.arguments, name))).find((found) => found !== undefined);
    const stored = first(this.catalog.recordArguments, (id) => this.world.storedCase(id));
    const destination = first(this.catalog.destinationArguments, (id) => this.world.destination(id));
    return {
      tool: isKnownTool(this.catalog, call.tool) ? call.tool : null,
      records: { case_id: stored === undefined ? null : stored.id, destination_id: destination === undefined ? null : destination.id },
    };
  }

  // The check of G001.13, in the order of the reason table: the shape, the session, under lab-001+next the rate
  // limit (G002.4) and the key (G002.2, G002.3), then the configuration and the case.
  // Returns a refusal {reason, rule}, {replay: true}, or null when the call passes.
  check(call, context) {
    const shape = shapeRefusal(this.catalog, call.tool, call.arguments);
    if (shape !== null) return shape;
    const session = firstRefusal(SESSION_CHECKS, context);
    if (session !== null) return session;
    if (this.next) {
      const { rateLimit, clock } = this.world;
      if (!this.history.isWithinRateLimit(rateLimit, call.session, clock)) return { reason: 'rate_limited', rule: 'G002.4' };
      // G002.2, G002.3: keys make idempotent the tools that declare them; any other call is neither bound nor refused by one.
      const key = context.spec.idempotencyKey ? call.idempotency_key : undefined;
      const binding = this.history.keyBinding(key, context.action);
      if (binding === 'other') return { reason: 'idempotency_conflict', rule: 'G002.3' };
      // G002.2: the same key on the same action answers allow as the first did, and writes nothing again.
      if (binding === 'same') return { replay: true };
    }
    return firstRefusal(CONFIGURATION_AND_CASE_CHECKS, context);
  }

  // G002.1: past the lab a tool that declares it, having passed its check, is judged again on the state at the write,
  // except for the history checks, which counted and bound at the check; the reason is that of the condition that no
  // longer holds.
  recheckAtWrite(context) {
    if (!this.next) return null;
    if (!context.spec.recheckAtWrite) return null;
    return firstRefusal([...SESSION_CHECKS, ...CONFIGURATION_AND_CASE_CHECKS], context);
  }

  // One proposed call: the check, the changes that land before the write, and under lab-001+next the write's own
  // check (G002.1). The changes land whatever the check decided: they are the world's, not the gateway's to stop.
  call(call, where) {
    const session = this.world.session(call.session, `${where}.session`);
    const spec = isKnownTool(this.catalog, call.tool) ? this.catalog.tools.get(call.tool) : undefined;
    const context = { spec, args: call.arguments, session, world: this.world, next: this.next };
    if (isArgumentObject(call.arguments)) context.action = actionOf(call.session, call.tool, call.arguments);
    const names = this.auditNames(call);
    const calledAt = this.world.clock;
    let verdict = this.check(call, context);
    let stage = 'check';
    const effects = { exports: [], reads: [] };
    call.before_write.forEach((change, index) => this.world.apply(change, `${where}.before_write[${index}]`));
    if (verdict === null && spec.effect === 'retrieval') {
      effects.reads.push({ case_id: call.arguments[spec.recordArgument] });
    } else if (verdict === null) {
      verdict = this.recheckAtWrite(context);
      if (verdict === null) this.write(call, context, effects);
      else stage = 'write';
    }
    const replayed = verdict !== null && verdict.replay === true;
    const refused = verdict !== null && !replayed;
    // G002.4: every call counts against its session's limit except one refused for being over it.
    if (this.next && !(refused && verdict.reason === 'rate_limited')) this.history.count(call.session, calledAt);
    const decision = refused ? 'deny' : 'allow';
    const reason = refused ? verdict.reason : 'allowed';
    return {
      op: 'call',
      session: call.session,
      decision,
      reason,
      caller_reason: callerReason(reason),
      rule: refused ? verdict.rule : null,
      stage,
      replayed,
      ...effects,
      // G001.15: one record for every call, with the session's user and tenant and the names taken at the check.
      audit: { decision, reason, tool: names.tool, user: session.user, tenant: session.tenant, ...names.records, stage, replayed },
      // S001.10: only a catalog that declares a write tool lists writes.
      ...(this.catalog.listsWrites ? { writes: effects.writes ?? [] } : {}),
    };
  }

  // G001.14: exactly one export, its payload the record's content read from storage at the write, never the
  // arguments; or one write, listed as its tool, its record and the arguments it was allowed with.
  // G002.2: under lab-001+next a tool that takes a key binds it to this action.
  write(call, context, effects) {
    const { spec } = context;
    const stored = this.world.storedCase(call.arguments[spec.recordArgument]);
    if (spec.effect === 'export') {
      effects.exports.push({ case_id: stored.id, destination_id: call.arguments[spec.destination], tenant: stored.tenant, payload: contentOf(stored) });
    } else {
      effects.writes = [{ tool: spec.name, case_id: stored.id, arguments: call.arguments }];
    }
    if (this.next && spec.idempotencyKey) this.history.bind(call.idempotency_key, context.action);
  }

  change(change, where) {
    this.world.apply(change, where);
    return { op: change.op };
  }
}

// S001.2 for the gateway kind: one result per step, in step order.
function decideGateway(document, rules) {
  readDocument(document);
  const story = new GatewayStory(document, rules);
  const results = document.steps.map((raw, index) => {
    const where = `$.steps[${index}]`;
    const step = readStep(raw, where);
    return step.op === 'call' ? story.call(step, where) : story.change(step, where);
  });
  return { gateproof: 1, scenario: document.id, rules, results };
}

module.exports = { decideGateway, GATEWAY_VERSIONS, DEFAULT_GATEWAY_VERSION };
