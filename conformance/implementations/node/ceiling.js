'use strict';
// The trust ceiling for one send: the zone it can reach, the fold of its sources, the decision (ADR-094, 113, 144, 149).
const { STRICTEST_ZONE, classRank, parseZone, ceilingOf, zonePermits, lessTrusted, isEnforcing } = require('./ladder');
const { phpTrim, asciiLower } = require('./text');
const { field, isDeleted } = require('./world');
const { isInteger } = require('./uids');
const { collated } = require('./sources');

// C094.7: a model reaches the zone its provider stores; no model, no provider, or a provider
// that does not exist reads as the strictest zone.
function zoneOfModel(world, model) {
  if (model === undefined) return STRICTEST_ZONE;
  const provider = world.provider(field(model, 'provider', null));
  return provider === undefined ? STRICTEST_ZONE : parseZone(field(provider, 'zone', null));
}

function relationModel(world, configuration) {
  const identifier = field(configuration, 'model', null);
  return identifier === null ? undefined : world.model(identifier);
}

// C149.2: only criteria mode hands the gate the model routing resolved; with none, or in
// fixed mode, the configuration's own relation is the primary model.
function gateServingModel(world, configuration, servingModel) {
  const criteria = field(configuration, 'selection_mode', 'fixed') === 'criteria';
  if (criteria && typeof servingModel === 'string') return world.model(servingModel);
  return relationModel(world, configuration);
}

// C094.9: non-strings and empty entries dropped, the rest trimmed, lowercased, de-duplicated in order.
function normaliseFallbackChain(configuration) {
  const chain = field(configuration, 'fallbacks', []);
  const entries = (Array.isArray(chain) ? chain : [])
    .filter((entry) => typeof entry === 'string')
    .map((entry) => asciiLower(phpTrim(entry)))
    .filter((entry) => entry !== '');
  return [...new Set(entries)];
}

// C094.10, C144.19: a fallback is the first undeleted configuration whose identifier equals the entry under the
// installation's collation, active or not.
function lookupFallback(world, identifier) {
  const wanted = collated(identifier, world.collation);
  return world.configurations.find((configuration) => collated(configuration.identifier, world.collation) === wanted && !isDeleted(configuration));
}

// C094.8, C094.10, C149.1: the primary zone, widened by one level of fallbacks, each judged by
// its own model relation (never a serving model, never its own chain); a fallback not found adds the strictest zone.
function resolveZone(world, configuration, primaryModel) {
  let zone = zoneOfModel(world, primaryModel);
  for (const identifier of normaliseFallbackChain(configuration)) {
    const fallback = lookupFallback(world, identifier);
    zone = lessTrusted(zone, fallback === undefined ? STRICTEST_ZONE : zoneOfModel(world, relationModel(world, fallback)));
  }
  return zone;
}

// C144.9: a declared source takes over an undeclared result, or a declared one at most as strict.
function takesOver(result, entry) {
  return entry.data_class !== null && (result === null || classRank(result.data_class) <= classRank(entry.data_class));
}

// C144.9, C164.4: the strictest declaration, carrying its own source's name; the later source wins a tie.
function fold(sources) {
  return sources.reduce((result, entry) => (takesOver(result, entry) ? entry : result), null);
}

const UNDECLARED_MESSAGE = 'No snippet or skill this configuration injects carries a data class, so the input-context gate constrains nothing.';
const OBSERVE_SUFFIX = ' Enforcement is in observe mode, so the send would proceed and be recorded as blocked.';

// C144.12: the messages, word for word.
function messageOf(decision, dataClass, zone, source) {
  const reach = `a provider in the "${zone}" trust zone may receive (ceiling: ${ceilingOf(zone)}). Declared by ${source}.`;
  if (decision === 'permitted') return `The injected context is classified ${dataClass}, which ${reach}`;
  const refusal = `The injected context is classified ${dataClass}, which exceeds what ${reach}`;
  return decision === 'observed' ? refusal + OBSERVE_SUFFIX : refusal;
}

