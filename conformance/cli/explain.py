"""``gateproof explain``: how the model decides a scenario, step by step and rule by rule, as text or as JSON."""

from __future__ import annotations

import sys

import click

from gateproof.model.scenario import ScenarioError

from ..explanation.explain import explain_under
from ..explanation.trace import text_of
from ..harness.documents import dumps_pretty, parse_json
from .options import decidable_names, fail, read_input, rules_option


@click.command()
@click.argument("path", default="-")
@rules_option(decidable_names, "Explain under these rules instead of the scenario's own: a rule version (e.g. each side of a difference "
              "gateproof diff found) or a deliberately wrong variant (wrong:...)", "a rule version or wrong variant")
@click.option("--json", "as_json", is_flag=True, help="Print the trace as one JSON document (conformance/schema/explain-trace.schema.json).")
def explain(path: str, rules: str | None, as_json: bool) -> None:
    """Explain, step by step (from step 0) and rule by rule, how the scenario in PATH is decided.

    Each rule is named by its id; gateproof rules ID prints its text.
    """
    try:
        trace = explain_under(parse_json(read_input(path)), rules)
    except ScenarioError as error:
        fail(f"{path}: {error}")
    except ValueError as error:
        fail(str(error))
    if as_json:
        sys.stdout.buffer.write(dumps_pretty(trace.document()) + b"\n")
    else:
        click.echo(text_of(trace))
