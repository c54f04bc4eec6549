// The reference MCP gateway in TypeScript: the tool-call gateway rules (adr/gateway.md) behind MCP, decided by the
// Node.js implementation's code, stored in SQLite, driven by gateproof as conformance/MCP.md states.
//
//   node dist/server.js [--http] [--db PATH]
//
// Without --http it speaks MCP on stdin and stdout and exits when stdin ends; with --http it serves streamable HTTP
// on 127.0.0.1 at $GATEPROOF_MCP_PORT, path /mcp, until SIGTERM. Without --db the database is a temporary file,
// removed when the process ends.
import { readFileSync } from 'node:fs';
import { openDatabase } from './database.js';
import { Gateway } from './gateway.js';
import { serveHttp } from './http.js';
import { IdentityError, TokenVerifier, type Claims } from './identity.js';
import { createMcpServer, metaAuthenticator, rawMethods, Serial, type Authenticate } from './mcp_server.js';
import { RawRequests } from './raw_requests.js';
import { RawStdioTransport } from './stdio.js';

interface Options {
  http: boolean;
  db: string | undefined;
}

class UsageError extends Error {}

function readOptions(args: string[]): Options {
  const options: Options = { http: false, db: undefined };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--http') options.http = true;
    else if (arg === '--db' && index + 1 < args.length) options.db = args[(index += 1)];
    else if (arg.startsWith('--db=')) options.db = arg.slice('--db='.length);
    else throw new UsageError(`unknown argument ${JSON.stringify(arg)}; usage: node dist/server.js [--http] [--db PATH]`);
  }
  return options;
}

function readPort(environment: NodeJS.ProcessEnv): number {
  const text = environment.GATEPROOF_MCP_PORT ?? '';
  const port = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--http needs GATEPROOF_MCP_PORT, a port number (got ${JSON.stringify(text)})`);
  return port;
}

function packageVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

// Over HTTP the token was verified from the request's header before the SDK saw the request (http.ts).
const headerAuthenticator: Authenticate = async (_params, extra) => {
  const claims = extra.authInfo?.extra?.claims as Claims | undefined;
  if (claims === undefined) throw new IdentityError('no bearer token');
  return claims;
};

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const port = options.http ? readPort(process.env) : 0;
  const fixture = process.env.GATEPROOF_MCP_FIXTURE === '1';
  const verifier = TokenVerifier.fromEnvironment(process.env);
  const database = openDatabase(options.db);
  const gateway = new Gateway(database);
  const serial = new Serial();
  const version = packageVersion();
  const methods = rawMethods(fixture);
  let stopping = false;

  const stop = async (close: () => Promise<void>): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await close();
    await serial.idle();
    if (database.open) database.close();
    // Whatever the SDK or a client left open, the process is done.
    setTimeout(() => process.exit(0), 2000).unref();
  };

  if (options.http) {
    const served = await serveHttp({
      port,
      verifier,
      rawMethods: methods,
      connect: (raw) => createMcpServer({ gateway, fixture, version, raw, serial, authenticate: headerAuthenticator }),
    });
    process.stderr.write(`mcp-node: serving MCP on http://127.0.0.1:${served.port}/mcp\n`);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(() => served.close()));
    return;
  }

  const raw = new RawRequests(methods);
  const authenticate = metaAuthenticator(verifier);
  const server = createMcpServer({ gateway, fixture, version, raw, serial, authenticate });
  const transport = new RawStdioTransport(raw);
  server.onclose = () => void stop(async () => undefined);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(() => server.close()));
  await server.connect(transport);
}

main().catch((error: unknown) => {
  process.stderr.write(`mcp-node: ${error instanceof UsageError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});
