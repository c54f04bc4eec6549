// MCP over streamable HTTP on 127.0.0.1, path /mcp, one stateful MCP session per client connection. Every request
// is authorized by its Authorization header before the SDK sees it (MCP's authorization specification): a bad or
// absent token is answered 401 and reaches nothing. The body of a POST is read here, as text, so the gateway sees
// what it wrote (raw_requests.ts), and handed to the SDK's transport already parsed.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { bearerToken, IdentityError, type Claims, type TokenVerifier } from './identity.js';
import { RawRequests } from './raw_requests.js';

export const MCP_PATH = '/mcp';
// A scenario document holds at most 16 MiB (S001.4); a load carries its world in a message a little larger.
const MAX_BODY_BYTES = 32 * 1024 * 1024;

// One MCP session: its SDK server and transport, and the text of its requests.
interface Connection {
  server: Server;
  transport: StreamableHTTPServerTransport;
  raw: RawRequests;
}

export interface HttpOptions {
  port: number;
  verifier: TokenVerifier;
  // A new MCP server for a new session, reading its requests' text from `raw`.
  connect(raw: RawRequests): Server;
  rawMethods: ReadonlySet<string>;
}

export interface HttpGateway {
  port: number;
  close(): Promise<void>;
}

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge(`the body is larger than ${MAX_BODY_BYTES} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function answer(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

export async function serveHttp(options: HttpOptions): Promise<HttpGateway> {
  const connections = new Map<string, Connection>();

  async function authorize(request: IncomingMessage, response: ServerResponse): Promise<AuthInfo | undefined> {
    const token = bearerToken(request.headers.authorization);
    let claims: Claims;
    try {
      claims = await options.verifier.verify(token);
    } catch (error) {
      if (!(error instanceof IdentityError)) throw error;
      answer(response, 401, { error: 'invalid_token', error_description: error.message },
        { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
      return undefined;
    }
    return { token: token as string, clientId: claims.subject, scopes: claims.scopes, extra: { claims } };
  }

  async function open(): Promise<Connection> {
    const raw = new RawRequests(options.rawMethods);
    const server = options.connect(raw);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers: the gateway never streams, and a client reads a refusal from one body.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        connections.set(id, connection);
      },
    });
    const connection: Connection = { server, transport, raw };
    transport.onclose = () => {
      if (transport.sessionId !== undefined) connections.delete(transport.sessionId);
    };
    await server.connect(transport);
    return connection;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== MCP_PATH) {
      answer(response, 404, { error: 'not_found' });
      return;
    }
    const auth = await authorize(request, response);
    if (auth === undefined) return;
    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    let connection = sessionId === undefined ? undefined : connections.get(sessionId);
    if (sessionId !== undefined && connection === undefined) {
      answer(response, 404, rpcError(-32001, 'Session not found'));
      return;
    }
    const authorized = Object.assign(request, { auth });
    if (request.method !== 'POST') {
      if (connection === undefined) {
        answer(response, 400, rpcError(-32000, 'Bad Request: no session'));
        return;
      }
      await connection.transport.handleRequest(authorized, response);
      return;
    }
    const text = await readBody(request);
    if (connection === undefined) {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        answer(response, 400, rpcError(-32700, 'Parse error: Invalid JSON'));
        return;
      }
      if (!isInitializeRequest(message)) {
        answer(response, 400, rpcError(-32000, 'Bad Request: no session, and not an initialize request'));
        return;
      }
      connection = await open();
    }
    const admitted = connection.raw.admit(text);
    if (admitted === undefined) {
      answer(response, 400, rpcError(-32700, 'Parse error: Invalid JSON'));
      return;
    }
    await connection.transport.handleRequest(authorized, response, admitted);
  }

  const http: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof BodyTooLarge) {
        if (!response.headersSent) answer(response, 413, rpcError(-32000, error.message));
        return;
      }
      process.stderr.write(`mcp-node: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!response.headersSent) answer(response, 500, rpcError(-32603, 'Internal error'));
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    port,
    async close() {
      for (const connection of [...connections.values()]) await connection.server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
