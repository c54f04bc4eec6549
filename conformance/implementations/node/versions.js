'use strict';
// The rule versions: each is its predecessor with the switches its ADR turned on (adr/versions.md).
const { UnsupportedScenario } = require('./errors');

// C144.15: every ADR version audits the caller's user uid.
const PRE_164 = ['audits_caller_user'];
const ADR_164 = [...PRE_164, 'gates_forced_sources'];
const ADR_165 = [...ADR_164, 'regates_on_resume'];
const ADR_166 = [...ADR_165, 'resume_snippet_lookup'];
const ADR_175 = [...ADR_166, 'composition_skill_lookup', 'resume_skill_lookup'];
const ADR_179 = [...ADR_175, 'records_dropped', 'playground_records_dropped'];

const VERSIONS = {
  'pre-164': PRE_164,
  'adr-164': ADR_164,
  'adr-165': ADR_165,
  'adr-166': ADR_166,
  'adr-175': ADR_175,
  'adr-179': ADR_179,
  // The code as it stands (adr/versions.md): the playground send records no dropped sources, the audit
  // records user 0, a skill related twice is listed once, a playground number beyond 64 bits wraps, and
  // a stored uid list written as an object is read by its values, and a queued integer past 2**63 - 1 is a float
  // after json_decode, which the queue drops unrecorded; a run row naming a negative user fails its dequeue.
  'nr-llm': [
    ...ADR_179.filter((name) => name !== 'playground_records_dropped' && name !== 'audits_caller_user'),
    'attached_skills_once', 'request_numbers_wrap', 'suspended_object_values',
    'queued_numbers_decoded', 'negative_user_fails_dequeue',
  ],
};

const DEFAULT_VERSION = 'adr-179';

// The switches in force, as a set; a version this implementation does not know is skipped, not guessed.
function switchesOf(version) {
  if (!Object.hasOwn(VERSIONS, version)) throw new UnsupportedScenario(`rule version ${JSON.stringify(version)} is not supported`);
  return new Set(VERSIONS[version]);
}

module.exports = { VERSIONS, DEFAULT_VERSION, switchesOf };
