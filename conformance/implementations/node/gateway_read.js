'use strict';
// Reading a gateway scenario (S001.1 for the gateway kind): the world's records and the steps, checked
// against the scenario schema's gateway definitions. A call's tool and arguments are never checked here:
// they are whatever a model proposed, and the rules judge them.
const { InvalidScenario } = require('./errors');
const { integral } = require('./world');
const { JsonFloat } = require('./json');

// A JSON object: json.js reads a float as a JsonFloat, which is a number here.
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonFloat);
}

// JSON Schema measures a string in code points, not in JavaScript's UTF-16 units.
function length(text) {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

const isId = (value) => typeof value === 'string' && length(value) >= 1 && length(value) <= 200;
const isText = (value) => typeof value === 'string' && length(value) <= 100000;
const isBoolean = (value) => typeof value === 'boolean';
const isInt = (min, max) => (value) => Number.isInteger(integral(value)) && integral(value) >= min && integral(value) <= max;
const isIds = (value) => Array.isArray(value) && value.length <= 1000 && value.every(isId) && new Set(value).size === value.length;
const INT32 = 2147483647;

function checkList(value, where, max, min = 0) {
  if (!Array.isArray(value)) throw new InvalidScenario(where, 'must be a list');
  if (value.length < min || value.length > max) throw new InvalidScenario(where, `must hold ${min} to ${max} items`);
  return value;
}

// One record against its fields: each a check and whether it is required; no other field is accepted.
function checkRecord(value, where, fields) {
  if (!isObject(value)) throw new InvalidScenario(where, 'must be an object');
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(fields, name)) throw new InvalidScenario(`${where}.${name}`, 'is not a field here');
    if (!fields[name].check(value[name])) throw new InvalidScenario(`${where}.${name}`, `${JSON.stringify(value[name])} is not valid`);
  }
  for (const [name, field] of Object.entries(fields)) {
    if (field.required && !Object.hasOwn(value, name)) throw new InvalidScenario(`${where}.${name}`, 'is required');
  }
  const copy = {};
  for (const name of Object.keys(value)) copy[name] = integral(value[name]);
  return copy;
}

const required = (check) => ({ check, required: true });
const optional = (check) => ({ check, required: false });

const RECORDS = {
  sessions: { id: required(isId), user: required(isId), tenant: required(isId), roles: optional(isIds), valid: optional(isBoolean) },
  destinations: { id: required(isId), internal: required(isBoolean) },
  runbooks: { id: required(isId), content: optional(isText) },
  approvals: {
    id: required(isId), tool: required(isId), arguments: required(isObject), user: required(isId), expires_at: required(isInt(0, INT32)),
  },
};
const LIMITS = { sessions: 1000, destinations: 1000, runbooks: 1000, approvals: 1000 };
const RECORDS_OF_A_KIND = 10000;

const RATE_LIMIT = { calls: required(isInt(1, 1000000)), window: required(isInt(1, INT32)) };
const WORLD_FIELDS = [...Object.keys(RECORDS), 'rate_limit', 'clock'];

// S001.9: the fields of a record of a catalog's kind: its id, its tenant and assignees under the names the kind gives.
const kindFields = (kind) => ({ id: required(isId), [kind.tenant]: required(isId), [kind.assignees]: optional(isIds), content: optional(isText) });

// The records of one list, each checked; two under one id (in this list or, for stored records, any other: `seen`)
// would make every lookup by that id ambiguous.
function readList(list, where, fields, most, least = 0, seen = new Set()) {
  const records = checkList(list, where, most, least).map((item, index) => checkRecord(item, `${where}[${index}]`, fields));
  records.forEach((record, index) => {
    if (seen.has(record.id)) throw new InvalidScenario(`${where}[${index}].id`, `${JSON.stringify(record.id)} is already used`);
    seen.add(record.id);
  });
  return records;
}

