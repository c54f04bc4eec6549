"""The ``gateproof`` command group: one module per command beside this one, each a thin layer over the library.

Every command refuses bad input with the field and the problem on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib

import click

from .options import fail

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

    def invoke(self, ctx: click.Context):
        """Run the command; a bad option value is one line naming the option and the problem, as every command's own checks say it."""
        try:
            return super().invoke(ctx)
        except click.BadParameter as error:
            fail(bad_value_line(error))


def bad_value_line(error: click.BadParameter) -> str:
    """``--rules 'lab-01' is not a rule version …``: the option as typed, then click's message of the problem."""
    param = error.param
    if error.param_hint is not None:
        named = error.param_hint if isinstance(error.param_hint, str) else " / ".join(error.param_hint)
    elif isinstance(param, click.Option) and param.opts:
        named = max(param.opts, key=len)
    else:
        named = param.human_readable_name if param is not None else "a value"
    if isinstance(error, click.MissingParameter):  # click leaves its message empty: say what is missing, and what it may be
        choices = getattr(param.type, "choices", None) if param is not None else None
        return f"{named} is required" + (f": choose from {', '.join(choices)}" if choices else "")
    return f"{named} {error.message}"


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gateproof")
def main() -> None:
    """Reference model, proofs and conformance suite for LLM context-trust and tool-call rules."""


if __name__ == "__main__":  # pragma: no cover
    main()
