'use strict';
// The conformance protocol, version 1 (conformance/PROTOCOL.md): commands in, replies out, one JSON line each.
const { decide, SUPPORTED } = require('./scenario');
const { parse, stringify } = require('./json');
const { UnsupportedScenario } = require('./errors');

const PROTOCOL = 1;
const DEFAULT_RULES = { ceiling: 'adr-179', gateway: 'lab-001' };

const STARTED = {
  started: {
    protocol: PROTOCOL,
    name: 'node',
    version: '0.1.0',
    language: 'javascript',
    homepage: '', // shipped inside gateproof; no site of its own
    rules: SUPPORTED.versions,
    kinds: SUPPORTED.kinds,
  },
};

// Why a scenario is not decided here, or null: the harness sends the whole corpus, every kind and version.
function skipReason(scenario) {
  const kind = scenario.kind ?? 'ceiling';
  const rules = scenario.rules ?? DEFAULT_RULES[kind];
  if (!SUPPORTED.kinds.includes(kind)) return `${kind} scenarios are not implemented; only ${SUPPORTED.kinds.join(', ')}`;
  if (!SUPPORTED.byKind[kind].includes(rules)) return `${kind} rule version ${rules} is not implemented`;
  return null;
}

function answerRun(seq, scenario) {
  const reason = skipReason(scenario);
  if (reason !== null) return { seq, skipped: { message: reason } };
  try {
    return { seq, outcome: decide(scenario) };
  } catch (error) {
    if (error instanceof UnsupportedScenario) return { seq, skipped: { message: error.message } };
    const message = error instanceof Error ? error.message : String(error);
    return { seq, errored: { message, context: { stack: error instanceof Error ? String(error.stack) : '' } } };
  }
}

// The reply line to one command line; null when the command is stop. A line that is not a command ends the process:
// the harness treats a broken stream as lost either way, and a message on stderr says why.
function replyTo(line) {
  const command = parse(line);
  if (command === null || typeof command !== 'object') throw new Error('a command is a JSON object');
  if (command.cmd === 'stop') return null;
  if (command.cmd === 'start') {
    if (command.version !== PROTOCOL) throw new Error(`speaks protocol ${PROTOCOL}, asked for ${command.version}`);
    return STARTED;
  }
  if (command.cmd === 'run' && typeof command.scenario === 'object' && command.scenario !== null) {
    return answerRun(command.seq, command.scenario);
  }
  throw new Error(`not a command: ${line.slice(0, 80)}`);
}

// Lines are answered as they come; replies to one chunk of input are written together, so pipelined runs
// are flushed in batches and a harness waiting for one reply gets it at once.
function serve(input, output) {
  let pending = '';
  input.setEncoding('utf8');
  input.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    const replies = [];
    for (const line of lines) {
      if (line.trim() === '') continue;
      let reply;
      try {
        reply = replyTo(line);
      } catch (error) {
        output.write(replies.join(''));
        process.stderr.write(`gateproof-node: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(2);
      }
      if (reply === null) {
        output.write(replies.join(''), () => process.exit(0));
        return;
      }
      replies.push(`${stringify(reply)}\n`);
    }
    if (replies.length > 0) output.write(replies.join(''));
  });
  input.on('end', () => process.exit(0));
}

module.exports = { serve };
