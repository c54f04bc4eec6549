'use strict';
// What the lab-001+next checks remember between calls: when each session called (G002.4) and which action each
// idempotency key is bound to (G002.2, G002.3). Under lab-001 nothing is remembered.
const { canonicalText } = require('./proposal');

// G002.3: an action is the session, the tool and the canonical arguments (G002.7), nothing less. The tool is
// written canonically too: a proposal may name it by any JSON value, a BigInt among them, which JSON.stringify refuses.
function actionOf(sessionId, tool, args) {
  return JSON.stringify([sessionId, canonicalText(tool), canonicalText(args)]);
}

class History {
  constructor() {
    this.calls = new Map(); // session id -> the clock times of its counted calls
    this.keys = new Map(); // idempotency key -> the action whose allowed export bound it
  }

  // G002.4: at most `calls` in any window of `window` seconds: the calls counted in the `window` seconds up to
  // now, (now - window, now], must leave room for this one. No configured limit, no limit.
  isWithinRateLimit(rateLimit, sessionId, now) {
    if (rateLimit === null) return true;
    const recent = (this.calls.get(sessionId) ?? []).filter((time) => time > now - rateLimit.window);
    return recent.length < rateLimit.calls;
  }

  // G002.4: every call counts against its session, except one refused for being over the limit.
  count(sessionId, now) {
    if (!this.calls.has(sessionId)) this.calls.set(sessionId, []);
    this.calls.get(sessionId).push(now);
  }

  // G002.2, G002.3: 'unbound', 'same' (a replay) or 'other' (a conflict) for a key on this action.
  keyBinding(key, action) {
    if (key === undefined || !this.keys.has(key)) return 'unbound';
    return this.keys.get(key) === action ? 'same' : 'other';
  }

  // G002.2: only an export that was allowed and written binds its key; a refusal binds nothing.
  bind(key, action) {
    if (key !== undefined) this.keys.set(key, action);
  }
}

module.exports = { History, actionOf };
