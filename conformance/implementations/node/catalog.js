'use strict';
// The gateway's catalog (adr/gateway.md, "The rules over a catalog"; S003): the tools a scenario's gateway declares,
// read from the scenario's `catalog` or, without one, the lab's. Each tool is read once into what the rules consult:
// its arguments with their types and bounds, its record argument and kind, its destination, roles and next checks.
const { InvalidScenario } = require('./errors');
const { JsonFloat } = require('./json');

// The lab's catalog, model/catalogs/lab-001.json as written: the gateway of a scenario that names none.
const LAB_CATALOG = {
  catalog: 1,
  id: 'lab-001',
  record_kinds: [{ name: 'case', tenant: 'tenant', assignees: 'assignees' }],
  tools: [
    {
      name: 'export_case',
      effect: 'export',
      arguments: [{ name: 'case_id', type: 'identifier', max_length: 128 }, { name: 'destination_id', type: 'identifier', max_length: 128 }],
      record: { argument: 'case_id', kind: 'case' },
      destination: 'destination_id',
      roles: ['support'],
      idempotency_key: true,
      approvals: [{ when: 'external_destination' }],
      recheck_at_write: true,
    },
    {
      name: 'read_case',
      effect: 'retrieval',
      arguments: [{ name: 'case_id', type: 'identifier', max_length: 128 }],
      record: { argument: 'case_id', kind: 'case' },
      roles: ['*'],
      tenant_reader_role: 'supervisor',
    },
  ],
};

const ANY_ROLE = '*';
// S003.7: keys every gateway world has, which no kind's records may take.
const WORLD_TABLES = ['sessions', 'destinations', 'runbooks', 'approvals', 'rate_limit', 'clock'];

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof JsonFloat);
// A JSON number as a value to compare: a safe integer, a BigInt beyond, or a float's double; undefined for anything else.
function numeric(value) {
  if (value instanceof JsonFloat) return value.value;
  return typeof value === 'number' || typeof value === 'bigint' ? value : undefined;
}

// S003.1: one object against its fields, each a check and whether it is required; no other field is accepted.
function fields(value, where, declared) {
  if (!isObject(value)) throw new InvalidScenario(where, 'must be an object');
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(declared, name)) throw new InvalidScenario(`${where}.${name}`, 'unknown field');
    if (!declared[name][0](value[name])) throw new InvalidScenario(`${where}.${name}`, `${JSON.stringify(String(value[name]))} is not valid`);
  }
  for (const [name, [, required]] of Object.entries(declared)) {
    if (required && !Object.hasOwn(value, name)) throw new InvalidScenario(`${where}.${name}`, 'required');
  }
  return value;
}

const matches = (pattern) => (value) => typeof value === 'string' && pattern.test(value);
const isName = matches(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/);
const isRole = matches(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/);
const isText = (value) => typeof value === 'string' && [...value].length <= 4000;
const isBoolean = (value) => typeof value === 'boolean';
const isNumber = (value) => numeric(value) !== undefined;
const isWhole = (least) => (value) => isNumber(value) && Number.isInteger(Number(numeric(value))) && numeric(value) >= least && numeric(value) <= 2147483647;
const isLength = (value) => isWhole(0)(value) && numeric(value) <= 16777216;
const isList = (least, most, item) => (value) => Array.isArray(value) && value.length >= least && value.length <= most && value.every(item);
const oneOf = (...choices) => (value) => choices.includes(value);
const always = () => true;

const CATALOG = {
  catalog: [(value) => value === 1, true], id: [matches(/^[A-Za-z0-9][A-Za-z0-9._:/+-]{0,199}$/), true], description: [isText, false],
  record_kinds: [isList(1, 100, always), true], tools: [isList(1, 200, always), true], rate_limit: [always, false],
};
const KIND = { name: [isName, true], tenant: [isName, true], assignees: [isName, true], collection: [isName, false], description: [isText, false] };
const TOOL = {
  name: [isName, true], description: [isText, false], effect: [oneOf('retrieval', 'export', 'write'), true],
  arguments: [isList(1, 64, always), true], record: [always, true], destination: [isName, false],
  roles: [isList(1, 100, (role) => role === ANY_ROLE || isRole(role)), true], tenant_reader_role: [isRole, false],
  idempotency_key: [isBoolean, false], approvals: [isList(0, 16, always), false], recheck_at_write: [isBoolean, false],
};
const ARGUMENT = {
  name: [isName, true], type: [oneOf('identifier', 'string', 'integer', 'number'), true], required: [isBoolean, false],
  min_length: [isLength, false], max_length: [isLength, false], minimum: [isNumber, false], maximum: [isNumber, false], description: [isText, false],
};
const APPROVAL = { when: [oneOf('external_destination', 'argument_above'), true], argument: [isName, false], above: [isNumber, false] };
const RATE_LIMIT = { calls: [isWhole(1), true], window: [isWhole(1), true] };

