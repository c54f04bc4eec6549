'use strict';
// decide(scenario) -> outcome: a scenario's steps run in order against its world (S001.1, S001.2). Ceiling
// scenarios are decided here; gateway scenarios by gateway.js.
const { UnsupportedScenario, InvalidScenario } = require('./errors');
const { World, isDeleted, integral } = require('./world');
const { VERSIONS, DEFAULT_VERSION, switchesOf } = require('./versions');
const { configurationSources, listSources } = require('./sources');
const { decideSend, dryRunResult, readoutResult } = require('./ceiling');
const { readRequestUids, readQueuedUids, decodedPayload, isInteger } = require('./uids');
const lifecycle = require('./lifecycle');
const { decideGateway, GATEWAY_VERSIONS, DEFAULT_GATEWAY_VERSION } = require('./gateway');

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function uidsOf(forced) {
  return { forced_snippets: forced.snippets.map((record) => record.uid), forced_skills: forced.skills.map((record) => record.uid) };
}

class Story {
  constructor(document, switches) {
    this.world = new World(isObject(document.world) ? document.world : {});
    this.world.switches = switches;
    this.switches = switches;
    this.runs = new Map();
  }

  // S001.1: a serving model the world does not hold cannot be routed to.
  servingModel(step, where) {
    const servingModel = step.serving_model ?? null;
    if (servingModel !== null && this.world.model(servingModel) === undefined) {
      throw new InvalidScenario(`${where}.serving_model`, `no model ${JSON.stringify(servingModel)}`);
    }
    return servingModel;
  }

  // C164.1: the gate folds the forced sources with the configuration's from ADR-164; before it, the configuration alone.
  gatedSources(configuration, forced) {
    return this.switches.has('gates_forced_sources') ? listSources(configuration, this.world, forced) : configurationSources(configuration, this.world);
  }

  // C179.1, C179.2: the record of what did not arrive, only where the version records it and only when non-empty.
  withDropped(result, requested, arrived, recorded) {
    const dropped = recorded ? lifecycle.droppedSources(this.world, requested, arrived) : [];
    return dropped.length > 0 ? { ...result, dropped } : result;
  }

  // C164.6: the playground's uids; under nr-llm a number beyond 64 bits wraps.
  requestedUids(step) {
    const wrap = this.switches.has('request_numbers_wrap');
    return { snippets: readRequestUids(step.forced_snippets, wrap), skills: readRequestUids(step.forced_skills, wrap) };
  }

  // The playground send: C164.6 uids, composition lookups, the gate unless it is a dry run (C164.5).
  send(step, where) {
    const configuration = this.world.liveConfiguration(step.configuration, `${where}.configuration`);
    const caller = { servingModel: this.servingModel(step, where), beUser: step.be_user, runUid: integral(step.run_uid ?? 0) };
    const requested = this.requestedUids(step);
    const arrived = lifecycle.resolveForComposition(this.world, requested, this.switches);
    const result = step.dry_run === true ? dryRunResult() : decideSend(this.world, configuration, this.gatedSources(configuration, arrived), caller);
    return this.withDropped({ op: 'send', ...result }, requested, arrived, this.switches.has('playground_records_dropped'));
  }

  // C144.16: the readout lists every source a send with this forced set would inject.
  readout(step, where) {
    const configuration = this.world.liveConfiguration(step.configuration, `${where}.configuration`);
    const requested = this.requestedUids(step);
    const arrived = lifecycle.resolveForComposition(this.world, requested, this.switches);
    return { op: 'readout', ...readoutResult(listSources(configuration, this.world, arrived)) };
  }

  // C144.16: classify answers for the configuration alone.
  classify(step, where) {
    const configuration = this.world.liveConfiguration(step.configuration, `${where}.configuration`);
    return { op: 'classify', ...readoutResult(configurationSources(configuration, this.world)) };
  }

