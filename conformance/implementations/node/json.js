'use strict';
// Reading and writing JSON the way the reference model's reader does.
//
// JSON.parse is not enough: the rules tell an integer from a float (a queued
// payload keeps integers only, so `1.0` is dropped where `1` is kept), and
// uids may exceed 2**53. Integers are read exactly at any size (a BigInt beyond
// the safe range), floats are wrapped in JsonFloat, and a float beyond the range
// of a double is refused. An object that writes a key twice keeps the last value,
// as JSON.parse would, and is marked with REPEATED, the keys written twice: the
// gateway refuses such a proposal (G001.17). Every object keeps its keys in the
// order first written under WRITTEN: JavaScript lists integer-like keys first,
// in numeric order, where a PHP array keeps the order written (writtenValues).
// A scenario nests at most 64 levels
// (S001.5) and a protocol message wraps one a level deeper: nesting past 66 is
// refused, so no document can exhaust the stack.
const { InvalidScenario } = require('./errors');

class JsonFloat {
  constructor(value) {
    this.value = value;
  }
}

const REPEATED = Symbol('keys written more than once');
const WRITTEN = Symbol('keys in the order first written');
const MAX_DEPTH = 66;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

function parse(text) {
  let at = 0;
  let depth = 0;

  function fail(what) {
    throw new InvalidScenario('$', `not valid JSON (${what} at character ${at})`);
  }

  function skipWhitespace() {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  }

  function literal(word, value) {
    if (text.startsWith(word, at)) {
      at += word.length;
      return value;
    }
    return fail('unexpected token');
  }

  function number() {
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(text);
    if (!match) fail('malformed number');
    at = NUMBER.lastIndex;
    const written = match[0];
    if (match[1] !== undefined || match[2] !== undefined) {
      const float = Number(written);
      if (!Number.isFinite(float)) fail('a number beyond the range of a double');
      return new JsonFloat(float);
    }
    const exact = BigInt(written);
    return Number.isSafeInteger(Number(exact)) ? Number(exact) : exact;
  }

  function string() {
    // JSON string syntax is a subset of what JSON.parse accepts for a string token.
    const start = at;
    at += 1;
    for (;;) {
      const c = text.charCodeAt(at);
      if (Number.isNaN(c)) fail('unterminated string');
      if (c === 0x22) break;
      if (c < 0x20) fail('control character in string');
      at += c === 0x5c ? 2 : 1;
    }
    at += 1;
    try {
      return JSON.parse(text.slice(start, at));
    } catch (error) {
      return fail('malformed string');
    }
  }

  // An array or an object: items separated by commas, up to the closing bracket.
  function container(close, readItem) {
    at += 1;
    depth += 1;
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    skipWhitespace();
    if (text[at] === close) {
      at += 1;
      depth -= 1;
      return;
    }
    for (;;) {
      readItem();
      skipWhitespace();
      if (text[at] === ',') at += 1;
      else if (text[at] === close) {
        at += 1;
        depth -= 1;
        return;
      } else fail(`expected , or ${close}`);
    }
  }

  function array() {
    const items = [];
    container(']', () => items.push(value()));
    return items;
  }

  function object() {
    const result = {};
    const repeated = [];
    const written = [];
    container('}', () => {
      skipWhitespace();
      if (text[at] !== '"') fail('expected a key');
      const key = string();
      skipWhitespace();
      if (text[at] !== ':') fail('expected :');
      at += 1;
      if (!Object.hasOwn(result, key)) written.push(key);
      else if (!repeated.includes(key)) repeated.push(key);
      // defineProperty, so that a key named __proto__ is data and not a prototype.
      Object.defineProperty(result, key, { value: value(), enumerable: true, writable: true, configurable: true });
    });
    if (repeated.length > 0) Object.defineProperty(result, REPEATED, { value: repeated, enumerable: false });
    Object.defineProperty(result, WRITTEN, { value: written, enumerable: false });
    return result;
  }

  function value() {
    skipWhitespace();
    const c = text[at];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    return number();
  }

  const document = value();
  skipWhitespace();
  if (at !== text.length) fail('trailing characters');
  return document;
}

// A float keeps a fraction or an exponent on the way out, so a reader can still tell it from an integer.
function floatText(value) {
  if (!Number.isFinite(value)) return 'null';
  const text = JSON.stringify(value);
  return /^-?[0-9]+$/.test(text) ? `${text}.0` : text;
}

function stringify(value) {
  if (value === null || value === undefined) return 'null';
  if (value instanceof JsonFloat) return floatText(value.value);
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(stringify).join(',')}]`;
  if (typeof value === 'object') {
    return `{${Object.keys(value).map((key) => `${JSON.stringify(key)}:${stringify(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// Whether the value, or any object or array within it, holds an object whose text wrote a key twice.
function repeatsAKey(value) {
  if (value === null || typeof value !== 'object' || value instanceof JsonFloat) return false;
  if (Object.hasOwn(value, REPEATED)) return true;
  return Object.values(value).some(repeatsAKey);
}

// An object's values in the order its keys were first written, as a PHP array holds them (a key written again keeps its place).
function writtenValues(object) {
  return (object[WRITTEN] ?? Object.keys(object)).map((key) => object[key]);
}

module.exports = { JsonFloat, REPEATED, parse, repeatsAKey, stringify, writtenValues };
