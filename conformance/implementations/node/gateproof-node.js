#!/usr/bin/env node
'use strict';
// gateproof-node: the trust-ceiling rules and the forced-source lifecycle, decided independently of the model.
//
//   node gateproof-node.js           the conformance protocol on stdin and stdout (conformance/PROTOCOL.md)
//   node gateproof-node.js --jsonl   one scenario per line on stdin, one outcome per line on stdout
const readline = require('node:readline');
const { decide } = require('./scenario');
const { parse, stringify } = require('./json');
const { UnsupportedScenario } = require('./errors');
const { serve } = require('./protocol');

function scenarioId(document) {
  return typeof document === 'object' && document !== null && typeof document.id === 'string' ? document.id : null;
}

// One line in, one line out: an unsupported scenario is skipped, anything else that stops it is errored.
function answerLine(line) {
  let document;
  try {
    document = parse(line);
    return decide(document);
  } catch (error) {
    const answer = { gateproof: 1, scenario: scenarioId(document) };
    if (error instanceof UnsupportedScenario) return { ...answer, skipped: error.message };
    return { ...answer, errored: error instanceof Error ? error.message : String(error) };
  }
}

function jsonl() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (line.trim() !== '') process.stdout.write(`${stringify(answerLine(line))}\n`);
  });
}

if (process.argv.includes('--jsonl')) {
  jsonl();
} else {
  serve(process.stdin, process.stdout);
}
