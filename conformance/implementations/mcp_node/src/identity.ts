// Who is calling (conformance/MCP.md, Identity): an ES256 JSON Web Token signed by the campaign's key, for this
// server's audience. The token only names a session (claim sid); what that session may do is the session store's.
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';

export const TOOLS_SCOPE = 'tools';
export const FIXTURE_SCOPE = 'gateproof:fixture';
// Where a request over stdio carries its token: one stdio connection carries the calls of every session.
export const AUTHORIZATION_META = 'io.gateproof/authorization';

// A token that authorizes nothing: absent, malformed, signed by another key, for another audience or issuer,
// expired, or of the wrong scope for what it is used for.
export class IdentityError extends Error {}

export interface Claims {
  subject: string;
  session: string | undefined;
  scopes: string[];
}

// How many verified tokens a verifier remembers: a campaign uses one a session of its world and one for the hooks.
const KEPT_TOKENS = 1024;

// The claims a verified token carries, and when it expires (jose's reading of exp, in seconds).
interface Verified {
  claims: Claims;
  expires: number;
}

export class TokenVerifier {
  // Checking an ES256 signature is most of what a request costs, and a campaign sends the same few tokens again and
  // again: the claims of a token that verified are kept by its text, and each later use of it checks its expiry
  // against the clock again, as jose does. A token that failed is never kept.
  private readonly verified = new Map<string, Verified>();

  private constructor(
    private readonly keys: JWTVerifyGetKey | undefined,
    private readonly issuer: string,
    private readonly audience: string,
  ) {}

  // Without a key set every token fails: a server that cannot check identity must let no call through.
  static fromEnvironment(environment: NodeJS.ProcessEnv): TokenVerifier {
    const text = environment.GATEPROOF_MCP_JWKS;
    let keys: JWTVerifyGetKey | undefined;
    if (text !== undefined && text !== '') {
      try {
        keys = createLocalJWKSet(JSON.parse(text) as JSONWebKeySet);
      } catch (error) {
        process.stderr.write(`GATEPROOF_MCP_JWKS is not a JSON Web Key Set (${String(error)}): every token will be refused\n`);
      }
    } else {
      process.stderr.write('GATEPROOF_MCP_JWKS is not set: every token will be refused\n');
    }
    return new TokenVerifier(keys, environment.GATEPROOF_MCP_ISSUER ?? 'gateproof', environment.GATEPROOF_MCP_AUDIENCE ?? '');
  }

  // The claims of a token this server accepts; an IdentityError naming why otherwise.
  async verify(token: string | undefined): Promise<Claims> {
    if (token === undefined) throw new IdentityError('no bearer token');
    if (this.keys === undefined) throw new IdentityError('no key set to verify tokens with');
    const kept = this.verified.get(token);
    if (kept !== undefined) {
      this.verified.delete(token);
      // jose: expired once exp is at or before the current second.
      if (kept.expires <= Math.floor(Date.now() / 1000)) throw new IdentityError('the token is refused: "exp" claim timestamp check failed');
      this.verified.set(token, kept); // the most recently used is the last to be forgotten
      return kept.claims;
    }
    const verified = await this.check(token, this.keys);
    this.verified.set(token, verified);
    if (this.verified.size > KEPT_TOKENS) this.verified.delete(this.verified.keys().next().value as string);
    return verified.claims;
  }

  private async check(token: string, keys: JWTVerifyGetKey): Promise<Verified> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: ['ES256'],
        requiredClaims: ['iss', 'aud', 'exp', 'iat', 'sub', 'scope'],
      }));
    } catch (error) {
      throw new IdentityError(`the token is refused: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof payload.sub !== 'string' || typeof payload.scope !== 'string') throw new IdentityError('the token names no subject or scope');
    if (payload.sid !== undefined && typeof payload.sid !== 'string') throw new IdentityError('the token names its session by no string');
    const scopes = Object.freeze(payload.scope.split(' ').filter((scope) => scope !== '')) as string[];
    return { claims: Object.freeze({ subject: payload.sub, session: payload.sid, scopes }), expires: payload.exp as number };
  }
}

// "Bearer <token>", as the Authorization header and the stdio _meta key carry it.
export function bearerToken(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer +(\S+)\s*$/i.exec(value);
  return match === null ? undefined : match[1];
}

// The session a tools/call is made as: only a tools token that names one. A fixture token authorizes no tool.
export function toolSession(claims: Claims): string {
  if (!claims.scopes.includes(TOOLS_SCOPE) || claims.scopes.includes(FIXTURE_SCOPE)) {
    throw new IdentityError(`a tools/call needs a token of scope ${TOOLS_SCOPE}`);
  }
  if (claims.session === undefined) throw new IdentityError('the token names no session');
  return claims.session;
}

// The hooks are served only under a fixture token, which names no session.
export function requireFixture(claims: Claims): void {
  if (!claims.scopes.includes(FIXTURE_SCOPE) || claims.session !== undefined) {
    throw new IdentityError(`the test hooks need a token of scope ${FIXTURE_SCOPE} naming no session`);
  }
}
