"""Which MCP server is under test: its command, and over HTTP the URL it serves, a loopback address only."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

from attrs import frozen

from .tokens import STDIO_AUDIENCE

STDIO = "stdio"


class TargetError(ValueError):
    """A server that cannot be a target: the message says which part and why."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine: ``localhost``, 127.0.0.0/8 or ::1, the only addresses verify sends HTTP to."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@frozen
class Target:
    """``transport`` is ``stdio`` or the server's streamable HTTP URL; ``argv`` the command that starts it (none: already running)."""

    transport: str
    argv: tuple[str, ...] = ()

    @property
    def stdio(self) -> bool:
        return self.transport == STDIO

    @property
    def url(self) -> str:
        return self.transport

    @property
    def audience(self) -> str:
        return STDIO_AUDIENCE if self.stdio else self.url

    def host_and_port(self) -> tuple[str, int]:
        parts = urlsplit(self.url)
        return parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)

    def environment(self) -> dict[str, str]:
        """What a server started by gateproof is told besides the keys: over HTTP, the port to listen on."""
        return {} if self.stdio else {"GATEPROOF_MCP_PORT": str(self.host_and_port()[1])}


def read_target(transport: str, argv: tuple[str, ...]) -> Target:
    """The target ``--mcp TRANSPORT -- CMD`` names; :class:`TargetError` for a URL verify must not reach, or stdio with no command."""
    if transport == STDIO:
        if not argv:
            raise TargetError("--mcp stdio needs the command that starts the server after --")
        return Target(STDIO, tuple(argv))
    parts = urlsplit(transport)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetError(f"--mcp {transport!r}: neither stdio nor an http:// URL")
    if not is_loopback(parts.hostname):
        raise TargetError(f"--mcp {transport!r}: {parts.hostname} is not a loopback address; verify sends HTTP to "
                          "localhost, 127.0.0.0/8 and [::1] only")
    try:
        parts.port
    except ValueError as error:
        raise TargetError(f"--mcp {transport!r}: {error}") from None
    return Target(transport, tuple(argv))


def free_port_url(url: str) -> str:
    """``url`` with port 0 replaced by a port free on that loopback address now: how a built-in HTTP server is placed."""
    parts = urlsplit(url)
    if parts.port != 0:
        return url
    with socket.socket(socket.AF_INET6 if ":" in parts.hostname else socket.AF_INET) as probe:
        probe.bind((parts.hostname, 0))
        port = probe.getsockname()[1]
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return urlunsplit((parts.scheme, f"{host}:{port}", parts.path, parts.query, parts.fragment))
