// The gateway's SQLite database: every record it keeps between requests lives in these tables, never in JavaScript
// objects, so a restart on the same file (--db PATH) finds the world and the history as the last call left them.
import Database from 'better-sqlite3';

export type Db = Database.Database;

// Each statement is compiled once per database and kept: a call runs some twenty of them, and compiling one costs
// more than running it.
const compiled = new WeakMap<Db, Map<string, Database.Statement>>();

export function statement(db: Db, sql: string): Database.Statement {
  let statements = compiled.get(db);
  if (statements === undefined) compiled.set(db, (statements = new Map()));
  let prepared = statements.get(sql);
  if (prepared === undefined) statements.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

const SCHEMA = `
-- The loaded scenario, the rule version calls are decided under, the clock and the rate limit (one row).
CREATE TABLE IF NOT EXISTS gateway_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  scenario TEXT,
  rules TEXT NOT NULL,
  clock INTEGER NOT NULL,
  rate_calls INTEGER,
  rate_window INTEGER
);
-- The host's sessions: the token names one by its id; user, tenant, roles and validity are the store's alone.
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  user TEXT NOT NULL,
  tenant TEXT NOT NULL,
  roles TEXT NOT NULL,
  valid INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS cases (
  id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  content TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS case_assignees (
  case_id TEXT NOT NULL REFERENCES cases (id),
  position INTEGER NOT NULL,
  user TEXT NOT NULL,
  PRIMARY KEY (case_id, position)
);
CREATE TABLE IF NOT EXISTS runbooks (
  id TEXT PRIMARY KEY,
  content TEXT NOT NULL
);
-- A removed destination keeps its row: a later change may name it again (and changes nothing).
CREATE TABLE IF NOT EXISTS destinations (
  id TEXT PRIMARY KEY,
  internal INTEGER NOT NULL,
  removed INTEGER NOT NULL DEFAULT 0
);
-- An approval's arguments are JSON text as the reference reader writes it, so 1.0 stays apart from 1 (G002.7).
CREATE TABLE IF NOT EXISTS approvals (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  tool TEXT NOT NULL,
  arguments TEXT NOT NULL,
  user TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
-- G002.4: when each session's counted calls were made.
CREATE TABLE IF NOT EXISTS call_history (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL,
  called_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS call_history_by_session ON call_history (session_id);
-- G002.2, G002.3: the action each idempotency key is bound to.
CREATE TABLE IF NOT EXISTS key_bindings (
  idempotency_key TEXT PRIMARY KEY,
  action TEXT NOT NULL
);
-- What the calls did; reported is set once the records hook has returned the row.
CREATE TABLE IF NOT EXISTS exports (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  case_id TEXT NOT NULL,
  destination_id TEXT NOT NULL,
  tenant TEXT NOT NULL,
  payload TEXT NOT NULL,
  reported INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS reads (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  case_id TEXT NOT NULL,
  reported INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS audit_records (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  decision TEXT NOT NULL,
  reason TEXT NOT NULL,
  tool TEXT,
  user TEXT NOT NULL,
  tenant TEXT NOT NULL,
  case_id TEXT,
  destination_id TEXT,
  stage TEXT NOT NULL,
  replayed INTEGER NOT NULL,
  rule TEXT,
  reported INTEGER NOT NULL DEFAULT 0
);
-- G002.1: the changes the next tools/call applies after its check and before its write.
CREATE TABLE IF NOT EXISTS staged_changes (
  position INTEGER PRIMARY KEY,
  change TEXT NOT NULL
);
`;

// Every table a load replaces, children before their parents.
export const WORLD_TABLES = ['case_assignees', 'cases', 'sessions', 'runbooks', 'destinations', 'approvals'];
export const HISTORY_TABLES = ['call_history', 'key_bindings', 'exports', 'reads', 'audit_records', 'staged_changes'];

// Opens PATH and makes sure the tables exist. Without a path the database is SQLite's own temporary file: SQLite
// removes it from the directory as soon as it is opened, so it is gone when the process ends, however it ends (a
// server killed by its process group included), and nothing is left to clean up.
export function openDatabase(path: string | undefined): Db {
  const db = new Database(path ?? '');
  if (path !== undefined) {
    // WAL with NORMAL sync survives a crash of this process, and keeps a campaign of thousands of calls from
    // waiting on a disk flush for each.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  } else {
    // The temporary database dies with the process, so a journal on disk could never serve a recovery: it would only
    // cost a file created and deleted at every commit. Kept in memory it still rolls a transaction back.
    db.pragma('journal_mode = MEMORY');
  }
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  return db;
}