function refuse(condition, where, problem) {
  if (condition) throw new InvalidScenario(where, problem);
}

// S003.2, S003.7: each kind once, kept in a world key of its own, its tenant and assignees in two fields of their own.
function readKind(kind, where, taken) {
  fields(kind, where, KIND);
  const collection = kind.collection ?? `${kind.name}s`;
  const at = Object.hasOwn(kind, 'collection') ? `${where}.collection` : `${where}.name`;
  refuse(taken.has(collection), at, `the world key ${JSON.stringify(collection)} is taken`);
  taken.add(collection);
  refuse(kind.tenant === kind.assignees, `${where}.assignees`, 'the tenant field');
  for (const field of ['tenant', 'assignees']) refuse(['id', 'content'].includes(kind[field]), `${where}.${field}`, 'a field of every record');
  refuse(collection === 'cases' && (kind.tenant !== 'tenant' || kind.assignees !== 'assignees'), at, "records stored as 'cases' keep the lab's fields");
  return { name: kind.name, tenant: kind.tenant, assignees: kind.assignees, collection };
}

// S003.3: an argument's bounds fit its type, and no least is above its most.
function readArgument(argument, where) {
  fields(argument, where, ARGUMENT);
  const text = argument.type === 'identifier' || argument.type === 'string';
  for (const bound of text ? ['minimum', 'maximum'] : ['min_length', 'max_length']) refuse(Object.hasOwn(argument, bound), `${where}.${bound}`, 'a bound of the other kind');
  refuse(text && !Object.hasOwn(argument, 'max_length'), `${where}.max_length`, 'required for text');
  const least = text ? numeric(argument.min_length ?? (argument.type === 'identifier' ? 1 : 0)) : numeric(argument.minimum);
  const most = text ? numeric(argument.max_length) : numeric(argument.maximum);
  refuse(argument.type === 'identifier' && least < 1, `${where}.min_length`, 'an identifier is never empty');
  for (const bound of argument.type === 'integer' ? ['minimum', 'maximum'] : []) {
    refuse(Object.hasOwn(argument, bound) && !Number.isInteger(Number(numeric(argument[bound]))), `${where}.${bound}`, 'not an integer');
  }
  refuse(least !== undefined && most !== undefined && least > most, where, 'its least is above its most');
  return { name: argument.name, type: argument.type, required: argument.required ?? true, text, least, most };
}

// S003.4: a record or destination argument is one of the tool's own, required and an identifier.
function namedArgument(spec, name, where) {
  const found = spec.arguments.find((argument) => argument.name === name);
  refuse(found === undefined || !found.required || found.type !== 'identifier', where, `no required identifier ${JSON.stringify(name)} among the tool's arguments`);
  return name;
}

// S003.6: an external_destination approval needs a destination; an argument_above one names a numeric argument and a value.
function readApproval(approval, where, spec) {
  fields(approval, where, APPROVAL);
  if (approval.when === 'external_destination') {
    refuse(spec.destination === undefined || Object.keys(approval).length > 1, where, 'an external_destination approval of a tool without destination, or naming more');
    return { when: approval.when };
  }
  const argument = spec.arguments.find((declared) => declared.name === approval.argument);
  refuse(argument === undefined || argument.text || !Object.hasOwn(approval, 'above'), where, 'argument_above names a numeric argument and a value');
  return { when: approval.when, argument: approval.argument, above: numeric(approval.above) };
}

