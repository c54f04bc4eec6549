// MCP over stdin and stdout, one JSON-RPC message a line. The lines are read here rather than by the SDK's
// StdioServerTransport, because the gateway must see each request's text as written (raw_requests.ts); the messages
// then follow the same path into the SDK's Server as any transport's.
import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RawRequests } from './raw_requests.js';

// How long, once stdin has ended, the answers still owed may take before the transport closes regardless.
const DRAIN_SECONDS = 10;

type Id = string | number;
const keyOf = (id: Id): string => `${typeof id}:${String(id)}`;

function idOf(message: unknown): Id | undefined {
  if (typeof message !== 'object' || message === null || !('id' in message)) return undefined;
  const { id } = message as { id: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

// Splits a byte stream into lines, looking for the end of a line only in what has just arrived, so that one
// very long line (a load of a large world) costs time in proportion to its length.
class Lines {
  private readonly decoder = new StringDecoder('utf8');
  private pieces: string[] = [];

  push(chunk: Buffer, line: (text: string) => void): void {
    let rest = this.decoder.write(chunk);
    for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n')) {
      this.pieces.push(rest.slice(0, end));
      line(this.pieces.join('').replace(/\r$/, ''));
      this.pieces = [];
      rest = rest.slice(end + 1);
    }
    if (rest !== '') this.pieces.push(rest);
  }
}

export class RawStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly lines = new Lines();
  // The requests read and not yet answered: at the end of stdin they are answered before the transport closes.
  private readonly owed = new Set<string>();
  private ended = false;
  private closed = false;

  constructor(
    private readonly raw: RawRequests,
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.ondata);
    this.input.on('end', this.onend);
    this.input.on('error', this.oninputerror);
  }

  private readonly ondata = (chunk: Buffer): void => {
    this.lines.push(chunk, (line) => this.receive(line));
  };

  private readonly oninputerror = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onend = (): void => {
    this.ended = true;
    if (this.owed.size === 0) void this.close();
    else setTimeout(() => void this.close(), DRAIN_SECONDS * 1000).unref();
  };

  private receive(line: string): void {
    if (line.trim() === '') return;
    const admitted = this.raw.admit(line);
    if (admitted === undefined) {
      void this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: 'Parse error: the line is not JSON' } } as unknown as JSONRPCMessage);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(admitted);
    if (!parsed.success) {
      const id = idOf(admitted) ?? null;
      void this.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC message' } } as unknown as JSONRPCMessage);
      return;
    }
    const message = parsed.data;
    const id = idOf(message);
    if ('method' in message && id !== undefined) this.owed.add(keyOf(id));
    // A cancelled request is never answered, so nothing is owed for it.
    if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof cancelled === 'string' || typeof cancelled === 'number') this.settle(cancelled);
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const written = this.output.write(`${JSON.stringify(message)}\n`);
    if (!written) await new Promise<void>((resolve) => this.output.once('drain', () => resolve()));
    const id = idOf(message);
    if (!('method' in message) && id !== undefined) this.settle(id);
  }

  private settle(id: Id): void {
    this.owed.delete(keyOf(id));
    if (this.ended && this.owed.size === 0) void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.ondata);
    this.input.off('end', this.onend);
    this.input.off('error', this.oninputerror);
    this.onclose?.();
  }
}
