'use strict';
// What the gateway reads and the model cannot write: the host's sessions, the stored cases and runbooks, the
// configured destinations, the approvals of a trusted flow and the clock; and the changes that land between steps.
const { InvalidScenario } = require('./errors');

class GatewayWorld {
  // world: the lists as gateway_read.readWorld gives them, each record already checked.
  constructor(world) {
    const byId = (list) => new Map(list.map((record) => [record.id, { ...record }]));
    this.sessions = byId(world.sessions);
    this.cases = byId(world.cases);
    this.destinations = byId(world.destinations);
    this.declaredDestinations = new Set(this.destinations.keys());
    this.runbooks = byId(world.runbooks);
    this.approvals = world.approvals;
    this.rateLimit = world.rate_limit;
    this.clock = world.clock;
  }

  // A step naming a session the host does not hold cannot be run: that is invalid input, not a refusal.
  session(id, where) {
    const session = this.sessions.get(id);
    if (session === undefined) throw new InvalidScenario(where, `no session ${JSON.stringify(id)}`);
    return session;
  }

  // Lookups by what a proposal names: undefined when storage or configuration holds nothing under that id.
  storedCase(id) {
    return typeof id === 'string' ? this.cases.get(id) : undefined;
  }

  destination(id) {
    return typeof id === 'string' ? this.destinations.get(id) : undefined;
  }

  changed(map, id, kind, where) {
    const record = map.get(id);
    if (record === undefined) throw new InvalidScenario(where, `no ${kind} ${JSON.stringify(id)}`);
    return record;
  }

  // The operator's and the host's changes. Each names a record the scenario's world declares: naming one it does not
  // is invalid input. A step is checked against the world as written, not as earlier steps left it, so removing a
  // destination that an earlier step already removed is valid and changes nothing.
  apply(change, where) {
    switch (change.op) {
      case 'reassign_case':
        this.changed(this.cases, change.case_id, 'case', `${where}.case_id`).assignees = [...change.assignees];
        break;
      case 'revoke_session':
        this.changed(this.sessions, change.session, 'session', `${where}.session`).valid = false;
        break;
      case 'remove_destination':
        if (!this.declaredDestinations.has(change.destination_id)) {
          throw new InvalidScenario(`${where}.destination_id`, `no destination ${JSON.stringify(change.destination_id)}`);
        }
        this.destinations.delete(change.destination_id);
        break;
      case 'edit_case':
        this.changed(this.cases, change.case_id, 'case', `${where}.case_id`).content = change.content;
        break;
      case 'edit_runbook':
        this.changed(this.runbooks, change.runbook_id, 'runbook', `${where}.runbook_id`).content = change.content;
        break;
      case 'advance_clock':
        this.clock += change.seconds;
        break;
      default:
        throw new InvalidScenario(`${where}.op`, 'not a gateway change');
    }
  }
}

// Stored fields and their defaults when a record never stored them.
const rolesOf = (session) => session.roles ?? [];
const isValid = (session) => session.valid ?? true;
const assigneesOf = (stored) => stored.assignees ?? [];
const contentOf = (stored) => stored.content ?? '';

module.exports = { GatewayWorld, rolesOf, isValid, assigneesOf, contentOf };
