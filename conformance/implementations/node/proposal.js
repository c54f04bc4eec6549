'use strict';
// The shape of a proposed call (G001.1 to G001.5, G001.17) and the canonical form of its arguments (G002.7). Shape checks
// read nothing but the proposal, so a malformed one can neither probe storage nor smuggle authority in.
const { compareCodePoints } = require('./text');
const { isObject, length } = require('./gateway_read');
const { repeatsAKey, stringify } = require('./json');

// The gateway's own catalogue: each tool and the arguments it declares.
const CATALOGUE = {
  export_case: ['case_id', 'destination_id'],
  read_case: ['case_id'],
};

// G001.1: a name the catalogue does not hold, or one that is not a string at all.
function isKnownTool(tool) {
  return typeof tool === 'string' && Object.hasOwn(CATALOGUE, tool);
}

// G001.2: arrays, strings, numbers, booleans and null are not an object of arguments.
const isArgumentObject = isObject;

// G001.5: a string of 1 to 128 characters; nothing is coerced. Characters are code points, as JSON counts them.
function isIdentifier(value) {
  return typeof value === 'string' && length(value) >= 1 && length(value) <= 128;
}

const refusal = (reason, rule) => ({ reason, rule });

// G001.13: the shape checks in the documented order; the first that fails is the refusal, null when none does.
// G001.3 before G001.4: a proposal that adds approved_by and drops destination_id is reported as the forgery it is.
function shapeRefusal(tool, args) {
  if (!isKnownTool(tool)) return refusal('unknown_tool', 'G001.1');
  if (!isArgumentObject(args)) return refusal('malformed_input', 'G001.2');
  // G001.17: a key written twice, here or in an object nested in the arguments: which value a tool reads is a guess.
  if (repeatsAKey(args)) return refusal('malformed_input', 'G001.17');
  const declared = CATALOGUE[tool];
  if (Object.keys(args).some((name) => !declared.includes(name))) return refusal('extra_arguments', 'G001.3');
  if (declared.some((name) => !Object.hasOwn(args, name))) return refusal('missing_argument', 'G001.4');
  if (declared.some((name) => !isIdentifier(args[name]))) return refusal('malformed_input', 'G001.5');
  return null;
}

// G002.7: keys sorted by code point, no insignificant whitespace, characters kept as they are. Only a call that
// passed its shape checks is compared, so its values are strings; an approval's may be anything and then never match.
function canonicalText(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (isArgumentObject(value)) {
    const keys = Object.keys(value).sort(compareCodePoints);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalText(value[key])}`).join(',')}}`;
  }
  return stringify(value); // a scalar; a float keeps its fraction, so 1.0 stays apart from 1
}

module.exports = { CATALOGUE, isKnownTool, isArgumentObject, shapeRefusal, canonicalText };
