'use strict';
// Reading and writing JSON the way the reference model's reader does.
//
// JSON.parse is not enough: the rules tell an integer from a float (a queued
// payload keeps integers only, so `1.0` is dropped where `1` is kept), and
// uids may exceed 2**53. Integers are read exactly (a BigInt beyond the safe
// range), floats are wrapped in JsonFloat, and an integer literal outside the
// 64-bit range is read as a float, as the model's reader does.
const { InvalidScenario } = require('./errors');

class JsonFloat {
  constructor(value) {
    this.value = value;
  }
}

const INT_MIN = -(2n ** 63n);
const UINT_MAX = 2n ** 64n - 1n;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

function parse(text) {
  let at = 0;

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
    if (match[1] !== undefined || match[2] !== undefined) return new JsonFloat(Number(written));
    const exact = BigInt(written);
    if (exact < INT_MIN || exact > UINT_MAX) return new JsonFloat(Number(written));
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
    skipWhitespace();
    if (text[at] === close) {
      at += 1;
      return;
    }
    for (;;) {
      readItem();
      skipWhitespace();
      if (text[at] === ',') at += 1;
      else if (text[at] === close) {
        at += 1;
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
    container('}', () => {
      skipWhitespace();
      if (text[at] !== '"') fail('expected a key');
      const key = string();
      skipWhitespace();
      if (text[at] !== ':') fail('expected :');
      at += 1;
      // defineProperty, so that a key named __proto__ is data and not a prototype.
      Object.defineProperty(result, key, { value: value(), enumerable: true, writable: true, configurable: true });
    });
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

module.exports = { JsonFloat, parse, stringify };
