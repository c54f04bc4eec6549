"""Campaigns recorded for the report tests: real ``verify`` runs, and small ones written record by record.

A small campaign is written through the same ``ResultLog`` verify uses, from
verdicts the harness's own ``judge`` gives a reply, so what the renderers
read is what a campaign records.
"""

from __future__ import annotations

import copy
import json
from html.parser import HTMLParser
from pathlib import Path

from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.expectations import CAUGHT, CONFORMANT
from gateproof.conformance.harness.protocol import Outcome
from gateproof.conformance.harness.results import Tally, judge
from gateproof.conformance.reports.results_log import ResultLog

SCHEMAS = Path(__file__).resolve().parent.parent / "conformance" / "schema"
SETTINGS = {"compare": "full", "examples": 0, "seed": 0, "rules": None, "kinds": ["gateway"], "timeout": 10.0,
            "implementations": [["--", "./my-gateway"]]}
CASE = next(c for c in load_corpus() if c.id == "gw.cross-tenant.export")


def schema(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text())


def invalid_records(results: Path) -> list[str]:
    """Each line of ``results`` that breaks the results-record schema, with why; and every record kind present must be known."""
    import jsonschema_rs

    validator = jsonschema_rs.validator_for(schema("results-record.schema.json"))
    wrong = []
    for number, line in enumerate(results.read_text().splitlines(), 1):
        errors = list(validator.iter_errors(json.loads(line)))
        wrong += [f"line {number}: {errors[0].message}"] if errors else []
    return wrong


def verify(*arguments: str):
    return CliRunner().invoke(main, ["verify", *arguments], catch_exceptions=False)


def report(*arguments: str):
    return CliRunner().invoke(main, ["report", *arguments], catch_exceptions=False)


def wrong_export() -> dict:
    """The model's outcome of the cross-tenant export, with its audit's case id gone and its destination null."""
    actual = copy.deepcopy(CASE.expected)
    del actual["results"][0]["audit"]["case_id"]
    actual["results"][0]["audit"]["destination_id"] = None
    return actual


def verdict_of(name: str, actual: dict, scenario: dict | None = None):
    scenario = scenario or CASE.scenario
    expected = dict(CASE.expected, scenario=scenario["id"])
    return judge(name, "corpus", CASE.family, scenario, expected, Outcome(1, actual), "full", (), CASE.rules)


def record(path: Path, tallies: list[Tally], complete: bool = True, settings: dict | None = None) -> Path:
    """Write ``tallies`` as verify writes a campaign, into ``path``/results.jsonl; without the end record unless complete."""
    log = ResultLog(path / "results.jsonl", settings or SETTINGS)
    for tally in tallies:
        for verdict in tally.verdicts:
            log.write(verdict)
        log.implementation(tally)
    if complete:
        log.close()
    else:
        log.handle.close()
    return path / "results.jsonl"


def tally(name: str, verdicts: list, expected: str = CONFORMANT, **fields) -> Tally:
    made = Tally(name, verdicts=verdicts, scenarios=len(verdicts), seconds=1.25, **fields)
    made.expected = expected
    return made


def mutant(name: str, verdicts: list) -> Tally:
    return tally(name, verdicts, CAUGHT)


class Page(HTMLParser):
    """An HTML document read for its tags, attributes, ids, links and text, with its unclosed elements counted."""

    VOID = {"meta", "br", "col", "img", "input", "link", "hr"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags, self.attributes, self.ids, self.links, self.text, self.open = set(), [], set(), [], [], []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes += [name for name, _ in attrs]
        values = dict(attrs)
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "a" and values.get("href", "").startswith("#"):
            self.links.append(values["href"][1:])
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()

    def handle_data(self, data):
        self.text.append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)
