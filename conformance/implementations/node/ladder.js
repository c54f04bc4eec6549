'use strict';
// Data classes, trust zones and the enforcement switch (ADR-094, ADR-113, ADR-115).
const { phpTrim, asciiLower } = require('./text');

// C094.1: six classes, ranked 0 to 5 by their place here.
const CLASSES = ['publicContent', 'editorContent', 'sourceCode', 'internalConfiguration', 'systemDiagnostics', 'secretAdjacent'];

// C094.3: four zones, ranked by trust, 0 the most trusted.
const ZONES = ['local', 'privateHosted', 'externalEu', 'externalGlobal'];
const STRICTEST_ZONE = 'externalGlobal';

// C094.4: the ceiling of each zone.
const CEILINGS = {
  local: 'secretAdjacent',
  privateHosted: 'systemDiagnostics',
  externalEu: 'internalConfiguration',
  externalGlobal: 'editorContent',
};

function classRank(dataClass) {
  return CLASSES.indexOf(dataClass);
}

// C094.2: only the exact string of a class declares it; anything else is undeclared (null), never coerced.
function parseDataClass(stored) {
  return typeof stored === 'string' && CLASSES.includes(stored) ? stored : null;
}

// C094.7: a stored zone that is not exactly one of the four reads as the strictest, so it can never widen the gate.
function parseZone(stored) {
  return typeof stored === 'string' && ZONES.includes(stored) ? stored : STRICTEST_ZONE;
}

// C094.4
function ceilingOf(zone) {
  return CEILINGS[zone];
}

// C094.1, C094.5: a zone permits a class at most its ceiling.
function zonePermits(zone, dataClass) {
  return classRank(dataClass) <= classRank(ceilingOf(zone));
}

// C094.6: the higher trust rank is the less trusted; on a tie the first is kept.
function lessTrusted(first, second) {
  return ZONES.indexOf(second) > ZONES.indexOf(first) ? second : first;
}

// C113.1, C115.1: only a string reading `observe` after trim and ASCII lowercasing observes;
// every other value, and a switch never stored (undefined), enforces.
function isEnforcing(stored) {
  return !(typeof stored === 'string' && asciiLower(phpTrim(stored)) === 'observe');
}

module.exports = { STRICTEST_ZONE, classRank, parseDataClass, parseZone, ceilingOf, zonePermits, lessTrusted, isEnforcing };
