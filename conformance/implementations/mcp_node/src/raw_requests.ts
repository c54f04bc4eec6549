// The params of each request as its text wrote them. JSON.parse, which the SDK uses, keeps the last of two values
// of a key, so a proposal whose arguments write a key twice (G001.17) would reach the gateway looking well formed.
// Each message's text is therefore also read by ../node/json.js, which marks such objects (and tells 1 from 1.0),
// and the handlers take the params from here, by request id, rather than from the SDK's parse.
import { json } from './reference.js';

type RequestId = string | number;

export type RawParams = { params: unknown } | { unreadable: string };

// What the SDK must still accept for a tools/call to reach the gateway's handler: the SDK's schema wants a string
// name and object arguments. Any other proposal is handed on with stand-ins, the real values kept here.
function acceptableToTheSdk(message: Record<string, unknown>): Record<string, unknown> {
  if (message.method !== 'tools/call') return message;
  const params = isPlainObject(message.params) ? message.params : {};
  const acceptable = { ...params };
  if (typeof params.name !== 'string') acceptable.name = '';
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) delete acceptable.arguments;
  return { ...message, params: acceptable };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isRequest = (message: unknown): message is { method: string; id: RequestId } =>
  isPlainObject(message) && typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number');

// A bound on requests never answered through a handler (a client that sends a method nobody serves): the oldest are
// forgotten first.
const MAX_HELD = 1024;

export class RawRequests {
  private readonly held = new Map<string, RawParams>();

  // methods: the methods whose handlers take their params from here.
  constructor(private readonly methods: ReadonlySet<string>) {}

  // One message's text (a single message or a batch): the message as the SDK is to read it, or undefined when the
  // text is not JSON at all.
  admit(text: string): unknown {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return undefined;
    }
    let raw: unknown;
    let problem: string | undefined;
    try {
      raw = json.parse(text);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    const messages = Array.isArray(message) ? message : [message];
    const raws = Array.isArray(raw) ? raw : [raw];
    messages.forEach((item, index) => {
      if (!isRequest(item) || !this.methods.has(item.method)) return;
      const original = raws[index];
      this.hold(item.id, problem === undefined && isPlainObject(original) ? { params: original.params } : { unreadable: problem ?? 'unreadable' });
    });
    const acceptable = messages.map((item) => (isPlainObject(item) ? acceptableToTheSdk(item) : item));
    return Array.isArray(message) ? acceptable : acceptable[0];
  }

  // The params of request `id` as written; each request's are taken once.
  take(id: RequestId): RawParams | undefined {
    const key = keyOf(id);
    const found = this.held.get(key);
    this.held.delete(key);
    return found;
  }

  private hold(id: RequestId, params: RawParams): void {
    const key = keyOf(id);
    this.held.delete(key);
    this.held.set(key, params);
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value as string);
  }
}

// 1 and "1" are two request ids.
function keyOf(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}
