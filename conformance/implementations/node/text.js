'use strict';
// The string rules of the PHP code the rules come from, stated once.

// PHP's trim() strips exactly these six characters, nothing Unicode calls a space.
const TRIMMED = ' \t\n\r\0\x0B';

function phpTrim(text) {
  let start = 0;
  let end = text.length;
  while (start < end && TRIMMED.includes(text[start])) start += 1;
  while (end > start && TRIMMED.includes(text[end - 1])) end -= 1;
  return text.slice(start, end);
}

// strtolower() since PHP 8.2 lowers A-Z only, whatever the locale.
function asciiLower(text) {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

// Python and PHP order strings by code point; JavaScript's < orders UTF-16
// units, which differs once a character lies beyond the Basic Multilingual Plane.
function compareCodePoints(a, b) {
  const left = Array.from(a);
  const right = Array.from(b);
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i += 1) {
    const difference = left[i].codePointAt(0) - right[i].codePointAt(0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

// is_numeric(): optional leading and (since PHP 8) trailing whitespace of
// " \t\n\r\v\f", a sign, ASCII digits with an optional fraction and exponent.
const NUMERIC_STRING = /^[ \t\n\r\x0B\f]*([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\x0B\f]*$/;
const INTEGER_STRING = /^[ \t\n\r\x0B\f]*[+-]?[0-9]+[ \t\n\r\x0B\f]*$/;

// The integer value PHP's (int) cast gives a numeric string: an integer
// string exactly, anything else through a float truncated toward zero; both
// saturate at the 64-bit bounds. Returns a BigInt, or null when not numeric.
function numericStringValue(text) {
  if (!NUMERIC_STRING.test(text)) return null;
  if (INTEGER_STRING.test(text)) return saturated(BigInt(text.replace(/[ \t\n\r\x0B\f]/g, '')));
  return truncatedFloat(Number(text.replace(/[ \t\n\r\x0B\f]/g, '')));
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

function truncatedFloat(value) {
  if (Number.isNaN(value)) return 0n;
  if (value >= 2 ** 63) return INT64_MAX;
  if (value < -(2 ** 63)) return INT64_MIN;
  return BigInt(Math.trunc(value));
}

function saturated(value) {
  if (value > INT64_MAX) return INT64_MAX;
  if (value < INT64_MIN) return INT64_MIN;
  return value;
}

module.exports = { phpTrim, asciiLower, compareCodePoints, numericStringValue, truncatedFloat, saturated };
