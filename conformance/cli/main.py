"""The ``gateproof`` command group: one module per command beside this one, each a thin layer over the library.

Every command refuses bad input with the field and the problem on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib

import click

#: Each command's module, loaded only when the command runs: verify, prove and
#: diff bring in the prover, hypothesis and the harness, which ``decide`` never
#: needs and whose import alone would cost a bulk run more than a thousand decisions.
LAZY_COMMANDS = {
    "decide": "gateproof.conformance.cli.decide",
    "explain": "gateproof.conformance.cli.explain",
    "prove": "gateproof.conformance.cli.prove",
    "diff": "gateproof.conformance.cli.diff",
    "verify": "gateproof.conformance.cli.verify",
    "corpus": "gateproof.conformance.cli.corpus",
    "rules": "gateproof.conformance.cli.rules",
    "report": "gateproof.conformance.cli.report",
    "catalog": "gateproof.conformance.cli.catalog",
}


class CommandGroup(click.Group):
    """A group that imports each of :data:`LAZY_COMMANDS` when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS:
            return getattr(importlib.import_module(LAZY_COMMANDS[name]), name)
        return super().get_command(ctx, name)


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gateproof")
def main() -> None:
    """Reference model, proofs and conformance suite for LLM context-trust and tool-call rules."""


if __name__ == "__main__":  # pragma: no cover
    main()