// C144.13: the exception an enforcing refusal throws (code 1786665603).
function exceptionText(configuration, zone, dataClass, source) {
  return `Configuration "${configuration.identifier}" resolves to trust zone ${zone}, which permits at most ${ceilingOf(zone)}, `
    + `but ${source === '' ? 'the injected context' : source} is classified ${dataClass}. `
    + "Raise the provider's trust zone, remove the source from this configuration, or correct the declared class.";
}

// C144.15: only an integer user uid in the call metadata is recorded.
function recordedBeUser(beUser) {
  return isInteger(beUser) ? beUser : 0;
}

// C144.14: one context_blocked record per refusal, naming the primary provider and model even when a
// fallback set the zone, and holding neither zone, ceiling nor any source's text.
function auditRecord(world, configuration, primaryModel, folded, enforcing, caller) {
  const provider = primaryModel === undefined ? undefined : world.provider(field(primaryModel, 'provider', null));
  return {
    correlation_id: '',
    decision: 'context_blocked',
    reason: folded.data_class,
    provider: provider === undefined ? '' : provider.identifier,
    model: primaryModel === undefined ? '' : primaryModel.identifier,
    configuration: configuration.identifier,
    be_user: world.switches.has('audits_caller_user') ? recordedBeUser(caller.beUser) : 0,
    tool_name: '',
    agentrun_uid: caller.runUid,
    guardrail: '',
    detail: enforcing ? folded.source : `${folded.source} (observe)`,
  };
}

function undeclaredResult() {
  return {
    decision: 'undeclared', declared_class: null, source: '', zone: null, ceiling: null,
    enforcing: null, sent: true, message: UNDECLARED_MESSAGE, exception: null, audit: [],
  };
}

// C164.5: a dry run calls no provider, so the gate does not run and nothing is recorded.
function dryRunResult() {
  return {
    decision: 'dry_run', declared_class: null, source: '', zone: null, ceiling: null,
    enforcing: null, sent: false, message: null, exception: null, audit: [],
  };
}

// C144.10, C144.11, C144.18: undeclared consults no zone and no switch; a permitted send reads no switch;
// otherwise the switch decides between refused (not sent) and observed (sent).
// `caller` holds the serving model routing named, the caller's user uid and the run uid.
function decideSend(world, configuration, sources, caller) {
  const folded = fold(sources);
  if (folded === null) return undeclaredResult();
  const primaryModel = gateServingModel(world, configuration, caller.servingModel);
  const zone = resolveZone(world, configuration, primaryModel);
  const result = { declared_class: folded.data_class, source: folded.source, zone, ceiling: ceilingOf(zone) };
  if (zonePermits(zone, folded.data_class)) {
    return {
      decision: 'permitted', ...result, enforcing: null, sent: true,
      message: messageOf('permitted', folded.data_class, zone, folded.source), exception: null, audit: [],
    };
  }
  const enforcing = isEnforcing(world.switchValue());
  const decision = enforcing ? 'refused' : 'observed';
  return {
    decision, ...result, enforcing, sent: !enforcing,
    message: messageOf(decision, folded.data_class, zone, folded.source),
    exception: enforcing ? exceptionText(configuration, zone, folded.data_class, folded.source) : null,
    audit: [auditRecord(world, configuration, primaryModel, folded, enforcing, caller)],
  };
}

// C144.16: every source with its class, and the fold; nothing injected reads [], null and ''.
function readoutResult(sources) {
  const folded = fold(sources);
  return {
    sources: sources.map((entry) => ({ source: entry.source, data_class: entry.data_class })),
    effective: folded === null ? null : folded.data_class,
    effective_source: folded === null ? '' : folded.source,
  };
}

module.exports = { decideSend, dryRunResult, readoutResult };