  // A queued list as the payload stores it: raw, but under nr-llm as json_decode makes it (C175.4).
  payloadList(field) {
    return this.switches.has('queued_numbers_decoded') ? decodedPayload(field) : field;
  }

  // The payload stores the forced uids and the dry-run flag raw; they are read on dequeue. A run name is
  // queued once per story; its configuration must be held, though it may be deleted by then (C175.5 ends it as gone).
  queue(step, where) {
    if (this.runs.has(step.run)) throw new InvalidScenario(`${where}.run`, `run ${JSON.stringify(step.run)} is already queued`);
    if (this.world.configuration(step.configuration) === undefined) {
      throw new InvalidScenario(`${where}.configuration`, `no configuration ${JSON.stringify(step.configuration)}`);
    }
    this.runs.set(step.run, {
      configuration: step.configuration,
      payload: { snippets: this.payloadList(step.forced_snippets), skills: this.payloadList(step.forced_skills), dryRun: step.dry_run },
      // C144.14, C144.15: the run row's uid and backend user are what a refusal on dequeue or resume records.
      row: { uid: integral(step.uid ?? 0), beUser: step.be_user },
      stage: 'queued',
    });
    return { op: 'queue', run: step.run };
  }

  run(step, where, stage) {
    const run = this.runs.get(step.run);
    if (run === undefined) throw new InvalidScenario(`${where}.run`, `no run ${JSON.stringify(step.run)} was queued`);
    if (run.stage !== stage && run.stage !== 'ended') {
      throw new InvalidScenario(`${where}.run`, `run ${JSON.stringify(step.run)} is ${run.stage}, not ${stage}`);
    }
    return run;
  }

  end(run, why) {
    run.stage = 'ended';
    run.ended = why;
  }

  // The gated first send of a started or resumed run; an enforced refusal ends the run.
  runSend(run, step, where, configuration, sources) {
    const caller = { servingModel: this.servingModel(step, where), beUser: run.row.beUser, runUid: run.row.uid };
    const result = decideSend(this.world, configuration, sources, caller);
    if (result.decision === 'refused') this.end(run, 'refused');
    return { op: step.op, ...result };
  }

  // C175.5: a dequeue reloads the configuration (a deleted one ends the run as gone), reads the payload by
  // the queued rule (C175.4), resolves it through the composition lookups and gates the first send.
  dequeue(step, where) {
    const run = this.run(step, where, 'queued');
    if (run.stage === 'ended') return { op: 'dequeue', run: step.run, ended: run.ended };
    const configuration = this.world.configuration(run.configuration);
    if (configuration === undefined || isDeleted(configuration)) {
      this.end(run, 'gone');
      return { op: 'dequeue', run: step.run, ended: 'gone' };
    }
    // C175.5 under nr-llm: the payload's tool options refuse a row's user below 0 (one within PHP's range), failing the run.
    const user = run.row.beUser;
    if (this.switches.has('negative_user_fails_dequeue') && isInteger(user) && BigInt(user) < 0n && BigInt(user) >= -(2n ** 63n)) {
      this.end(run, 'failed');
      return { op: 'dequeue', run: step.run, ended: 'failed' };
    }
    const requested = { snippets: readQueuedUids(run.payload.snippets), skills: readQueuedUids(run.payload.skills) };
    run.forced = lifecycle.resolveForComposition(this.world, requested, this.switches);
    run.configuration = configuration.identifier;
    run.stage = 'running';
    let result;
    if (run.payload.dryRun === true) {
      // C164.5: only a stored strict true is a dry run, and it ends once assembled.
      result = { op: 'dequeue', ...dryRunResult() };
      this.end(run, 'dry run');
    } else {
      result = this.runSend(run, step, where, configuration, this.gatedSources(configuration, run.forced));
    }
    result = this.withDropped(result, requested, run.forced, this.switches.has('records_dropped'));
    return { ...result, run: step.run, ...uidsOf(run.forced) };
  }

