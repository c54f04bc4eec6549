'use strict';
// How each path reads the forced uids it is handed: every path has its own rule.
const { JsonFloat, writtenValues } = require('./json');
const { numericStringValue, truncatedFloat, saturated } = require('./text');

function isInteger(value) {
  return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
}

// Uids beyond 2**53 stay BigInt; they can name no stored record but are still reported.
function asUid(value) {
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : BigInt(value);
}

function isPositive(value) {
  return BigInt(value) > 0n;
}

// C164.6: the playground keeps every numeric entry whose integer value is above 0, cast to an integer.
// Under nr-llm a number beyond the 64-bit range is the float json_decode makes of it, and (int) wraps it.
function readRequestUids(field, wrap = false) {
  if (!Array.isArray(field)) return [];
  return field.map((entry) => requestUidValue(entry, wrap)).filter((value) => value !== null && value > 0n).map(asUid);
}

function requestUidValue(entry, wrap) {
  if (isInteger(entry)) {
    const exact = BigInt(entry);
    return wrap && saturated(exact) !== exact ? wrappedFloat(Number(exact)) : saturated(exact);
  }
  if (entry instanceof JsonFloat) return wrap && !(Math.abs(entry.value) < 2 ** 63) ? wrappedFloat(entry.value) : truncatedFloat(entry.value);
  if (typeof entry === 'string') return wrap && isInfiniteFloatString(entry) ? 0n : numericStringValue(entry);
  return null; // booleans, null, lists and objects are not numeric
}

// C175.4: a dequeued payload keeps positive integers only; a digit string or a float is dropped.
function readQueuedUids(field) {
  if (!Array.isArray(field)) return [];
  return field.filter((entry) => isInteger(entry) && isPositive(entry)).map(asUid);
}

// Under nr-llm PHP's (int) of a numeric string whose float is infinite ("1e400") is 0; an integer string saturates.
function isInfiniteFloatString(text) {
  return numericStringValue(text) !== null && !/^[ \t\n\r\x0B\f]*[+-]?[0-9]+[ \t\n\r\x0B\f]*$/.test(text)
    && !Number.isFinite(Number(text.replace(/[ \t\n\r\x0B\f]/g, '')));
}

// PHP 8's (int) of a float beyond 64 bits: its integer value modulo 2**64, signed; an infinite one is 0.
function wrappedFloat(value) {
  if (!Number.isFinite(value)) return 0n;
  return BigInt.asIntN(64, BigInt(value));
}

// C165.2: a stored suspended state keeps positive integers and strings of ASCII digits above zero;
// under nr-llm a list written as an object is read by its values, as a PHP array.
function readSuspendedUids(state, key, objectValues = false) {
  const stored = Object.hasOwn(state, key) ? state[key] : [];
  const field = objectValues && stored !== null && typeof stored === 'object' && !Array.isArray(stored) && !(stored instanceof JsonFloat)
    ? writtenValues(stored) : stored;
  if (!Array.isArray(field)) return [];
  return field.filter(isSuspendedUid).map((entry) => asUid(BigInt(entry)));
}

function isSuspendedUid(entry) {
  if (isInteger(entry)) return isPositive(entry);
  return typeof entry === 'string' && /^[0-9]+$/.test(entry) && isPositive(entry);
}

// Under nr-llm (queued_numbers_decoded) the payload is decoded by json_decode, which makes an integer past
// 2**63 - 1 a float: the queue's reading then drops it, unrecorded (C175.4).
function decodedPayload(field) {
  if (!Array.isArray(field)) return field;
  return field.map((entry) => (isInteger(entry) && BigInt(entry) > 2n ** 63n - 1n ? new JsonFloat(Number(entry)) : entry));
}

module.exports = { readRequestUids, readQueuedUids, readSuspendedUids, decodedPayload, isInteger };
