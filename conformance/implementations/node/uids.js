'use strict';
// How each path reads the forced uids it is handed: every path has its own rule.
const { JsonFloat } = require('./json');
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
function readRequestUids(field) {
  if (!Array.isArray(field)) return [];
  return field.map(requestUidValue).filter((value) => value !== null && value > 0n).map(asUid);
}

function requestUidValue(entry) {
  if (isInteger(entry)) return saturated(BigInt(entry));
  if (entry instanceof JsonFloat) return truncatedFloat(entry.value);
  if (typeof entry === 'string') return numericStringValue(entry);
  return null; // booleans, null, lists and objects are not numeric
}

// C175.4: a dequeued payload keeps positive integers only; a digit string or a float is dropped.
function readQueuedUids(field) {
  if (!Array.isArray(field)) return [];
  return field.filter((entry) => isInteger(entry) && isPositive(entry)).map(asUid);
}

// C165.2: a stored suspended state keeps positive integers and strings of ASCII digits above zero.
function readSuspendedUids(state, key) {
  const field = Object.hasOwn(state, key) ? state[key] : [];
  if (!Array.isArray(field)) return [];
  return field.filter(isSuspendedUid).map((entry) => asUid(BigInt(entry)));
}

function isSuspendedUid(entry) {
  if (isInteger(entry)) return isPositive(entry);
  return typeof entry === 'string' && /^[0-9]+$/.test(entry) && isPositive(entry);
}

module.exports = { readRequestUids, readQueuedUids, readSuspendedUids, isInteger };
