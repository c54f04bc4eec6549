// The gateway: each proposed call and each test hook as one SQLite transaction that reads the state from the tables
// into what the reference code takes, decides with that code, and writes back what changed. The order of the steps
// of a call (check, before_write changes, write, audit) is lab ADR-001's; the decisions within it are ../node's.
import type { Db } from './database.js';
import {
  CONFIGURATION_AND_CASE_CHECKS, DEFAULT_GATEWAY_VERSION, GATEWAY_VERSIONS, InvalidScenario, LAB_CATALOG, SESSION_CHECKS, actionOf,
  contentOf, firstRefusal, isArgumentObject, isKnownTool, isObject, json, readStep, readWorld, shapeRefusal,
  type Change, type CheckContext, type GatewayWorld, type History, type RateLimit, type ToolSpec, type Verdict,
} from './reference.js';
import { openHistory } from './history_tables.js';
import { openWorld, readState, replaceWorld } from './world_tables.js';
import {
  stageChanges, takeRecorded, takeStagedChanges, writeCallRecords, type AuditRecord, type ExportRecord, type ReadRecord, type Recorded,
} from './record_tables.js';

// A proposal as the model wrote it: the tool may be any JSON value, the arguments too (repeated keys marked by ../node/json.js).
export interface Proposal {
  tool: unknown;
  arguments: unknown;
}

export interface CallOutcome {
  decision: 'allow' | 'deny';
  reason: string;
  callerReason: string;
  rule: string | null;
  replayed: boolean;
  exports: ExportRecord[];
  reads: ReadRecord[];
  // The case an allowed read serves, as stored when it was served.
  served: { case_id: string; content: string } | null;
}

// A token whose session the store does not hold: it authorizes nothing, and nothing is recorded for it.
export class UnknownSession extends Error {}

// G001.10: the caller of a case of another tenant is told exactly what a missing case answers.
function callerReason(reason: string): string {
  return reason === 'tenant_mismatch' ? 'case_not_found' : reason;
}

// G001.15, G001.17: an argument the audit record may name, only when the arguments are an object that holds it and
// writes no key twice (which of two values was meant is exactly what the gateway cannot know).
function argument(args: unknown, name: string): unknown {
  return isArgumentObject(args) && !json.repeatsAKey(args) && Object.hasOwn(args, name) ? args[name] : undefined;
}

// G001.15: a known tool, a stored case, a configured destination, as the world holds them when the call is checked:
// the first found among the catalog's record arguments and among its destination arguments, whatever the tool.
function auditNames(world: GatewayWorld, tool: unknown, args: unknown): Pick<AuditRecord, 'tool' | 'case_id' | 'destination_id'> {
  const first = <R>(names: string[], lookup: (id: unknown) => R | undefined): R | undefined =>
    names.map((name) => lookup(argument(args, name))).find((found) => found !== undefined);
  const stored = first(LAB_CATALOG.recordArguments, (id) => world.storedCase(id));
  const destination = first(LAB_CATALOG.destinationArguments, (id) => world.destination(id));
  return { tool: isKnownTool(LAB_CATALOG, tool) ? tool : null, case_id: stored?.id ?? null, destination_id: destination?.id ?? null };
}

export class Gateway {
  constructor(private readonly db: Db) {}

  // One proposed call made as the store's session `sessionId`, with the host's idempotency key if any.
  call(proposal: Proposal, sessionId: string, idempotencyKey: string | undefined): CallOutcome {
    return this.db.transaction(() => this.decide(proposal, sessionId, idempotencyKey)).immediate();
  }

  private decide({ tool, arguments: args }: Proposal, sessionId: string, idempotencyKey: string | undefined): CallOutcome {
    const state = readState(this.db, DEFAULT_GATEWAY_VERSION);
    const next = state.rules === 'lab-001+next';
    const stored = openWorld(this.db, state);
    const { world } = stored;
    const session = world.sessions.get(sessionId);
    if (session === undefined) throw new UnknownSession(`the session store holds no session ${JSON.stringify(sessionId)}`);
    const spec = isKnownTool(LAB_CATALOG, tool) ? LAB_CATALOG.tools.get(tool) : undefined;
    // G002.2, G002.3: keys make idempotent the tools that declare them; any other call is neither bound nor refused by one.
    const key = spec?.idempotencyKey ? idempotencyKey : undefined;
    const recorded = openHistory(this.db, sessionId, key);
    const { history } = recorded;
    const context: CheckContext = { spec, args, session, world, next };
    if (isArgumentObject(args)) context.action = actionOf(sessionId, tool, args);
    const names = auditNames(world, tool, args);
    const calledAt = world.clock;

    let verdict = this.check(tool, context, history, key, state.rateLimit, sessionId);
    let stage: 'check' | 'write' = 'check';
    // G002.1: the changes land whatever the check decided: they are the world moving on, not the gateway's to stop.
    takeStagedChanges(this.db).forEach((change, index) => world.apply(change, `$.before_write[${index}]`));
    const exports: ExportRecord[] = [];
    const reads: ReadRecord[] = [];
    let served: CallOutcome['served'] = null;
    if (verdict === null) {
      if (spec === undefined) throw new Error('a call that passed its check names a declared tool');
      if (spec.effect === 'retrieval') {
        const read = world.storedCase(argument(args, spec.recordArgument));
        if (read === undefined) throw new Error('a read that passed its check names a stored case');
        reads.push({ case_id: read.id });
        served = { case_id: read.id, content: contentOf(read) };
      } else {
        // G002.1: past the lab a tool that declares it, having passed its check, is judged again on the world at the
        // write, except for the history checks, which counted and bound at the check.
        verdict = next && spec.recheckAtWrite ? firstRefusal([...SESSION_CHECKS, ...CONFIGURATION_AND_CASE_CHECKS], context) : null;
        if (verdict === null) exports.push(this.write(world, spec, args, history, key, context.action, next));
        else stage = 'write';
      }
    }
    const replayed = verdict !== null && 'replay' in verdict;
    const refusal = verdict !== null && 'reason' in verdict ? verdict : null;
    // G002.4: every call counts against its session's limit except one refused for being over it.
    if (next && refusal?.reason !== 'rate_limited') history.count(sessionId, calledAt);
    const decision = refusal === null ? 'allow' : 'deny';
    const reason = refusal === null ? 'allowed' : refusal.reason;
    const rule = refusal === null ? null : refusal.rule;
    // G001.15: one record for every call, with the session's user and tenant and the names taken at the check.
    const audit: AuditRecord = { decision, reason, ...names, user: session.user, tenant: session.tenant, stage, replayed, rule };
    stored.save();
    recorded.save();
    writeCallRecords(this.db, { exports, reads, audit });
    return { decision, reason, callerReason: callerReason(reason), rule, replayed, exports, reads, served };
  }

