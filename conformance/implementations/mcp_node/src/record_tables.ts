// What the calls did (exports written, cases served, audit records) and the before_write changes waiting for the
// next call, in SQLite. The records hook returns, in the order written, the rows no earlier records hook returned.
import { statement, type Db } from './database.js';
import { json, type Change } from './reference.js';

export interface ExportRecord {
  case_id: string;
  destination_id: string;
  tenant: string;
  payload: string;
}

export interface ReadRecord {
  case_id: string;
}

// G001.15's record, with the rule that refused the call (null when allowed).
export interface AuditRecord {
  decision: 'allow' | 'deny';
  reason: string;
  tool: string | null;
  user: string;
  tenant: string;
  case_id: string | null;
  destination_id: string | null;
  stage: 'check' | 'write';
  replayed: boolean;
  rule: string | null;
}

export interface CallRecords {
  exports: ExportRecord[];
  reads: ReadRecord[];
  audit: AuditRecord;
}

export function writeCallRecords(db: Db, records: CallRecords): void {
  const exported = statement(db, 'INSERT INTO exports (case_id, destination_id, tenant, payload) VALUES (?, ?, ?, ?)');
  for (const record of records.exports) exported.run(record.case_id, record.destination_id, record.tenant, record.payload);
  const served = statement(db, 'INSERT INTO reads (case_id) VALUES (?)');
  for (const record of records.reads) served.run(record.case_id);
  const { audit } = records;
  statement(db, `INSERT INTO audit_records (decision, reason, tool, user, tenant, case_id, destination_id, stage, replayed, rule)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(audit.decision, audit.reason, audit.tool, audit.user, audit.tenant, audit.case_id, audit.destination_id, audit.stage,
      audit.replayed ? 1 : 0, audit.rule);
}

export interface Recorded {
  exports: ExportRecord[];
  reads: ReadRecord[];
  audit: AuditRecord[];
}

// Every row not yet reported, oldest first, then marked reported.
function unreported<T>(db: Db, table: string, columns: string): T[] {
  const rows = statement(db, `SELECT ${columns} FROM ${table} WHERE reported = 0 ORDER BY seq`).all() as T[];
  statement(db, `UPDATE ${table} SET reported = 1 WHERE reported = 0`).run();
  return rows;
}

export function takeRecorded(db: Db): Recorded {
  const exports = unreported<ExportRecord>(db, 'exports', 'case_id, destination_id, tenant, payload');
  const reads = unreported<ReadRecord>(db, 'reads', 'case_id');
  const audit = unreported<Omit<AuditRecord, 'replayed'> & { replayed: number }>(
    db, 'audit_records', 'decision, reason, tool, user, tenant, case_id, destination_id, stage, replayed, rule',
  ).map((row) => ({ ...row, replayed: row.replayed === 1 }));
  return { exports, reads, audit };
}

// The before_write hook: these changes, and only these, wait for the next call.
export function stageChanges(db: Db, changes: Change[]): void {
  statement(db, 'DELETE FROM staged_changes').run();
  const staged = statement(db, 'INSERT INTO staged_changes (position, change) VALUES (?, ?)');
  changes.forEach((change, position) => staged.run(position, json.stringify(change)));
}

// The changes waiting for this call, which takes them: they land once, whatever the call's check decides.
export function takeStagedChanges(db: Db): Change[] {
  const rows = statement(db, 'SELECT change FROM staged_changes ORDER BY position').all() as { change: string }[];
  statement(db, 'DELETE FROM staged_changes').run();
  return rows.map((row) => json.parse(row.change) as Change);
}
