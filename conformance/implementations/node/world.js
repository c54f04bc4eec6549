'use strict';
// The stored records a scenario's world holds, and the operator changes between steps.
const { InvalidScenario } = require('./errors');
const { JsonFloat } = require('./json');

// JSON Schema counts 1.0 as an integer, so a stored integer field may be written as a float; it is read as the integer.
function integral(value) {
  return value instanceof JsonFloat && Number.isInteger(value.value) ? value.value : value;
}

function withIntegralFields(record) {
  const copy = { ...record };
  for (const name of ['uid', 'sorting']) if (Object.hasOwn(copy, name)) copy[name] = integral(copy[name]);
  if (Array.isArray(copy.skills)) copy.skills = copy.skills.map(integral);
  return copy;
}

// S002.1: the fields an update may set, each with the check the scenario schema gives the stored field.
// A record's key (uid, identifier) never changes: steps and runs name records by it.
const isString = (max) => (value) => typeof value === 'string' && value.length <= max;
const isName = (value) => isString(255)(value) && value.length >= 1;
const isStoredString = (value) => value === null || isString(255)(value);
const isBoolean = (value) => typeof value === 'boolean';
const isInt = (min, max) => (value) => Number.isInteger(integral(value)) && integral(value) >= min && integral(value) <= max;
const isUid = isInt(1, 2147483647);
const isList = (max, item = () => true) => (value) => Array.isArray(value) && value.length <= max && value.every(item);

const SETTABLE = {
  snippet: {
    identifier: isString(255), name: isString(255), text: isString(100000), data_class: isStoredString, tags: isString(10000),
    active: isBoolean, hidden: isBoolean, deleted: isBoolean, sorting: isInt(-2147483648, 2147483647),
  },
  skill: { name: isString(255), text: isString(100000), data_class: isStoredString, enabled: isBoolean, hidden: isBoolean, deleted: isBoolean },
  provider: { zone: isStoredString },
  configuration: {
    model: isStoredString, selection_mode: (value) => value === 'fixed' || value === 'criteria', fallbacks: isList(1000),
    system_prompt: isString(100000), system_prompt_class: isStoredString, snippet_tags: isString(10000),
    skills: isList(1000, isUid), active: isBoolean, deleted: isBoolean,
  },
};

function checkSettable(kind, set, where) {
  for (const [name, value] of Object.entries(set)) {
    const check = SETTABLE[kind][name];
    if (check === undefined) throw new InvalidScenario(`${where}.set.${name}`, `not a field of a ${kind} that can change`);
    if (!check(value)) throw new InvalidScenario(`${where}.set.${name}`, `${JSON.stringify(value)} is not a valid ${name}`);
  }
}

const KINDS = {
  snippet: { list: 'snippets', key: 'uid' },
  skill: { list: 'skills', key: 'uid' },
  provider: { list: 'providers', key: 'identifier' },
  configuration: { list: 'configurations', key: 'identifier' },
};

// A stored field, or its default when the record never stored one.
function field(record, name, fallback) {
  return Object.hasOwn(record, name) ? record[name] : fallback;
}

function isDeleted(record) {
  return Boolean(field(record, 'deleted', false));
}

class World {
  constructor(document) {
    const copy = (list) => (Array.isArray(document[list]) ? document[list].map(withIntegralFields) : []);
    this.providers = copy('providers');
    this.models = copy('models');
    this.configurations = copy('configurations');
    this.snippets = copy('snippets');
    this.skills = copy('skills');
    // C144.19: how the installation's database compares and orders strings.
    this.collation = document.collation === 'case-insensitive' ? 'case-insensitive' : 'case-sensitive';
    this.switches = new Set();
    this.hasEnforcement = Object.hasOwn(document, 'enforcement');
    this.enforcement = document.enforcement;
  }

  // The raw switch, undefined when it was never stored (C115.1).
  switchValue() {
    return this.hasEnforcement ? this.enforcement : undefined;
  }

  provider(identifier) {
    return this.providers.find((record) => record.identifier === identifier);
  }

  model(identifier) {
    return this.models.find((record) => record.identifier === identifier);
  }

  configuration(identifier) {
    return this.configurations.find((record) => record.identifier === identifier);
  }

  // A configuration a step names: one the world does not hold, or holds deleted, cannot be run (S001.1).
  liveConfiguration(identifier, where) {
    const record = this.configuration(identifier);
    if (record === undefined) throw new InvalidScenario(where, `no configuration ${JSON.stringify(identifier)}`);
    if (isDeleted(record)) throw new InvalidScenario(where, `configuration ${JSON.stringify(identifier)} is deleted`);
    return record;
  }

  // S001.1: a changed record is named by its one key; a step that writes the other key too is refused, never read as one of them.
  record(kind, step, where) {
    const { list, key } = KINDS[kind];
    const other = key === 'uid' ? 'identifier' : 'uid';
    if (!Object.hasOwn(step, key) || Object.hasOwn(step, other)) {
      throw new InvalidScenario(`${where}.${Object.hasOwn(step, key) ? other : key}`, `a ${kind} is named by its ${key} alone`);
    }
    const wanted = step[key];
    const found = this[list].find((record) => record[key] === wanted);
    if (found === undefined) throw new InvalidScenario(where, `no ${kind} with ${key} ${JSON.stringify(wanted)}`);
    return found;
  }

  // S002.1: an update replaces the named fields; every later step reads the changed record.
  update(step, where) {
    const found = this.record(step.kind, step, where);
    checkSettable(step.kind, step.set, where);
    Object.assign(found, withIntegralFields(step.set));
  }

  // S002.2: a deleted provider is removed, so its models reach none; any other record is flagged.
  delete(step, where) {
    const found = this.record(step.kind, step, where);
    if (step.kind === 'provider') this.providers = this.providers.filter((record) => record !== found);
    else found.deleted = true;
  }

  // S002.3: the switch takes any raw value, or is removed, which enforces.
  setEnforcement(step) {
    this.hasEnforcement = step.unset !== true;
    this.enforcement = this.hasEnforcement ? step.value : undefined;
  }
}

module.exports = { World, field, isDeleted, integral };
