// The world in SQLite: sessions, cases and their assignees, runbooks, destinations, approvals, the clock and the rate
// limit. openWorld hands the reference code a GatewayWorld whose record maps read their rows on first look-up, so a
// call reads only the records it names, and saveWorld writes back exactly the rows the call changed.
import { HISTORY_TABLES, WORLD_TABLES, statement, type Db } from './database.js';
import {
  CASE_KIND, ReferenceWorld, json, rolesOf, isValid, assigneesOf, contentOf,
  type ApprovalRecord, type CaseRecord, type DestinationRecord, type GatewayWorld, type RateLimit, type RunbookRecord,
  type SessionRecord, type WorldRecords,
} from './reference.js';

// How one kind of record is read from and written to its rows.
interface RecordTable<R extends { id: string }> {
  read(id: string): R | undefined;
  write(record: R): void;
  remove(id: string): void;
}

// A Map of one table's records for one unit of work. The reference code looks records up by id (get, has) and
// removes destinations (delete); it never lists them, so only the rows it asks for are read. What it changed in a
// record it was given is found at save by comparing with the row as read.
class StoredRecords<R extends { id: string }> extends Map<string, R> {
  private readonly looked = new Set<string>();
  private readonly asRead = new Map<string, string>();
  private readonly removed = new Set<string>();

  constructor(private readonly table: RecordTable<R>) {
    super();
  }

  override get(id: string): R | undefined {
    this.fetch(id);
    return super.get(id);
  }

  override has(id: string): boolean {
    this.fetch(id);
    return super.has(id);
  }

  override delete(id: string): boolean {
    this.fetch(id);
    const had = super.delete(id);
    if (had) this.removed.add(id);
    return had;
  }

  private fetch(id: string): void {
    if (this.looked.has(id)) return;
    this.looked.add(id);
    const record = this.table.read(id);
    if (record === undefined) return;
    super.set(id, record);
    this.asRead.set(id, JSON.stringify(record));
  }

  save(): void {
    for (const [id, record] of super.entries()) {
      if (JSON.stringify(record) !== this.asRead.get(id)) this.table.write(record);
    }
    for (const id of this.removed) this.table.remove(id);
  }
}

// The destinations the world declared, removed ones included: a change may name any of them (gateway_world.apply).
class DeclaredDestinations extends Set<string> {
  constructor(private readonly db: Db) {
    super();
  }

  override has(id: string): boolean {
    return statement(this.db, 'SELECT 1 FROM destinations WHERE id = ?').get(id) !== undefined;
  }
}

const jsonList = (text: string): string[] => JSON.parse(text) as string[];

function sessionTable(db: Db): RecordTable<SessionRecord> {
  const select = statement(db, 'SELECT id, user, tenant, roles, valid FROM sessions WHERE id = ?');
  const update = statement(db, 'UPDATE sessions SET user = ?, tenant = ?, roles = ?, valid = ? WHERE id = ?');
  return {
    read(id) {
      const row = select.get(id) as { id: string; user: string; tenant: string; roles: string; valid: number } | undefined;
      return row && { id: row.id, user: row.user, tenant: row.tenant, roles: jsonList(row.roles), valid: row.valid === 1 };
    },
    write(record) {
      update.run(record.user, record.tenant, JSON.stringify(rolesOf(record)), isValid(record) ? 1 : 0, record.id);
    },
    remove() {
      throw new Error('sessions are revoked, never removed');
    },
  };
}

function caseTable(db: Db): RecordTable<CaseRecord> {
  const select = statement(db, 'SELECT id, tenant, content FROM cases WHERE id = ?');
  const selectAssignees = statement(db, 'SELECT user FROM case_assignees WHERE case_id = ? ORDER BY position');
  const update = statement(db, 'UPDATE cases SET tenant = ?, content = ? WHERE id = ?');
  const clearAssignees = statement(db, 'DELETE FROM case_assignees WHERE case_id = ?');
  const insertAssignee = statement(db, 'INSERT INTO case_assignees (case_id, position, user) VALUES (?, ?, ?)');
  return {
    read(id) {
      const row = select.get(id) as { id: string; tenant: string; content: string } | undefined;
      if (row === undefined) return undefined;
      const assignees = (selectAssignees.all(id) as { user: string }[]).map((assignee) => assignee.user);
      return { kind: CASE_KIND, id: row.id, tenant: row.tenant, assignees, content: row.content };
    },
    write(record) {
      update.run(record.tenant, contentOf(record), record.id);
      clearAssignees.run(record.id);
      assigneesOf(record).forEach((user, position) => insertAssignee.run(record.id, position, user));
    },
    remove() {
      throw new Error('cases are never removed');
    },
  };
}

function runbookTable(db: Db): RecordTable<RunbookRecord> {
  const select = statement(db, 'SELECT id, content FROM runbooks WHERE id = ?');
  const update = statement(db, 'UPDATE runbooks SET content = ? WHERE id = ?');
  return {
    read(id) {
      return select.get(id) as RunbookRecord | undefined;
    },
    write(record) {
      update.run(record.content ?? '', record.id);
    },
    remove() {
      throw new Error('runbooks are never removed');
    },
  };
}

