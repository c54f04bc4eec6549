"""The campaign's identity tokens (conformance/MCP.md, Identity): a key pair a campaign, one JWT a world session.

A token names the session (``sid``) and its user (``sub``); what the session
may do is the server's own session store's, never the token's. The tokens
that must fail (another key, another audience, expired) are made here too, so
the bridge can check that a server refuses them.
"""

from __future__ import annotations

import json
import time
import uuid

import jwt
from attrs import frozen
from cryptography.hazmat.primitives.asymmetric import ec

ISSUER = "gateproof"
STDIO_AUDIENCE = "gateproof-mcp-stdio"
ALGORITHM = "ES256"
#: The key under which a stdio request carries its token in ``params._meta``.
META_KEY = "io.gateproof/authorization"
TOOLS_SCOPE = "tools"
FIXTURE_SCOPE = "gateproof:fixture"
#: How long a token stands: longer than any campaign, so only the tokens made to be expired are.
LIFETIME = 24 * 3600
#: The tokens that must authorize nothing, in the order a scenario's id picks one.
BAD_TOKENS = ("other_key", "other_audience", "expired")


def _new_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


@frozen
class CampaignKeys:
    """One campaign's signing key, and the audience its server is told."""

    audience: str
    key: ec.EllipticCurvePrivateKey
    kid: str
    other_key: ec.EllipticCurvePrivateKey  # signs the tokens a server must refuse for their signature

    @classmethod
    def new(cls, audience: str) -> "CampaignKeys":
        return cls(audience, _new_key(), uuid.uuid4().hex[:16], _new_key())

    def jwks(self) -> str:
        """The public key set the server is given in ``GATEPROOF_MCP_JWKS``, as JSON text."""
        public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(self.key.public_key()))
        return json.dumps({"keys": [{**public, "kid": self.kid, "alg": ALGORITHM, "use": "sig"}]})

    def environment(self) -> dict[str, str]:
        """What the server under test is given at start, beside the port over HTTP."""
        return {"GATEPROOF_MCP_FIXTURE": "1", "GATEPROOF_MCP_JWKS": self.jwks(), "GATEPROOF_MCP_ISSUER": ISSUER,
                "GATEPROOF_MCP_AUDIENCE": self.audience}

    def _sign(self, claims: dict, key=None, audience: str | None = None, issued: int | None = None) -> str:
        now = int(time.time()) if issued is None else issued
        body = {"iss": ISSUER, "aud": self.audience if audience is None else audience, "iat": now, "exp": now + LIFETIME,
                "jti": uuid.uuid4().hex, **claims}
        return jwt.encode(body, self.key if key is None else key, algorithm=ALGORITHM, headers={"kid": self.kid})

    def session_token(self, session: str, user: str) -> str:
        """The token a call made as ``session`` carries."""
        return self._sign({"sub": user, "sid": session, "scope": TOOLS_SCOPE})

    def fixture_token(self) -> str:
        """The token the test hooks are called with: no session, the fixture's scope."""
        return self._sign({"sub": "gateproof", "scope": FIXTURE_SCOPE})

    def bad_token(self, kind: str, session: str, user: str) -> str:
        """A token for ``session`` that must authorize nothing: ``kind`` is one of :data:`BAD_TOKENS`."""
        claims = {"sub": user, "sid": session, "scope": TOOLS_SCOPE}
        if kind == "other_key":
            return self._sign(claims, key=self.other_key)
        if kind == "other_audience":
            return self._sign(claims, audience=self.audience + "-elsewhere")
        if kind == "expired":
            return self._sign(claims, issued=int(time.time()) - 2 * LIFETIME)
        raise ValueError(f"no bad token {kind!r}; choose one of {', '.join(BAD_TOKENS)}")


def verify_token(token: str, jwks: str, audience: str, issuer: str = ISSUER) -> dict:
    """The claims of a token the campaign's key signed for ``audience`` and that has not expired; raises otherwise.

    What a Python server under test may call to check a token (``jwt.InvalidTokenError`` on any failure).
    """
    keys = {key["kid"]: jwt.PyJWK(key) for key in json.loads(jwks)["keys"]}
    kid = jwt.get_unverified_header(token).get("kid")
    if kid not in keys:
        raise jwt.InvalidTokenError(f"no key {kid!r} in the key set")
    return jwt.decode(token, keys[kid].key, algorithms=[ALGORITHM], audience=audience, issuer=issuer,
                      options={"require": ["exp", "iat", "aud", "iss", "sub", "scope"]})