  // G001.13: the shape, the session, under lab-001+next the rate limit (G002.4) and the key (G002.2, G002.3), then
  // the configuration and the case, in the order of the reason table; the first refusal is the answer.
  private check(tool: unknown, context: CheckContext, history: History, key: string | undefined, rateLimit: RateLimit | null,
    sessionId: string): Verdict {
    const shape = shapeRefusal(LAB_CATALOG, tool, context.args);
    if (shape !== null) return shape;
    const session = firstRefusal(SESSION_CHECKS, context);
    if (session !== null) return session;
    if (context.next) {
      if (!history.isWithinRateLimit(rateLimit, sessionId, context.world.clock)) return { reason: 'rate_limited', rule: 'G002.4' };
      const binding = history.keyBinding(key, context.action);
      if (binding === 'other') return { reason: 'idempotency_conflict', rule: 'G002.3' };
      // G002.2: the same key on the same action answers allow as the first did, and writes nothing again.
      if (binding === 'same') return { replay: true };
    }
    return firstRefusal(CONFIGURATION_AND_CASE_CHECKS, context);
  }

  // G001.14: one export, its payload the case content read from storage at the write, never the arguments (the lab's
  // catalog declares no write tool). G002.2: under lab-001+next a tool that takes a key binds it to this action.
  private write(world: GatewayWorld, spec: ToolSpec, args: unknown, history: History, key: string | undefined,
    action: string | undefined, next: boolean): ExportRecord {
    if (spec.destination === undefined) throw new Error(`the lab's catalog declares no ${spec.effect} tool`);
    const stored = world.storedCase(argument(args, spec.recordArgument));
    const destinationId = argument(args, spec.destination);
    if (stored === undefined || typeof destinationId !== 'string') throw new Error('an export that passed its check names a stored case');
    if (next && spec.idempotencyKey) history.bind(key, action);
    return { case_id: stored.id, destination_id: destinationId, tenant: stored.tenant, payload: contentOf(stored) };
  }

  // The load hook: the scenario's world, read by ../node's reader, replaces everything stored.
  load(scenario: unknown, rules: unknown, world: unknown): void {
    if (typeof scenario !== 'string') throw new InvalidScenario('$.scenario', 'must be a string');
    if (typeof rules !== 'string' || !GATEWAY_VERSIONS.includes(rules)) {
      throw new InvalidScenario('$.rules', `must be one of ${GATEWAY_VERSIONS.join(', ')}`);
    }
    // S001.6: a key written twice is invalid everywhere in a scenario except in a call's proposal.
    if (json.repeatsAKey(world)) throw new InvalidScenario('$.world', 'a key is written more than once');
    const records = readWorld(world, LAB_CATALOG);
    this.db.transaction(() => replaceWorld(this.db, scenario, rules, records)).immediate();
  }

  // The change hook: one world change, applied to the store now.
  change(change: unknown): void {
    const read = readChange(change, '$.change');
    this.db.transaction(() => {
      const stored = openWorld(this.db, readState(this.db, DEFAULT_GATEWAY_VERSION));
      stored.world.apply(read, '$.change');
      stored.save();
    }).immediate();
  }

  // The before_write hook: the changes are checked now, against the world as it stands, so that a change naming a
  // record the world never declared is refused here rather than in the middle of the call it was meant for.
  beforeWrite(changes: unknown): void {
    if (!Array.isArray(changes) || changes.length === 0) throw new InvalidScenario('$.changes', 'must be a list of 1 or more changes');
    const read = changes.map((change, index) => readChange(change, `$.changes[${index}]`));
    this.db.transaction(() => {
      // Applied to a world that is never saved: only to learn whether each change names records that exist.
      const trial = openWorld(this.db, readState(this.db, DEFAULT_GATEWAY_VERSION));
      read.forEach((change, index) => trial.world.apply(change, `$.changes[${index}]`));
      stageChanges(this.db, read);
    }).immediate();
  }

  // The records hook: what the calls recorded since the last records (or load).
  records(): Recorded {
    return this.db.transaction(() => takeRecorded(this.db)).immediate();
  }
}

// A world change step as the scenario holds it, read by ../node's reader; a call is no change.
function readChange(change: unknown, where: string): Change {
  if (!isObject(change) || change.op === 'call') throw new InvalidScenario(`${where}.op`, 'not a gateway change');
  if (json.repeatsAKey(change)) throw new InvalidScenario(where, 'a key is written more than once');
  return readStep(change, where);
}
