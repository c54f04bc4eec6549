'use strict';
// A forced set over a run's life: looked up, recorded when dropped, persisted and rebuilt (adr/lifecycle.md).
const { compareCodePoints } = require('./text');
const { field, isDeleted } = require('./world');
const { readSuspendedUids } = require('./uids');

const ENABLED_FIELD = { snippets: 'active', skills: 'enabled' };

function recordByUid(records, uid) {
  return records.find((record) => record.uid === uid);
}

// C166.2, C175.1, C165.4: every undeleted record asked for, switched on or not, in the caller's
// order with duplicates; unknown uids are skipped and the hidden flag is ignored.
function lookupExisting(records, uids) {
  return uids.map((uid) => recordByUid(records, uid)).filter((record) => record !== undefined && !isDeleted(record));
}

// C166.1, C175.1: the same contract, switched-on records only.
function lookupEnabled(records, uids, kind) {
  return lookupExisting(records, uids).filter((record) => field(record, ENABLED_FIELD[kind], true));
}

// C165.6: before ADR-175 a resume filtered every skill by uid: each undeleted record once, in name order, by uid between equal names.
function lookupAllByName(skills, uids) {
  const wanted = new Set(uids);
  const byUid = (a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);
  return skills
    .filter((skill) => wanted.has(skill.uid) && !isDeleted(skill))
    .sort((a, b) => compareCodePoints(String(field(a, 'name', '')), String(field(b, 'name', ''))) || byUid(a, b));
}

// C175.2: a composition path (playground send, dequeue) looks snippets up enabled-only; skills too from
// ADR-175, before which a disabled forced skill still entered.
function resolveForComposition(world, requested, switches) {
  return {
    snippets: lookupEnabled(world.snippets, requested.snippets, 'snippets'),
    skills: switches.has('composition_skill_lookup')
      ? lookupEnabled(world.skills, requested.skills, 'skills')
      : lookupExisting(world.skills, requested.skills),
  };
}

// C164.7, C165.3, C166.3, C175.3: what a resume re-gates. Before ADR-165 nothing was persisted, so
// nothing is rebuilt; then snippets through the enabled lookup (ADR-165) or the existing one (ADR-166),
// skills by name (C165.6) until ADR-175 gives them the existing lookup in the caller's order.
function resolveOnResume(world, state, switches) {
  if (!switches.has('regates_on_resume')) return { snippets: [], skills: [] };
  const objectValues = switches.has('suspended_object_values');
  const snippetUids = readSuspendedUids(state, 'forced_snippet_uids', objectValues);
  const skillUids = readSuspendedUids(state, 'forced_skill_uids', objectValues);
  return {
    snippets: switches.has('resume_snippet_lookup')
      ? lookupExisting(world.snippets, snippetUids)
      : lookupEnabled(world.snippets, snippetUids, 'snippets'),
    skills: switches.has('resume_skill_lookup') ? lookupExisting(world.skills, skillUids) : lookupAllByName(world.skills, skillUids),
  };
}

// C165.5: with both rebuilt lists empty the resume hands the gate no forced set.
function takesConfigurationOnlyPath(forced) {
  return forced.snippets.length === 0 && forced.skills.length === 0;
}

// C179.1: every requested uid that did not arrive, skills first, request order within a kind, once per
// occurrence: deactivated when the record still exists, gone when it does not.
function droppedSources(world, requested, arrived) {
  const dropped = [];
  for (const [kind, list] of [['skill', 'skills'], ['snippet', 'snippets']]) {
    const arrivedUids = new Set(arrived[list].map((record) => record.uid));
    for (const uid of requested[list]) {
      if (arrivedUids.has(uid)) continue;
      const record = recordByUid(world[list], uid);
      dropped.push({ kind, uid, reason: record !== undefined && !isDeleted(record) ? 'deactivated' : 'gone' });
    }
  }
  return dropped;
}

// C165.1: from ADR-165 a suspend stores the uids the run runs with, in order, with duplicates;
// before it, nothing, like a legacy row.
function suspendedState(forced, switches) {
  if (!switches.has('regates_on_resume')) return {};
  return {
    forced_snippet_uids: forced.snippets.map((record) => record.uid),
    forced_skill_uids: forced.skills.map((record) => record.uid),
  };
}

module.exports = { resolveForComposition, resolveOnResume, takesConfigurationOnlyPath, droppedSources, suspendedState };
