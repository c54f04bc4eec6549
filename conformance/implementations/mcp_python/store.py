"""The gateway's SQLite store: every record the gateway reads or writes, in tables, and nothing kept in memory.

A call reads the world, the calling session's history and the binding of its
idempotency key from the tables into the model's values, and writes back what
the decision changed: the world as its ``before_write`` changes left it, one
more call in the history, a bound key, the export or read, the audit record.
A removed destination keeps its row, marked removed: the rules check a change
against the world as it was declared, so removing one twice stays valid.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager

from gateproof.model.gateway.gate import DEFAULT_GATEWAY_VERSION, GatewayState
from gateproof.model.gateway.next_checks import CallRecord, KeyBinding
from gateproof.model.gateway.world import Approval, Case, Destination, GatewayWorld, RateLimit, Runbook, Session

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clock (id INTEGER PRIMARY KEY CHECK (id = 0), now INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS rate_limit (id INTEGER PRIMARY KEY CHECK (id = 0), calls INTEGER NOT NULL, window_seconds INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (position INTEGER NOT NULL, id TEXT PRIMARY KEY, user_name TEXT NOT NULL,
    tenant TEXT NOT NULL, valid INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS session_roles (session_id TEXT NOT NULL, role TEXT NOT NULL, PRIMARY KEY (session_id, role));
CREATE TABLE IF NOT EXISTS cases (position INTEGER NOT NULL, id TEXT PRIMARY KEY, tenant TEXT NOT NULL, content TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS case_assignees (case_id TEXT NOT NULL, user_name TEXT NOT NULL, PRIMARY KEY (case_id, user_name));
CREATE TABLE IF NOT EXISTS runbooks (position INTEGER NOT NULL, id TEXT PRIMARY KEY, content TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS destinations (position INTEGER NOT NULL, id TEXT PRIMARY KEY, internal INTEGER NOT NULL,
    removed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS approvals (position INTEGER NOT NULL, id TEXT NOT NULL, tool TEXT NOT NULL, arguments TEXT NOT NULL,
    user_name TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS calls (seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, time INTEGER NOT NULL,
    counted INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS calls_by_session ON calls (session_id);
CREATE TABLE IF NOT EXISTS key_bindings (seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, session_id TEXT NOT NULL,
    tool TEXT NOT NULL, arguments TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS key_bindings_by_key ON key_bindings (key);
CREATE TABLE IF NOT EXISTS staged_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, change TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS exports (seq INTEGER PRIMARY KEY AUTOINCREMENT, case_id TEXT NOT NULL, destination_id TEXT NOT NULL,
    tenant TEXT NOT NULL, payload TEXT NOT NULL, reported INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS reads (seq INTEGER PRIMARY KEY AUTOINCREMENT, case_id TEXT NOT NULL, reported INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, decision TEXT NOT NULL, reason TEXT NOT NULL, tool TEXT,
    user_name TEXT NOT NULL, tenant TEXT NOT NULL, case_id TEXT, destination_id TEXT, stage TEXT NOT NULL,
    replayed INTEGER NOT NULL, rule TEXT, reported INTEGER NOT NULL DEFAULT 0);
"""

#: What ``load`` empties: every table but the schema's.
TABLES = ("settings", "clock", "rate_limit", "sessions", "session_roles", "cases", "case_assignees", "runbooks", "destinations",
          "approvals", "calls", "key_bindings", "staged_changes", "exports", "reads", "audit")


