// What lab-001+next remembers between calls (G002.2 to G002.4), in SQLite: the times of each session's counted calls
// and the action each idempotency key is bound to. A call reads the history of its own session and key into the
// reference History, lets the reference code count and bind, and writes back what it added.
import { statement, type Db } from './database.js';
import { ReferenceHistory, type History } from './reference.js';

export interface StoredHistory {
  history: History;
  save(): void;
}

export function openHistory(db: Db, sessionId: string, key: string | undefined): StoredHistory {
  const history = new ReferenceHistory();
  const times = (statement(db, 'SELECT called_at FROM call_history WHERE session_id = ? ORDER BY seq').all(sessionId) as { called_at: number }[])
    .map((row) => row.called_at);
  history.calls.set(sessionId, times);
  const counted = new Map([[sessionId, times.length]]);
  const bound = new Map<string, string>();
  if (key !== undefined) {
    const row = statement(db, 'SELECT action FROM key_bindings WHERE idempotency_key = ?').get(key) as { action: string } | undefined;
    if (row !== undefined) {
      history.keys.set(key, row.action);
      bound.set(key, row.action);
    }
  }
  return {
    history,
    save() {
      const count = statement(db, 'INSERT INTO call_history (session_id, called_at) VALUES (?, ?)');
      for (const [session, calls] of history.calls) {
        for (const time of calls.slice(counted.get(session) ?? 0)) count.run(session, time);
      }
      const bind = statement(db, 'INSERT OR REPLACE INTO key_bindings (idempotency_key, action) VALUES (?, ?)');
      for (const [boundKey, action] of history.keys) {
        if (bound.get(boundKey) !== action) bind.run(boundKey, action);
      }
    },
  };
}