// S001.9: every stored record of every kind, named by the rules' fields: its kind, id, tenant, assignees and content.
function readStoredRecords(world, catalog) {
  const seen = new Set();
  return catalog.kinds.flatMap((kind) => {
    if (!Object.hasOwn(world, kind.collection)) return [];
    const records = readList(world[kind.collection], `$.world.${kind.collection}`, kindFields(kind), RECORDS_OF_A_KIND, 0, seen);
    return records.map((record) => {
      const stored = { kind: kind.name, id: record.id, tenant: record[kind.tenant], content: record.content };
      if (Object.hasOwn(record, kind.assignees)) stored.assignees = record[kind.assignees];
      return stored;
    });
  });
}

// The world: the lists (sessions required, the others empty when absent), the rate limit (none when absent) and
// the clock (0 when absent).
function readWorld(world, catalog) {
  const where = '$.world';
  if (!isObject(world)) throw new InvalidScenario(where, 'must be an object');
  const known = [...WORLD_FIELDS, ...catalog.kinds.map((kind) => kind.collection)];
  const unknown = Object.keys(world).find((name) => !known.includes(name));
  if (unknown !== undefined) throw new InvalidScenario(`${where}.${unknown}`, 'is not a field here');
  if (!Object.hasOwn(world, 'sessions')) throw new InvalidScenario(`${where}.sessions`, 'is required');
  const read = { cases: readStoredRecords(world, catalog) };
  for (const list of Object.keys(RECORDS)) {
    read[list] = Object.hasOwn(world, list) ? readList(world[list], `${where}.${list}`, RECORDS[list], LIMITS[list], list === 'sessions' ? 1 : 0) : [];
  }
  // G002.4: the world's limit, else the catalog's.
  read.rate_limit = Object.hasOwn(world, 'rate_limit') ? checkRecord(world.rate_limit, `${where}.rate_limit`, RATE_LIMIT) : catalog.rateLimit;
  if (Object.hasOwn(world, 'clock') && !isInt(0, INT32)(world.clock)) throw new InvalidScenario(`${where}.clock`, 'must be an integer from 0');
  read.clock = integral(world.clock ?? 0);
  return read;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._:\/-]{0,199}$/;
const TOP = {
  gateproof: required((value) => value === 1),
  id: required((value) => typeof value === 'string' && ID.test(value)),
  description: optional((value) => typeof value === 'string' && length(value) <= 4000),
  kind: optional((value) => value === 'gateway'),
  rules: optional((value) => typeof value === 'string'),
  catalog: optional(() => true), // read whole by catalog.js
  world: required(() => true),
  steps: required((value) => Array.isArray(value) && value.length >= 1 && value.length <= 1000),
};

// The document's own fields; the world and the steps are read apart, each naming the field that breaks it.
function readDocument(document) {
  checkRecord(document, '$', TOP);
}

// The changes a step (or a call's before_write) may make to the world.
const CHANGES = {
  reassign_case: { case_id: required(isId), assignees: required(isIds) },
  revoke_session: { session: required(isId) },
  remove_destination: { destination_id: required(isId) },
  edit_case: { case_id: required(isId), content: required(isText) },
  edit_runbook: { runbook_id: required(isId), content: required(isText) },
  advance_clock: { seconds: required(isInt(0, INT32)) },
};

function readChange(step, where) {
  if (!isObject(step) || !Object.hasOwn(CHANGES, step.op)) throw new InvalidScenario(`${where}.op`, 'not a gateway step');
  return checkRecord(step, where, { op: required(() => true), ...CHANGES[step.op] });
}

const CALL = {
  op: required(() => true),
  session: required(isId),
  tool: required(() => true),
  arguments: required(() => true),
  idempotency_key: optional(isId),
  before_write: optional((value) => Array.isArray(value) && value.length <= 100),
};

// A call keeps its raw tool and arguments; its before_write changes are read like steps.
function readStep(step, where) {
  if (!isObject(step) || step.op !== 'call') return readChange(step, where);
  const call = checkRecord(step, where, CALL);
  call.tool = step.tool;
  call.arguments = step.arguments;
  call.before_write = (step.before_write ?? []).map((change, index) => readChange(change, `${where}.before_write[${index}]`));
  return call;
}

module.exports = { readDocument, readWorld, readStep, isObject, length };
