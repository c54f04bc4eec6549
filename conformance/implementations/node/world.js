'use strict';
// The stored records a scenario's world holds, and the operator changes between steps.
const { InvalidScenario } = require('./errors');

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
    const copy = (list) => (Array.isArray(document[list]) ? document[list].map((record) => ({ ...record })) : []);
    this.providers = copy('providers');
    this.models = copy('models');
    this.configurations = copy('configurations');
    this.snippets = copy('snippets');
    this.skills = copy('skills');
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

  record(kind, step, where) {
    const { list, key } = KINDS[kind];
    const wanted = step[key];
    const found = this[list].find((record) => record[key] === wanted);
    if (found === undefined) throw new InvalidScenario(where, `no ${kind} with ${key} ${JSON.stringify(wanted)}`);
    return found;
  }

  // S002.1: an update replaces the named fields; every later step reads the changed record.
  update(step, where) {
    Object.assign(this.record(step.kind, step, where), step.set);
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

module.exports = { World, field, isDeleted };
