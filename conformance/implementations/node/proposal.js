'use strict';
// The shape of a proposed call (G001.1 to G001.5, G001.17) and the canonical form of its arguments (G002.7). Shape checks
// read nothing but the proposal, so a malformed one can neither probe storage nor smuggle authority in.
const { compareCodePoints } = require('./text');
const { isObject, length } = require('./gateway_read');
const { repeatsAKey, JsonFloat } = require('./json');
const { numeric } = require('./catalog');

// G001.1: a name the catalog does not declare, or one that is not a string at all.
function isKnownTool(catalog, tool) {
  return typeof tool === 'string' && catalog.tools.has(tool);
}

// G001.2: arrays, strings, numbers, booleans and null are not an object of arguments.
const isArgumentObject = isObject;

// G001.5: a value of the argument's declared type within its bounds; nothing is coerced. A text is measured in code
// points, as JSON counts them; an integer is a number without a fractional part (2.0 is one); a boolean is no number.
function isDeclaredValue(argument, value) {
  if (argument.text) return typeof value === 'string' && length(value) >= argument.least && length(value) <= argument.most;
  const number = numeric(value);
  if (number === undefined || (argument.type === 'integer' && !Number.isInteger(Number(number)))) return false;
  return (argument.least === undefined || number >= argument.least) && (argument.most === undefined || number <= argument.most);
}

const refusal = (reason, rule) => ({ reason, rule });

// G001.13: the shape checks in the documented order; the first that fails is the refusal, null when none does.
// G001.3 before G001.4: a proposal that adds approved_by and drops destination_id is reported as the forgery it is.
function shapeRefusal(catalog, tool, args) {
  if (!isKnownTool(catalog, tool)) return refusal('unknown_tool', 'G001.1');
  if (!isArgumentObject(args)) return refusal('malformed_input', 'G001.2');
  // G001.17: a key written twice, here or in an object nested in the arguments: which value a tool reads is a guess.
  if (repeatsAKey(args)) return refusal('malformed_input', 'G001.17');
  const specs = catalog.tools.get(tool).arguments;
  const declared = specs.map((argument) => argument.name);
  if (Object.keys(args).some((name) => !declared.includes(name))) return refusal('extra_arguments', 'G001.3');
  if (specs.some((argument) => argument.required && !Object.hasOwn(args, argument.name))) return refusal('missing_argument', 'G001.4');
  if (specs.some((argument) => Object.hasOwn(args, argument.name) && !isDeclaredValue(argument, args[argument.name]))) return refusal('malformed_input', 'G001.5');
  return null;
}

// G002.7: keys sorted by code point, no insignificant whitespace, characters kept as they are, a number as ECMAScript
// writes it (600.0 is 600). A call is compared only once its shape passed; an approval's arguments may be anything.
// An integer beyond 2^53 is kept exactly as a BigInt; a float written with one is read as the nearest double.
function canonicalText(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  if (isArgumentObject(value)) {
    const keys = Object.keys(value).sort(compareCodePoints);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalText(value[key])}`).join(',')}}`;
  }
  if (value instanceof JsonFloat) return JSON.stringify(value.value);
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value); // a string, a boolean, null or a number
}

module.exports = { isKnownTool, isArgumentObject, shapeRefusal, canonicalText };