  // C165.1: a suspend stores the state the rules write, or the raw state the step gives instead.
  suspend(step, where) {
    const run = this.run(step, where, 'running');
    if (run.stage === 'ended') return { op: 'suspend', run: step.run, ended: run.ended };
    run.state = isObject(step.state) ? step.state : lifecycle.suspendedState(run.forced, this.switches);
    run.stage = 'suspended';
    return { op: 'suspend', run: step.run, reason: step.reason ?? 'approval', state: run.state };
  }

  // C165.3, C165.5, C179.2: a resume rebuilds the forced set from the stored state against the live
  // records, zone and switch; with nothing rebuilt it is judged on the configuration alone; it records no drops.
  resume(step, where) {
    const run = this.run(step, where, 'suspended');
    const withInput = step.with_input ?? false;
    if (run.stage === 'ended') return { op: 'resume', run: step.run, ended: run.ended, with_input: withInput };
    const configuration = this.world.configuration(run.configuration);
    if (configuration === undefined || isDeleted(configuration)) {
      this.end(run, 'gone');
      return { op: 'resume', run: step.run, ended: 'gone', with_input: withInput };
    }
    const forced = lifecycle.resolveOnResume(this.world, run.state, this.switches);
    const sources = lifecycle.takesConfigurationOnlyPath(forced) ? configurationSources(configuration, this.world) : listSources(configuration, this.world, forced);
    run.stage = 'running';
    run.forced = forced;
    const result = this.runSend(run, step, where, configuration, sources);
    return { ...result, run: step.run, ...uidsOf(forced), with_input: withInput };
  }

  update(step, where) {
    this.world.update(step, where);
    return { op: 'update', kind: step.kind };
  }

  delete(step, where) {
    this.world.delete(step, where);
    return { op: 'delete', kind: step.kind };
  }

  set_enforcement(step) {
    this.world.setEnforcement(step);
    return { op: 'set_enforcement' };
  }
}

const OPS = ['send', 'readout', 'classify', 'queue', 'dequeue', 'suspend', 'resume', 'update', 'delete', 'set_enforcement'];

// Each kind has its own rule versions; a scenario's rules default to its kind's (lab-001 for the gateway).
function decideGatewayKind(document) {
  const rules = document.rules ?? DEFAULT_GATEWAY_VERSION;
  if (!GATEWAY_VERSIONS.includes(rules)) throw new UnsupportedScenario(`gateway rule version ${JSON.stringify(rules)} is not supported`);
  return decideGateway(document, rules);
}

// S001.2: one result per step, in step order. Throws UnsupportedScenario for an unknown rule version,
// InvalidScenario for a document the rules cannot be applied to.
function decide(document) {
  if (!isObject(document)) throw new InvalidScenario('$', 'a scenario is a JSON object');
  if (document.kind === 'gateway') return decideGatewayKind(document);
  const rules = document.rules ?? DEFAULT_VERSION;
  const story = new Story(document, switchesOf(rules));
  if (!Array.isArray(document.steps)) throw new InvalidScenario('$.steps', 'steps must be a list');
  const results = document.steps.map((step, index) => {
    const where = `$.steps[${index}]`;
    if (!isObject(step) || !OPS.includes(step.op)) throw new InvalidScenario(where, 'not a ceiling step');
    return story[step.op](step, where);
  });
  return { gateproof: 1, scenario: document.id, rules, results };
}

// What a protocol front end announces: the rule versions and scenario kinds decide() answers, and which
// versions belong to which kind (a ceiling scenario under lab-001 is not one it decides).
const BY_KIND = { ceiling: Object.keys(VERSIONS), gateway: GATEWAY_VERSIONS };
const SUPPORTED = { versions: [...BY_KIND.ceiling, ...BY_KIND.gateway], kinds: Object.keys(BY_KIND), byKind: BY_KIND };

module.exports = { decide, SUPPORTED };
