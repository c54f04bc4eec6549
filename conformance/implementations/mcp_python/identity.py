"""Who is calling: the campaign's token, verified against the key set the host gave, then the session the store holds.

The token only names a session (``sid``) and a scope; the session's user,
tenant, roles and validity are the store's (G001.6). Over HTTP the token is
the ``Authorization`` header, checked by the SDK's bearer middleware with
:class:`CampaignTokenVerifier` before anything is read (a bad one is a 401);
over stdio it is ``params._meta["io.gateproof/authorization"]`` of each
request, checked here (a bad one is JSON-RPC error -32001). Either way a
refused token changes and records nothing.
"""

from __future__ import annotations

import json
import os
import time
from collections import OrderedDict
from collections.abc import Mapping

import jwt
from attrs import define, field
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.shared.exceptions import MCPError

from gateproof.conformance.mcp.tokens import ALGORITHM, FIXTURE_SCOPE, ISSUER, META_KEY, TOOLS_SCOPE

#: The JSON-RPC error code of a request whose credentials authorize nothing.
UNAUTHORIZED = -32001
#: How many verified tokens :class:`Trust` remembers: a campaign uses one a session of its world and one for the hooks.
KEPT_TOKENS = 1024
#: What a token that does not verify raises, whichever check refused it.
INVALID = (jwt.InvalidTokenError, ValueError, KeyError, TypeError)


def _public_keys(jwks: str) -> dict:
    """The key set by ``kid``, parsed once; an unreadable set is no key, so every token is refused."""
    try:
        return {key["kid"]: jwt.PyJWK(key).key for key in json.loads(jwks)["keys"]}
    except (*INVALID, jwt.PyJWKError, AttributeError):
        return {}


@define(eq=False)
class Trust:
    """The trust root the host gives at start: the key set, the audience every token names, and its issuer.

    Checking an ES256 signature is most of what a request costs, and a
    campaign sends the same few tokens again and again: the claims of a token
    that verified are kept by its text, and each later use of it checks its
    expiry against the clock again. A token that failed is never kept.
    """

    jwks: str
    audience: str
    issuer: str
    keys: dict = field(init=False)
    verified: OrderedDict = field(init=False, factory=OrderedDict)

    def __attrs_post_init__(self) -> None:
        self.keys = _public_keys(self.jwks)

    @classmethod
    def from_environment(cls) -> Trust:
        env = os.environ
        return cls(env.get("GATEPROOF_MCP_JWKS", '{"keys": []}'), env.get("GATEPROOF_MCP_AUDIENCE", ""),
                   env.get("GATEPROOF_MCP_ISSUER", ISSUER))

    def claims(self, token: str) -> dict:
        """The claims of a token this campaign's key signed for this audience, unexpired; ``jwt.InvalidTokenError`` otherwise."""
        kept = self.verified.get(token)
        if kept is None:
            kept = self.verified[token] = self._verify(token)
            while len(self.verified) > KEPT_TOKENS:
                self.verified.popitem(last=False)
        elif kept[1] <= time.time():  # as PyJWT judges ``exp``: expired from that second on
            del self.verified[token]
            raise jwt.ExpiredSignatureError("Signature has expired")
        else:
            self.verified.move_to_end(token)
        return dict(kept[0])

    def _verify(self, token: str) -> tuple[dict, int]:
        """``tokens.verify_token`` with the key set parsed once: the claims, and ``exp`` as PyJWT read it."""
        kid = jwt.get_unverified_header(token).get("kid")
        if kid not in self.keys:
            raise jwt.InvalidTokenError(f"no key {kid!r} in the key set")
        claims = jwt.decode(token, self.keys[kid], algorithms=[ALGORITHM], audience=self.audience, issuer=self.issuer,
                            options={"require": ["exp", "iat", "aud", "iss", "sub", "scope"]})
        return claims, int(claims["exp"])


def refused(why: str) -> MCPError:
    return MCPError(code=UNAUTHORIZED, message=f"unauthorized: {why}")


def scopes(claims: Mapping) -> set[str]:
    scope = claims.get("scope")
    return set(scope.split()) if isinstance(scope, str) else set()


class CampaignTokenVerifier:
    """The SDK's ``TokenVerifier`` for HTTP: a valid campaign token, or None (the bearer middleware answers 401)."""

    def __init__(self, trust: Trust):
        self.trust = trust

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            claims = self.trust.claims(token)
        except INVALID:
            return None
        principal = f"{claims['sub']}/{claims.get('sid', claims['scope'])}"
        return AccessToken(token=token, client_id=principal, scopes=sorted(scopes(claims)), expires_at=claims["exp"],
                           subject=str(claims["sub"]), claims=claims)


def _bearer(authorization: object) -> str:
    if not isinstance(authorization, str) or not authorization.startswith("Bearer "):
        raise refused(f"no bearer token in params._meta[{META_KEY!r}]")
    return authorization.removeprefix("Bearer ")


def request_claims(ctx, trust: Trust, over_http: bool) -> dict:
    """The verified claims of the request's token, from where its transport carries it; -32001 when there are none."""
    if over_http:
        user = ctx.request.scope.get("user") if ctx.request is not None else None
        if not isinstance(user, AuthenticatedUser) or user.access_token.claims is None:
            raise refused("no verified bearer token")
        return user.access_token.claims
    meta = ctx.params.get("_meta") if isinstance(ctx.params, Mapping) else None
    token = _bearer(meta.get(META_KEY) if isinstance(meta, Mapping) else None)
    try:
        return trust.claims(token)
    except INVALID as error:
        raise refused(f"the token does not verify ({error})") from None


def require_fixture(claims: Mapping) -> None:
    """The test hooks are served only under a fixture token, which names no session."""
    if FIXTURE_SCOPE not in scopes(claims) or "sid" in claims:
        raise refused(f"the test hooks need a token of scope {FIXTURE_SCOPE!r} naming no session")


def tool_session(claims: Mapping, known) -> str:
    """The session a tool call is made under: the token's ``sid``, when the token may call tools and the store holds it."""
    if TOOLS_SCOPE not in scopes(claims) or FIXTURE_SCOPE in scopes(claims):
        raise refused(f"a tool needs a token of scope {TOOLS_SCOPE!r}")
    sid = claims.get("sid")
    if not isinstance(sid, str) or not known(sid):
        raise refused(f"the token names no session the store holds ({sid!r})")
    return sid