class Store:
    """One SQLite database; each method is one statement group, each caller's unit of work one :meth:`transaction`.

    Without a path it is SQLite's own temporary database: a fresh file that
    SQLite deletes when the connection closes, and that the system reclaims
    even when the process is killed, so no run leaves a file behind.
    """

    def __init__(self, path: str | None = None):
        self.db = sqlite3.connect(path or "", isolation_level=None, check_same_thread=False)
        if path:
            self.db.execute("PRAGMA journal_mode=WAL")  # others may read the file while the gateway writes it
            self.db.execute("PRAGMA synchronous=NORMAL")  # in WAL a commit survives a crash of the process unflushed
        else:
            # The temporary database dies with the connection, so a journal on disk could never serve a recovery: it
            # would only cost a file created and deleted at every commit. Kept in memory it still rolls a transaction back.
            self.db.execute("PRAGMA journal_mode=MEMORY")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self):
        """All or nothing: a decision and everything it records land together, or not at all."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- the world ---------------------------------------------------------------------------------------------------

    def load(self, scenario: str, rules: str, world: GatewayWorld) -> None:
        """Replace everything stored with ``world``: the records, the settings, and no history, binding or record."""
        for table in TABLES:
            self.db.execute(f"DELETE FROM {table}")  # noqa: S608 - the names are this module's constants
        self.db.executemany("INSERT INTO settings VALUES (?, ?)", [("scenario", scenario), ("rules", rules)])
        self.db.execute("INSERT INTO clock VALUES (0, ?)", (world.clock,))
        if world.rate_limit is not None:
            self.db.execute("INSERT INTO rate_limit VALUES (0, ?, ?)", (world.rate_limit.calls, world.rate_limit.window))
        for position, s in enumerate(world.sessions):
            self.db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?)", (position, s.id, s.user, s.tenant, int(s.valid)))
            self.db.executemany("INSERT INTO session_roles VALUES (?, ?)", [(s.id, role) for role in s.roles])
        for position, c in enumerate(world.cases):
            self.db.execute("INSERT INTO cases VALUES (?, ?, ?, ?)", (position, c.id, c.tenant, c.content))
            self.db.executemany("INSERT INTO case_assignees VALUES (?, ?)", [(c.id, user) for user in c.assignees])
        self.db.executemany("INSERT INTO runbooks VALUES (?, ?, ?)", [(p, r.id, r.content) for p, r in enumerate(world.runbooks)])
        self.db.executemany("INSERT INTO destinations VALUES (?, ?, ?, 0)",
                            [(p, d.id, int(d.internal)) for p, d in enumerate(world.destinations)])
        self.db.executemany("INSERT INTO approvals VALUES (?, ?, ?, ?, ?, ?)",
                            [(p, a.id, a.tool, a.arguments, a.user, a.expires_at) for p, a in enumerate(world.approvals)])

    def rules(self) -> str:
        row = self.db.execute("SELECT value FROM settings WHERE name = 'rules'").fetchone()
        return DEFAULT_GATEWAY_VERSION if row is None else row[0]

    def has_session(self, session_id: str) -> bool:
        return self.db.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone() is not None

    def session(self, session_id: str) -> Session | None:
        """One session as the host holds it, for what only needs the caller (``tools/list``)."""
        return self.read_world().session_index.get(session_id)

    def _members(self, table: str, key: str, member: str) -> dict[str, frozenset]:
        found: dict[str, set] = {}
        for owner, value in self.db.execute(f"SELECT {key}, {member} FROM {table}"):  # noqa: S608 - constants
            found.setdefault(owner, set()).add(value)
        return {owner: frozenset(values) for owner, values in found.items()}

    def read_world(self, declared: bool = False) -> GatewayWorld:
        """The stored world as the model's values; ``declared`` keeps removed destinations, as a change is checked against them."""
        world, as_declared = self.read_worlds()
        return as_declared if declared else world

    def read_worlds(self) -> tuple[GatewayWorld, GatewayWorld]:
        """The stored world, and the world as declared (removed destinations kept), from one read of the tables."""
        roles = self._members("session_roles", "session_id", "role")
        assignees = self._members("case_assignees", "case_id", "user_name")
        sessions = tuple(Session(i, u, t, roles.get(i, frozenset()), bool(v))
                         for i, u, t, v in self.db.execute("SELECT id, user_name, tenant, valid FROM sessions ORDER BY position"))
        cases = tuple(Case(i, t, assignees.get(i, frozenset()), c)
                      for i, t, c in self.db.execute("SELECT id, tenant, content FROM cases ORDER BY position"))
        runbooks = tuple(Runbook(i, c) for i, c in self.db.execute("SELECT id, content FROM runbooks ORDER BY position"))
        rows = self.db.execute("SELECT id, internal, removed FROM destinations ORDER BY position").fetchall()
        approvals = tuple(Approval(*row) for row in self.db.execute(
            "SELECT id, tool, arguments, user_name, expires_at FROM approvals ORDER BY position"))
        limit = self.db.execute("SELECT calls, window_seconds FROM rate_limit").fetchone()
        clock = self.db.execute("SELECT now FROM clock").fetchone()
        declared = GatewayWorld(clock=0 if clock is None else clock[0], sessions=sessions, cases=cases, runbooks=runbooks,
                                destinations=tuple(Destination(i, bool(internal)) for i, internal, _ in rows),
                                approvals=approvals, rate_limit=None if limit is None else RateLimit(*limit))
        world = declared
        for destination_id, _, removed in rows:
            if removed:
                world = world.without_destination(destination_id)
        return world, declared

    def write_world(self, before: GatewayWorld, after: GatewayWorld) -> None:
        """Store what changed from ``before`` to ``after``, field by field: the only changes a world sees are the change steps'."""
        if after.clock != before.clock:
            self.db.execute("UPDATE clock SET now = ?", (after.clock,))
        for old in before.sessions:
            new = after.session_index[old.id]
            if new.valid != old.valid:
                self.db.execute("UPDATE sessions SET valid = ? WHERE id = ?", (int(new.valid), old.id))
        for old in before.cases:
            new = after.case_index[old.id]
            if new.content != old.content:
                self.db.execute("UPDATE cases SET content = ? WHERE id = ?", (new.content, old.id))
            if new.assignees != old.assignees:
                self.db.execute("DELETE FROM case_assignees WHERE case_id = ?", (old.id,))
                self.db.executemany("INSERT INTO case_assignees VALUES (?, ?)", [(old.id, user) for user in new.assignees])
        for old in before.runbooks:
            new = after.runbook_index[old.id]
            if new.content != old.content:
                self.db.execute("UPDATE runbooks SET content = ? WHERE id = ?", (new.content, old.id))
        for old in before.destinations:
            if old.id not in after.destination_index:
                self.db.execute("UPDATE destinations SET removed = 1 WHERE id = ?", (old.id,))

    # -- what the gateway remembers of earlier calls -----------------------------------------------------------------

    def read_state(self, world: GatewayWorld, session_id: str, key: str | None) -> GatewayState:
        """The world, the session's earlier calls (all the rate limit counts) and the binding of ``key``, if any."""
        history = tuple(CallRecord(session_id, time, bool(counted)) for time, counted in self.db.execute(
            "SELECT time, counted FROM calls WHERE session_id = ? ORDER BY seq", (session_id,)))
        bindings = tuple(KeyBinding(k, (s, t, a)) for k, s, t, a in self.db.execute(
            "SELECT key, session_id, tool, arguments FROM key_bindings WHERE key = ? ORDER BY seq", (key,)))
        return GatewayState(world, history, bindings)

    def write_state(self, before: GatewayState, after: GatewayState) -> None:
        """The world's changes, and the calls and bindings ``after`` holds beyond ``before``."""
        self.write_world(before.world, after.world)
        self.db.executemany("INSERT INTO calls (session_id, time, counted) VALUES (?, ?, ?)",
                            [(r.session, r.time, int(r.counted)) for r in after.history[len(before.history):]])
        self.db.executemany("INSERT INTO key_bindings (key, session_id, tool, arguments) VALUES (?, ?, ?, ?)",
                            [(b.key, *b.fingerprint) for b in after.bindings[len(before.bindings):]])

    # -- changes held for the next call --------------------------------------------------------------------------------

    def stage(self, changes: list[dict]) -> None:
        self.db.executemany("INSERT INTO staged_changes (change) VALUES (?)", [(json.dumps(c),) for c in changes])

    def take_staged(self) -> list[dict]:
        """The changes held for this call, in the order given; held for no later call."""
        changes = [json.loads(text) for (text,) in self.db.execute("SELECT change FROM staged_changes ORDER BY seq")]
        if changes:
            self.db.execute("DELETE FROM staged_changes")
        return changes

    # -- what calls did --------------------------------------------------------------------------------------------------

    def record(self, exports, reads, audit: dict, rule: str | None) -> None:
        self.db.executemany("INSERT INTO exports (case_id, destination_id, tenant, payload) VALUES (?, ?, ?, ?)",
                            [(e["case_id"], e["destination_id"], e["tenant"], e["payload"]) for e in exports])
        self.db.executemany("INSERT INTO reads (case_id) VALUES (?)", [(r["case_id"],) for r in reads])
        self.db.execute("INSERT INTO audit (decision, reason, tool, user_name, tenant, case_id, destination_id, stage, replayed, rule)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (audit["decision"], audit["reason"], audit["tool"], audit["user"], audit["tenant"], audit["case_id"],
                         audit["destination_id"], audit["stage"], int(audit["replayed"]), rule))

    def take_records(self) -> dict:
        """What was recorded since the last time this was asked, in the order written; each record is shown once."""
        exports = [{"case_id": c, "destination_id": d, "tenant": t, "payload": p} for c, d, t, p in self.db.execute(
            "SELECT case_id, destination_id, tenant, payload FROM exports WHERE reported = 0 ORDER BY seq")]
        reads = [{"case_id": c} for (c,) in self.db.execute("SELECT case_id FROM reads WHERE reported = 0 ORDER BY seq")]
        audit = [{"decision": row[0], "reason": row[1], "tool": row[2], "user": row[3], "tenant": row[4], "case_id": row[5],
                  "destination_id": row[6], "stage": row[7], "replayed": bool(row[8]), "rule": row[9]}
                 for row in self.db.execute("SELECT decision, reason, tool, user_name, tenant, case_id, destination_id, stage,"
                                            " replayed, rule FROM audit WHERE reported = 0 ORDER BY seq")]
        for table in ("exports", "reads", "audit"):
            self.db.execute(f"UPDATE {table} SET reported = 1 WHERE reported = 0")  # noqa: S608 - constants
        return {"exports": exports, "reads": reads, "audit": audit}
