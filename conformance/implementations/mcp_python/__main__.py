"""``python -m gateproof.conformance.implementations.mcp_python [--http] [--variant NAME] [--db PATH]``."""

from __future__ import annotations

import argparse
import os
import signal
import sys

import anyio

from .identity import Trust
from .server import Config
from .store import Store
from .transports import serve_http, serve_stdio
from .variants import FAULTS, NONE


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m gateproof.conformance.implementations.mcp_python",
                                     description="The Python reference MCP gateway of lab-001 and lab-001+next.")
    parser.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1:$GATEPROOF_MCP_PORT/mcp (default: stdio)")
    parser.add_argument("--variant", choices=sorted(FAULTS), help="run with one known gateway fault, for verify to catch")
    parser.add_argument("--db", help="the SQLite file to keep the records in (default: SQLite's temporary database, removed at exit)")
    return parser.parse_args(argv)


def _port() -> int:
    try:
        return int(os.environ["GATEPROOF_MCP_PORT"])
    except (KeyError, ValueError):
        sys.exit("--http needs the port in GATEPROOF_MCP_PORT")


def _exit_on_sigterm(signum, frame) -> None:
    """Over HTTP uvicorn shuts down gracefully on SIGTERM, then raises it again: this ends the process with status 0."""
    sys.exit(0)


def main(argv: list[str] | None = None) -> None:
    options = arguments(argv)
    port = _port() if options.http else 0
    store = Store(options.db)
    config = Config(store, Trust.from_environment(), FAULTS[options.variant] if options.variant else NONE, options.http,
                    os.environ.get("GATEPROOF_MCP_FIXTURE") == "1")
    try:
        if options.http:
            signal.signal(signal.SIGTERM, _exit_on_sigterm)
            serve_http(config, port)
        else:
            anyio.run(serve_stdio, config)
    finally:
        store.close()


if __name__ == "__main__":
    main()