function destinationTable(db: Db): RecordTable<DestinationRecord> {
  const select = statement(db, 'SELECT id, internal FROM destinations WHERE id = ? AND removed = 0');
  const update = statement(db, 'UPDATE destinations SET internal = ? WHERE id = ?');
  const remove = statement(db, 'UPDATE destinations SET removed = 1 WHERE id = ?');
  return {
    read(id) {
      const row = select.get(id) as { id: string; internal: number } | undefined;
      return row && { id: row.id, internal: row.internal === 1 };
    },
    write(record) {
      update.run(record.internal ? 1 : 0, record.id);
    },
    remove(id) {
      remove.run(id);
    },
  };
}

interface StateRow {
  scenario: string | null;
  rules: string;
  clock: number;
  rate_calls: number | null;
  rate_window: number | null;
}

export interface GatewayState {
  scenario: string | null;
  rules: string;
  clock: number;
  rateLimit: RateLimit | null;
}

// The loaded scenario's settings; before any load, an empty world under the default version.
export function readState(db: Db, defaultRules: string): GatewayState {
  const row = statement(db, 'SELECT scenario, rules, clock, rate_calls, rate_window FROM gateway_state WHERE id = 1').get() as StateRow | undefined;
  if (row === undefined) return { scenario: null, rules: defaultRules, clock: 0, rateLimit: null };
  const rateLimit = row.rate_calls === null || row.rate_window === null ? null : { calls: row.rate_calls, window: row.rate_window };
  return { scenario: row.scenario, rules: row.rules, clock: row.clock, rateLimit };
}

function readApprovals(db: Db): ApprovalRecord[] {
  const rows = statement(db, 'SELECT id, tool, arguments, user, expires_at FROM approvals ORDER BY position').all() as
    (Omit<ApprovalRecord, 'arguments'> & { arguments: string })[];
  return rows.map((row) => ({ ...row, arguments: json.parse(row.arguments) as Record<string, unknown> }));
}

export interface StoredWorld {
  world: GatewayWorld;
  save(): void;
}

// The world as the reference code takes it, its records read from the tables as the code asks for them.
export function openWorld(db: Db, state: GatewayState): StoredWorld {
  const world = new ReferenceWorld({
    sessions: [], cases: [], destinations: [], runbooks: [], approvals: readApprovals(db), rate_limit: state.rateLimit, clock: state.clock,
  });
  const sessions = new StoredRecords(sessionTable(db));
  const cases = new StoredRecords(caseTable(db));
  const destinations = new StoredRecords(destinationTable(db));
  const runbooks = new StoredRecords(runbookTable(db));
  world.sessions = sessions;
  world.cases = cases;
  world.destinations = destinations;
  world.runbooks = runbooks;
  world.declaredDestinations = new DeclaredDestinations(db);
  return {
    world,
    save() {
      for (const records of [sessions, cases, destinations, runbooks]) records.save();
      if (world.clock !== state.clock) statement(db, 'UPDATE gateway_state SET clock = ? WHERE id = 1').run(world.clock);
    },
  };
}

// The load hook: the tables hold the scenario's world (as gateway_read.readWorld read it) and nothing else; every
// earlier call, key binding, export, read, audit record and staged change is forgotten.
export function replaceWorld(db: Db, scenario: string, rules: string, world: WorldRecords): void {
  for (const table of [...HISTORY_TABLES, ...WORLD_TABLES]) statement(db, `DELETE FROM ${table}`).run();
  statement(db, 'DELETE FROM gateway_state').run();
  statement(db, 'INSERT INTO gateway_state (id, scenario, rules, clock, rate_calls, rate_window) VALUES (1, ?, ?, ?, ?, ?)')
    .run(scenario, rules, world.clock, world.rate_limit?.calls ?? null, world.rate_limit?.window ?? null);
  const session = statement(db, 'INSERT INTO sessions (id, user, tenant, roles, valid) VALUES (?, ?, ?, ?, ?)');
  for (const record of world.sessions) {
    session.run(record.id, record.user, record.tenant, JSON.stringify(rolesOf(record)), isValid(record) ? 1 : 0);
  }
  const stored = statement(db, 'INSERT INTO cases (id, tenant, content) VALUES (?, ?, ?)');
  const assignee = statement(db, 'INSERT INTO case_assignees (case_id, position, user) VALUES (?, ?, ?)');
  for (const record of world.cases) {
    stored.run(record.id, record.tenant, contentOf(record));
    assigneesOf(record).forEach((user, position) => assignee.run(record.id, position, user));
  }
  const runbook = statement(db, 'INSERT INTO runbooks (id, content) VALUES (?, ?)');
  for (const record of world.runbooks) runbook.run(record.id, record.content ?? '');
  const destination = statement(db, 'INSERT INTO destinations (id, internal) VALUES (?, ?)');
  for (const record of world.destinations) destination.run(record.id, record.internal ? 1 : 0);
  const approval = statement(db, 'INSERT INTO approvals (position, id, tool, arguments, user, expires_at) VALUES (?, ?, ?, ?, ?, ?)');
  world.approvals.forEach((record, position) => {
    approval.run(position, record.id, record.tool, json.stringify(record.arguments), record.user, record.expires_at);
  });
}
