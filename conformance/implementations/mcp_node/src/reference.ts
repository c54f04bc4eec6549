// The decision code of the Node.js implementation (../node), loaded at run time rather than copied, so that this
// gateway and that implementation decide every call with the same functions. What is typed here is only what this
// gateway hands them and reads back.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// dist/reference.js sits two levels below conformance/implementations, beside which ../node lives.
const NODE_IMPLEMENTATION = new URL('../../node/', import.meta.url);
const require = createRequire(import.meta.url);

function load<T>(module: string): T {
  return require(fileURLToPath(new URL(module, NODE_IMPLEMENTATION))) as T;
}

// The stored records, as gateway_read.readWorld gives them (fields a record may leave out are optional there).
export interface SessionRecord {
  id: string;
  user: string;
  tenant: string;
  roles?: string[];
  valid?: boolean;
}

// A stored record of one of the catalog's kinds, under the rules' names whatever fields its kind names them by.
export interface CaseRecord {
  kind: string;
  id: string;
  tenant: string;
  assignees?: string[];
  content?: string;
}

export interface DestinationRecord {
  id: string;
  internal: boolean;
}

export interface RunbookRecord {
  id: string;
  content?: string;
}

export interface ApprovalRecord {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  user: string;
  expires_at: number;
}

export interface RateLimit {
  calls: number;
  window: number;
}

export interface WorldRecords {
  sessions: SessionRecord[];
  cases: CaseRecord[];
  destinations: DestinationRecord[];
  runbooks: RunbookRecord[];
  approvals: ApprovalRecord[];
  rate_limit: RateLimit | null;
  clock: number;
}

// A world change step (reassign_case, revoke_session, remove_destination, edit_case, edit_runbook, advance_clock).
export interface Change {
  op: string;
  [field: string]: unknown;
}

export interface GatewayWorld {
  sessions: Map<string, SessionRecord>;
  cases: Map<string, CaseRecord>;
  destinations: Map<string, DestinationRecord>;
  declaredDestinations: Set<string>;
  runbooks: Map<string, RunbookRecord>;
  approvals: ApprovalRecord[];
  rateLimit: RateLimit | null;
  clock: number;
  storedCase(id: unknown): CaseRecord | undefined;
  destination(id: unknown): DestinationRecord | undefined;
  apply(change: Change, where: string): void;
}

export interface Refusal {
  reason: string;
  rule: string;
}

// What a check answers: a refusal, a replay of a bound idempotency key (G002.2), or null when the call passes.
export type Verdict = Refusal | { replay: true } | null;

// One declared argument as ../node/catalog.js reads it: a text's bounds are lengths in code points, a number's are
// values (a BigInt beyond 2^53), either left out when the catalog declares none.
export interface ArgumentSpec {
  name: string;
  type: 'identifier' | 'string' | 'integer' | 'number';
  required: boolean;
  text: boolean;
  least?: number | bigint;
  most?: number | bigint;
}

// One tool of the catalog as the rules consult it (only what this gateway reads is typed).
export interface ToolSpec {
  name: string;
  effect: 'retrieval' | 'export' | 'write';
  arguments: ArgumentSpec[];
  recordArgument: string;
  destination?: string;
  idempotencyKey: boolean;
  recheckAtWrite: boolean;
}

export interface RecordKind {
  name: string;
  collection: string;
}

export interface Catalog {
  tools: Map<string, ToolSpec>;
  kinds: RecordKind[];
  recordArguments: string[];
  destinationArguments: string[];
}

export interface CheckContext {
  // undefined for a tool the catalog does not declare, which the shape check refuses before any other check reads it.
  spec: ToolSpec | undefined;
  args: unknown;
  session: SessionRecord;
  world: GatewayWorld;
  next: boolean;
  action?: string;
}

export type Check = (context: CheckContext) => Refusal | null;

export interface History {
  calls: Map<string, number[]>;
  keys: Map<string, string>;
  isWithinRateLimit(rateLimit: RateLimit | null, sessionId: string, now: number): boolean;
  count(sessionId: string, now: number): void;
  keyBinding(key: string | undefined, action: string | undefined): 'unbound' | 'same' | 'other';
  bind(key: string | undefined, action: string | undefined): void;
}

interface JsonModule {
  parse(text: string): unknown;
  stringify(value: unknown): string;
  repeatsAKey(value: unknown): boolean;
}

interface ErrorsModule {
  InvalidScenario: new (where: string, problem: string) => Error;
}

interface ReadModule {
  readWorld(world: unknown, catalog: Catalog): WorldRecords;
  readStep(step: unknown, where: string): Change;
  isObject(value: unknown): value is Record<string, unknown>;
}

interface WorldModule {
  GatewayWorld: new (world: WorldRecords) => GatewayWorld;
  contentOf(stored: CaseRecord): string;
  rolesOf(session: SessionRecord): string[];
  isValid(session: SessionRecord): boolean;
  assigneesOf(stored: CaseRecord): string[];
}

interface CatalogModule {
  catalogOf(document: Record<string, unknown>): Catalog;
}

interface ProposalModule {
  isKnownTool(catalog: Catalog, tool: unknown): tool is string;
  isArgumentObject(args: unknown): args is Record<string, unknown>;
  shapeRefusal(catalog: Catalog, tool: unknown, args: unknown): Refusal | null;
}

interface AuthorizeModule {
  SESSION_CHECKS: Check[];
  CONFIGURATION_AND_CASE_CHECKS: Check[];
  firstRefusal(checks: Check[], context: CheckContext): Refusal | null;
}

interface HistoryModule {
  History: new () => History;
  actionOf(sessionId: string, tool: unknown, args: Record<string, unknown>): string;
}

interface GatewayModule {
  GATEWAY_VERSIONS: string[];
  DEFAULT_GATEWAY_VERSION: string;
}

export const json = load<JsonModule>('json.js');
export const { InvalidScenario } = load<ErrorsModule>('errors.js');
export const { readWorld, readStep, isObject } = load<ReadModule>('gateway_read.js');
export const { GatewayWorld: ReferenceWorld, contentOf, rolesOf, isValid, assigneesOf } = load<WorldModule>('gateway_world.js');
export const { isKnownTool, isArgumentObject, shapeRefusal } = load<ProposalModule>('proposal.js');
export const { SESSION_CHECKS, CONFIGURATION_AND_CASE_CHECKS, firstRefusal } = load<AuthorizeModule>('authorize.js');
export const { History: ReferenceHistory, actionOf } = load<HistoryModule>('history.js');
export const { GATEWAY_VERSIONS, DEFAULT_GATEWAY_VERSION } = load<GatewayModule>('gateway.js');
const { catalogOf } = load<CatalogModule>('catalog.js');

// The lab's catalog, as ../node holds it for a scenario that writes out none: the tools this gateway serves.
export const LAB_CATALOG = catalogOf({});

// The kind of the records the cases table keeps: the lab's kind stored under `cases`.
export const CASE_KIND = storedAs(LAB_CATALOG, 'cases');

function storedAs(catalog: Catalog, collection: string): string {
  const kind = catalog.kinds.find((declared) => declared.collection === collection);
  if (kind === undefined) throw new Error(`the lab's catalog keeps no records under ${JSON.stringify(collection)}`);
  return kind.name;
}

// Whether an error is the reference code's InvalidScenario: input it cannot apply the rules to, named by its field.
export function isInvalidInput(error: unknown): error is Error {
  return error instanceof InvalidScenario;
}