// S003.2 to S003.6 for one tool: the fields the rules read, named as they are used.
function readTool(tool, where, kinds) {
  fields(tool, where, TOOL);
  const spec = { name: tool.name, effect: tool.effect, sideEffect: tool.effect !== 'retrieval' };
  spec.arguments = tool.arguments.map((argument, index) => readArgument(argument, `${where}.arguments[${index}]`));
  spec.arguments.forEach((argument, index) => {
    refuse(spec.arguments.findIndex((other) => other.name === argument.name) !== index, `${where}.arguments[${index}].name`, 'declared twice');
  });
  fields(tool.record, `${where}.record`, { argument: [isName, true], kind: [isName, true] });
  spec.recordArgument = namedArgument(spec, tool.record.argument, `${where}.record.argument`);
  spec.kind = tool.record.kind;
  refuse(!kinds.some((kind) => kind.name === spec.kind), `${where}.record.kind`, 'not a record kind of the catalog');
  refuse((tool.effect === 'export') !== Object.hasOwn(tool, 'destination'), `${where}.destination`, 'an export, and only an export, names its destination');
  if (Object.hasOwn(tool, 'destination')) spec.destination = namedArgument(spec, tool.destination, `${where}.destination`);
  refuse(tool.roles.includes(ANY_ROLE) && tool.roles.length > 1, `${where}.roles`, `${ANY_ROLE} stands alone`);
  refuse(new Set(tool.roles).size !== tool.roles.length, `${where}.roles`, 'a role listed twice');
  spec.roles = tool.roles;
  refuse(Object.hasOwn(tool, 'tenant_reader_role') && spec.sideEffect, `${where}.tenant_reader_role`, 'only a retrieval has one');
  spec.tenantReaderRole = tool.tenant_reader_role;
  for (const field of ['idempotency_key', 'approvals', 'recheck_at_write']) refuse(Object.hasOwn(tool, field) && !spec.sideEffect, `${where}.${field}`, 'only a side effect takes it');
  spec.idempotencyKey = tool.idempotency_key === true;
  spec.recheckAtWrite = tool.recheck_at_write === true;
  spec.approvals = (tool.approvals ?? []).map((approval, index) => readApproval(approval, `${where}.approvals[${index}]`, spec));
  return spec;
}

// The catalog a gateway scenario decides by, or an InvalidScenario naming the field under `where`.
function readCatalog(document, where = '$.catalog') {
  fields(document, where, CATALOG);
  const taken = new Set(WORLD_TABLES);
  const kinds = document.record_kinds.map((kind, index) => readKind(kind, `${where}.record_kinds[${index}]`, taken));
  kinds.forEach((kind, index) => refuse(kinds.findIndex((other) => other.name === kind.name) !== index, `${where}.record_kinds[${index}].name`, 'declared twice'));
  const tools = new Map();
  document.tools.forEach((tool, index) => {
    const spec = readTool(tool, `${where}.tools[${index}]`, kinds);
    refuse(tools.has(spec.name), `${where}.tools[${index}].name`, 'declared twice');
    tools.set(spec.name, spec);
  });
  const rateLimit = Object.hasOwn(document, 'rate_limit') ? fields(document.rate_limit, `${where}.rate_limit`, RATE_LIMIT) : null;
  const specs = [...tools.values()];
  return {
    tools,
    kinds,
    // G001.15: the arguments an audit record may take its record and destination from, each once, in declaration order.
    recordArguments: [...new Set(specs.map((spec) => spec.recordArgument))],
    destinationArguments: [...new Set(specs.filter((spec) => spec.destination !== undefined).map((spec) => spec.destination))],
    rateLimit: rateLimit === null ? null : { calls: numeric(rateLimit.calls), window: numeric(rateLimit.window) },
    // S001.10: results list `writes` only under a catalog that declares a write tool.
    listsWrites: specs.some((spec) => spec.effect === 'write'),
  };
}

const LAB = readCatalog(LAB_CATALOG, '$.catalog');

// S001.9: the scenario's catalog, or the lab's when it names none.
function catalogOf(document) {
  return Object.hasOwn(document, 'catalog') ? readCatalog(document.catalog) : LAB;
}

module.exports = { catalogOf, numeric, ANY_ROLE };
