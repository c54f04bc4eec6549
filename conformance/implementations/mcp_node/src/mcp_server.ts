// The MCP face of the gateway: the low-level SDK Server, with the two tools, a tools/call handler that hands every
// proposal to the gateway unjudged by the SDK, and in test mode the fixture hooks (conformance/MCP.md).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Gateway, UnknownSession, type CallOutcome, type Proposal } from './gateway.js';
import { AUTHORIZATION_META, bearerToken, IdentityError, requireFixture, toolSession, type Claims, type TokenVerifier } from './identity.js';
import { GATEWAY_VERSIONS, LAB_CATALOG, isInvalidInput, json, type ArgumentSpec } from './reference.js';
import type { RawParams, RawRequests } from './raw_requests.js';

export const FIXTURE_EXTENSION = 'io.gateproof/fixture';
// Where the host's client puts the idempotency key of the action a call is (G002.2): like the token, it is the
// host's, never the model's, so it travels beside the arguments and not among them.
export const IDEMPOTENCY_META = 'io.gateproof/idempotency-key';

export const FIXTURE_METHODS = {
  describe: 'gateproof/fixture/describe',
  load: 'gateproof/fixture/load',
  change: 'gateproof/fixture/change',
  beforeWrite: 'gateproof/fixture/before_write',
  records: 'gateproof/fixture/records',
} as const;

// The methods whose handlers read their params as written (raw_requests.ts).
export function rawMethods(fixture: boolean): Set<string> {
  return new Set(['tools/call', ...(fixture ? Object.values(FIXTURE_METHODS) : [])]);
}

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

// Who made a request, from what the transport carries: over HTTP the Authorization header (checked before the SDK
// saw the request), over stdio the request's own params._meta.
export type Authenticate = (params: Record<string, unknown>, extra: Extra) => Promise<Claims>;

// One request at a time: calls and hooks are decided in the order they arrived, whichever connection carried them,
// even when verifying one token takes longer than another.
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  // Resolves once every task queued so far has finished.
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}

// A JSON-RPC error as the SDK sends a thrown error: its code, its message as written, and data.
class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

// MCP.md: a token that fails, or names no session the store holds, authorizes nothing and changes nothing.
const UNAUTHORIZED = -32001;

function asRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof IdentityError || error instanceof UnknownSession) return new RpcError(UNAUTHORIZED, error.message, { error: 'unauthorized' });
  if (isInvalidInput(error)) return new RpcError(ErrorCode.InvalidParams, error.message);
  return new RpcError(ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The params of a request as its text wrote them.
function writtenParams(raw: RawParams | undefined): Record<string, unknown> {
  if (raw === undefined) throw new RpcError(ErrorCode.InternalError, 'the text of this request was not kept');
  if ('unreadable' in raw) throw new RpcError(ErrorCode.ParseError, raw.unreadable);
  return isPlainObject(raw.params) ? raw.params : {};
}

function idempotencyKey(params: Record<string, unknown>): string | undefined {
  const meta = params._meta;
  if (!isPlainObject(meta) || !Object.hasOwn(meta, IDEMPOTENCY_META)) return undefined;
  const key = meta[IDEMPOTENCY_META];
  if (typeof key !== 'string' || key.length === 0) throw new RpcError(ErrorCode.InvalidParams, `_meta["${IDEMPOTENCY_META}"] must be a non-empty string`);
  return key;
}

// The proposal exactly as the model wrote it. MCP lets a call leave its arguments out: that is a call with none.
function proposalOf(params: Record<string, unknown>): Proposal {
  return { tool: params.name, arguments: Object.hasOwn(params, 'arguments') ? params.arguments : {} };
}

const text = (words: string): CallToolResult['content'] => [{ type: 'text', text: words }];

// A refusal carries the reason the caller may be told (G001.10: never tenant_mismatch); an allowed read serves the
// case; an allowed export says where it went.
function toolResult(outcome: CallOutcome, proposal: Proposal): CallToolResult {
  if (outcome.decision === 'deny') {
    return { isError: true, content: text(`refused: ${outcome.callerReason}`), structuredContent: { reason: outcome.callerReason } };
  }
  if (outcome.served !== null) return { content: text(outcome.served.content), structuredContent: { ...outcome.served } };
  const args = proposal.arguments as Record<string, string>;
  const exported = { case_id: args.case_id, destination_id: args.destination_id, replayed: outcome.replayed };
  const words = outcome.replayed
    ? `${exported.case_id} was already exported to ${exported.destination_id} under this idempotency key`
    : `exported ${exported.case_id} to ${exported.destination_id}`;
  return { content: text(words), structuredContent: exported };
}

const DESCRIPTIONS: Record<string, string> = {
  export_case: 'Export a support case, as stored, to a configured destination.',
  read_case: 'Read a support case.',
};

// G001.5: each tool of the lab's catalog with its declared arguments. The schemas tell a client what to send; the
// gateway, not the SDK, judges what it is sent.
function tools(): Tool[] {
  return [...LAB_CATALOG.tools.values()].map((spec) => ({
    name: spec.name,
    description: DESCRIPTIONS[spec.name],
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(spec.arguments.map((declared) => [declared.name, argumentSchema(declared)])),
      required: spec.arguments.filter((declared) => declared.required).map((declared) => declared.name),
      additionalProperties: false,
    },
  }));
}

