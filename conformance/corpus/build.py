"""The conformance corpus: every rule family's cases, with the outcome the model gives each.

The corpus is language-neutral test vectors in the JSON-Schema-Test-Suite's
style: a family file holds ``{family, description, cases}``, and each case
has a stable ``id``, a ``description``, the ``rules`` it pins, the
``scenario`` and the ``expected`` outcome. The ceiling and lifecycle families
are hand-picked from the shipped ``examples/`` and the rules' example tests,
followed by every rule's boundary pair (``boundary``: the case where the rule
decides and the nearest case where it does not), the places where careful
readings part (``readings``) and the worlds of tables larger
than one node of the model's tree (``large_tables``); the gateway family is the
attack corpus of ``attacks``, one file per attack group. ``refusals.json`` is
no family verify sends: it holds invalid documents and how the model refuses
each (``refusals``). ``python -m gateproof.conformance.corpus.build`` (or
``gateproof corpus build``) regenerates every expected outcome from the model.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from gateproof.model.versions import declarations, default_version, predecessor

from .boundary import ceiling_texts
from .boundary import decision as boundary_decision
from .boundary import integers as boundary_integers
from .boundary import lifecycle as boundary_lifecycle
from .boundary import sources as boundary_sources
from .boundary import zone as boundary_zone
from . import attacks as gateway_corpus
from . import changes, large_tables, readings, stated
from .cases import CorpusError, case, send, snippet, with_expected, world
from .checkout import USAGE_ERROR, refuse_outside_checkout
from .declared import derived_files
from .refusals import REFUSALS_FILE, refusal_family
from ..harness.documents import dumps_pretty

CORPUS_ROOT = Path(__file__).resolve().parent
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(case_id: str, file_name: str, rules: list[str], version: str | None = None) -> dict:
    """A shipped example as a case; ``version`` runs it under another rule version than its own.

    Its description tells the story under its own version, which a later version may change: the case says which is which.
    """
    scenario = json.loads((EXAMPLES / file_name).read_text(encoding="utf-8"))
    scenario["id"] = case_id
    if version is not None:
        own = scenario.get("rules", "the default version")
        scenario["rules"] = version
        scenario["description"] = f"Decided under {version}; the story as told under {own}: {scenario['description']}"
    return {"id": case_id, "description": scenario["description"], "rules": rules, "scenario": scenario}


SECRET_SNIPPET = {"uid": 1, "identifier": "s1", "data_class": "secretAdjacent"}
PROMPT = {"system_prompt": "x", "system_prompt_class": "sourceCode"}


def ceiling_cases() -> list[dict]:
    return [
        example("ceiling.example.forced-snippet-refused", "forced-snippet-refused.json", ["C164.1", "C164.4", "C144.10"]),
        example("ceiling.example.fallback-drags-to-external", "fallback-drags-to-external.json", ["C094.10", "C144.14"]),
        example("ceiling.example.observe-mode", "observe-mode.json", ["C113.1", "C144.11"]),
        example("ceiling.example.undeclared-installation", "undeclared-installation.json", ["C144.18", "C164.2"]),
        case("ceiling.tie.later-source-wins", "Two forced skills of one class: the later one is named.", ["C144.9"],
             world(skills=[{"uid": 1, "name": "k1", "data_class": "sourceCode"}, {"uid": 2, "name": "k2", "data_class": "sourceCode"}]),
             [send(forced_skills=[1, 2]), send(forced_skills=[2, 1])]),
        case("ceiling.zone.missing-provider", "A model whose provider is missing reads as externalGlobal.", ["C094.7"],
             world(zone="local", configuration=PROMPT) | {"models": [{"identifier": "m", "provider": "nobody"}]}, [send()]),
        case("ceiling.zone.no-model", "A configuration without a model starts at externalGlobal.", ["C094.8"],
             world(zone="local", configuration={"model": None, **PROMPT}), [send()]),
        case("ceiling.zone.one-level-of-fallbacks", "Only one level of fallbacks is read.", ["C094.10"],
             world(zone="local", configuration={"fallbacks": ["hop"], "system_prompt": "x", "system_prompt_class": "secretAdjacent"},
                   configurations=[{"identifier": "hop", "model": "m", "fallbacks": ["nowhere"]}]), [send()]),
        case("ceiling.switch.never-stored-enforces", "A switch never stored enforces.", ["C115.1"], world(snippets=[SECRET_SNIPPET]), [send(forced_snippets=[1])]),
        case("ceiling.switch.typo-enforces", "Only a literal observe observes: a typo enforces.", ["C113.1"],
             world(snippets=[SECRET_SNIPPET], enforcement="observ"), [send(forced_snippets=[1])]),
        case("ceiling.switch.unset-never-stored", "A switch a step unsets is never stored, whatever it held: it enforces.", ["C115.1"],
             world(snippets=[SECRET_SNIPPET], enforcement="observe"), [{"op": "set_enforcement", "unset": True}, send(forced_snippets=[1])]),
        case("ceiling.switch.unset-with-a-value", "A switch a step unsets is never stored, whatever value the same step carries: it enforces.", ["C115.1"],
             world(snippets=[SECRET_SNIPPET], enforcement="observe"),
             [{"op": "set_enforcement", "unset": True, "value": "observe"}, send(forced_snippets=[1])]),
        case("ceiling.dry-run-not-gated", "A dry run is not gated.", ["C164.5"], world(snippets=[SECRET_SNIPPET]), [send(forced_snippets=[1], dry_run=True)]),
        case("ceiling.audit.integer-user-only", "Only an integer user uid is recorded.", ["C144.15"],
             world(snippets=[SECRET_SNIPPET]), [send(forced_snippets=[1], be_user=7), send(forced_snippets=[1], be_user="7")]),
        case("ceiling.uids.integral-floats", "An integer written with a zero fraction is that integer: the snippet stored as uid 7.0 "
             "is the one a send forces as 7, and the skill attached as 5.0 is the one stored as 5.0.", ["S001.1"],
             world(configuration={"skills": [5.0]}, snippets=[{"uid": 7.0, "identifier": "s7", "data_class": "secretAdjacent", "sorting": 3.0}],
                   skills=[{"uid": 5.0, "name": "k5", "data_class": "sourceCode"}]), [send(forced_snippets=[7])]),
        case("ceiling.uids.integral-floats-in-an-update", "An integer written with a zero fraction is that integer in a change as in the world: "
             "the configuration updated to attach skill 3.0 attaches the skill stored as 3, and snippet 5 updated to sorting 0.0 sorts before "
             "snippet 6 at 1, though the world lists 6 first, so the later of the two, 6, is named.", ["S001.1"],
             world(zone="local", skills=[{"uid": 3, "name": "k3", "data_class": "sourceCode"}],
                   snippets=[snippet(6, "sourceCode", tags="t", sorting=1), snippet(5, "sourceCode", tags="t", sorting=2)]),
             [{"op": "update", "kind": "configuration", "identifier": "c", "set": {"skills": [3.0], "snippet_tags": "t"}},
              {"op": "update", "kind": "snippet", "uid": 5, "set": {"sorting": 0.0}}, {"op": "readout", "configuration": "c"}]),
        case("ceiling.near-miss-class-undeclared", "A stored class is read by exact match: a near miss is undeclared.", ["C094.2", "C144.2"],
             world(snippets=[{"uid": 1, "identifier": "s1", "data_class": "SECRETADJACENT"}]), [send(forced_snippets=[1])]),
        case("ceiling.readout.strictest-named", "The readout names the strictest declaration and never an undeclared source.", ["C144.9", "C144.16"],
             world(zone="local", configuration={"system_prompt": "p", "system_prompt_class": "editorContent", "snippet_tags": "ops"},
                   snippets=[{"uid": n, "identifier": f"s{n}", "tags": "ops", "data_class": c} for n, c in ((1, "secretAdjacent"), (2, None), (3, "sourceCode"))]),
             [{"op": "readout", "configuration": "c"}, {"op": "classify", "configuration": "c"}]),
        case("ceiling.collation.tag-order-folds-names", "Under a case-insensitive collation two snippets of one tag and one sorting are ordered by "
             "the folded name, so of two of one class the one named b, listed first, comes later and is named.", ["C144.4", "C144.19", "C144.9"],
             world(configuration={"snippet_tags": "ops"}, snippets=[snippet(1, "sourceCode", name="b", tags="ops"), snippet(2, "sourceCode", name="A", tags="ops")])
             | {"collation": "case-insensitive"}, [send()]),
        case("ceiling.nr-llm.request-uid-wraps", "Under nr-llm a forced uid written as an integer below -2**63 is a float to json_decode, "
             "and (int) wraps it modulo 2**64: -(2**64) + 4096 forces snippet 4096.", ["C164.6"],
             world(snippets=[snippet(4096, "sourceCode")]), [send(forced_snippets=[-(2**64) + 4096])], "nr-llm"),
        *boundary_zone.cases(),
        *boundary_sources.cases(),
        *boundary_decision.cases(),
        *ceiling_texts.ceiling_cases(),
        *boundary_integers.ceiling_cases(),
        *boundary_integers.ceiling_cases("nr-llm"),
        *readings.ceiling_cases(),
        *readings.lookup_cases(),
        *stated.ceiling_cases(),
        *changes.ceiling_cases(),
        *large_tables.ceiling_cases(),
    ]


def lifecycle_cases() -> list[dict]:
    """Each declared version's example under its own version, under its predecessor, and under the latest rules; then the boundary pairs.

    The latest-rules case pins what every later ADR kept of the story, so an
    implementation that claims only the latest rules is still held to it.
    """
    cases, latest = [], default_version()
    for version in declarations():
        if version.example is None:
            continue
        rules, before = list(version.example_rules), predecessor(version.name).name
        cases.append(example(f"lifecycle.{version.name}", version.example, rules))
        cases.append(example(f"lifecycle.{version.name}.under-{before}", version.example, rules, before))
        if version.name != latest:
            cases.append(example(f"lifecycle.{version.name}.under-latest", version.example, rules, latest))
    waited_for_input = [{"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"},
                        {"op": "suspend", "run": "r", "reason": "input"}, {"op": "resume", "run": "r"}]
    cases.append(case("lifecycle.resume.with-input-left-out", "A resume that leaves with_input out resumes without input, "
                      "whatever its suspend waited for: the run waited for typed input, and the resume's with_input is false.", ["S001.7"],
                      world(), waited_for_input))
    boundary = boundary_lifecycle.cases() + ceiling_texts.lifecycle_cases()
    integers = boundary_integers.lifecycle_cases() + boundary_integers.lifecycle_cases("nr-llm")
    return cases + readings.lifecycle_cases() + changes.lifecycle_cases() + boundary + integers + stated.lifecycle_cases() + stated.profile_cases()


FAMILIES = {
    "ceiling": ("The trust ceiling on one send: sources, fold, zone, decision and what it records.", ceiling_cases),
    "lifecycle": ("A run's forced sources over time: queued, dequeued, suspended, resumed, under each rule version.", lifecycle_cases),
}


def compute_family(name: str) -> dict:
    description, cases = FAMILIES[name]
    return {"family": name, "description": description, "cases": [with_expected(entry) for entry in cases()]}


def documents() -> dict[str, dict]:
    """Every file of the corpus by its path under the corpus folder; CorpusError for a case it cannot hold."""
    files = {f"{name}.json": compute_family(name) for name in FAMILIES}
    files[REFUSALS_FILE] = refusal_family()
    files |= {f"gateway/{name}.json": document for name, document in gateway_corpus.compute_corpus().items()}
    seen: set[str] = set()
    for document in files.values():
        for entry in document["cases"]:
            if entry["id"] in seen:
                raise CorpusError(f"corpus case {entry['id']}: the id is used by another case: ids must be unique")
            seen.add(entry["id"])
    return files


def build(root: Path = CORPUS_ROOT) -> list[Path]:
    """Write every file under ``root``, only once every case has its outcome (a bad case leaves the corpus as it was); the paths."""
    written = []
    for name, document in documents().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(dumps_pretty(document) + b"\n")
        written.append(path)
    return written


def write_derived(repository: Path) -> list[Path]:
    """Rewrite the files derived from the rule versions' declarations (``corpus.declared``); the paths."""
    texts = derived_files(lambda name: (repository / name).read_text(encoding="utf-8"))
    for name, text in texts.items():
        (repository / name).write_text(text, encoding="utf-8")
    return [repository / name for name in texts]


def rebuild(command: str, root: Path = CORPUS_ROOT) -> list[Path]:
    """:func:`build`, and :func:`write_derived` when it builds the shipped corpus, for a command run from a checkout: outside
    one, or for a case the corpus cannot hold, the reason on stderr and exit status 2."""
    repository = refuse_outside_checkout(command)
    try:
        return (write_derived(repository) if root == CORPUS_ROOT else []) + build(root)
    except (CorpusError, ValueError) as error:
        print(f"gateproof: error: {error}", file=sys.stderr)
        raise SystemExit(USAGE_ERROR) from None


if __name__ == "__main__":
    rebuild("python -m gateproof.conformance.corpus.build", Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS_ROOT)