// A text argument's type and lengths (code points, as JSON Schema counts them); the lab's tools declare no other kind.
function argumentSchema(declared: ArgumentSpec): { type: 'string'; minLength: number; maxLength: number } {
  if (!declared.text) throw new Error(`the lab's catalog declares no ${declared.type} argument`);
  return { type: 'string', minLength: Number(declared.least), maxLength: Number(declared.most) };
}

export interface McpServerOptions {
  gateway: Gateway;
  fixture: boolean;
  version: string;
  raw: RawRequests;
  serial: Serial;
  authenticate: Authenticate;
}

export function createMcpServer(options: McpServerOptions): Server {
  const { gateway, fixture, raw, serial, authenticate } = options;
  const capabilities = { tools: {}, ...(fixture ? { extensions: { [FIXTURE_EXTENSION]: {} } } : {}) };
  const server = new Server({ name: 'gateproof-mcp-node', version: options.version }, { capabilities });

  // Runs one request in turn, with its params as written; its errors leave as JSON-RPC errors.
  const serve = <T>(extra: Extra, task: (params: Record<string, unknown>) => Promise<T>): Promise<T> => {
    const written = raw.take(extra.requestId); // taken now, before any other request can reuse the id
    return serial.run(() => task(writtenParams(written))).catch((error: unknown) => {
      throw asRpcError(error);
    });
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools() }));

  server.setRequestHandler(CallToolRequestSchema, (_request, extra) => serve(extra, async (params) => {
    const sessionId = toolSession(await authenticate(params, extra));
    const proposal = proposalOf(params);
    return toolResult(gateway.call(proposal, sessionId, idempotencyKey(params)), proposal);
  }));

  // Without GATEPROOF_MCP_FIXTURE=1 the hooks are never registered, so the SDK answers them -32601.
  if (!fixture) return server;
  const hook = (method: string, run: (params: Record<string, unknown>) => Record<string, unknown>): void => {
    const schema = z.object({ method: z.literal(method), params: z.unknown().optional() });
    server.setRequestHandler(schema, (_request, extra) => serve(extra, async (params) => {
      requireFixture(await authenticate(params, extra));
      return run(params);
    }));
  };
  hook(FIXTURE_METHODS.describe, () => ({
    name: 'mcp-node', version: options.version, language: 'typescript', homepage: '', rules: [...GATEWAY_VERSIONS], shows: ['rule'],
  }));
  hook(FIXTURE_METHODS.load, (params) => {
    gateway.load(params.scenario, params.rules, params.world);
    return {};
  });
  hook(FIXTURE_METHODS.change, (params) => {
    gateway.change(params.change);
    return {};
  });
  hook(FIXTURE_METHODS.beforeWrite, (params) => {
    gateway.beforeWrite(params.changes);
    return {};
  });
  hook(FIXTURE_METHODS.records, () => ({ ...gateway.records() }));
  return server;
}

// Over stdio each request carries its token in params._meta; metadata that writes a key twice names no one token.
export function metaAuthenticator(verifier: TokenVerifier): Authenticate {
  return async (params) => {
    const meta = params._meta;
    if (json.repeatsAKey(meta)) throw new IdentityError('the request metadata writes a key twice');
    return verifier.verify(bearerToken(isPlainObject(meta) ? meta[AUTHORIZATION_META] : undefined));
  };
}
