"""Wrong readings of the rules in another language: one-change variants of the Node implementation, each driven by verify.

``python -m gateproof.conformance.mutation.variants`` (``make variants``).
Mutants of the model measure the suite against changes made by the hands
that wrote its generators; these measure it against the mistakes a team
writing its own gateway from ``adr/`` makes. Each variant in
``node_variants.json`` is the independent Node implementation with one
reading of one rule changed, the way a developer reading the ADR might have
read it: JavaScript's Unicode-aware ``trim`` where PHP's is ASCII-only,
``<=`` for ``<`` at an expiry, an approval matched on fewer fields, a tie
broken by uid. Its edits are literal replacements, each of a text that
occurs exactly once in the top-level declaration its ``anchor`` opens (the
declaration's first line: ``function fold(sources) {``), so an edit
elsewhere in the file leaves it as it was, and a variant that no longer
applies fails loudly rather than testing something else.

Every variant is copied into a folder of its own and driven by the default
``verify`` campaign (stopped at its first disagreement). A variant verify
passes is a survivor: a gap in the generators or the corpus, to be closed
with the scenario that tells it apart. A few are listed as equivalent, with
the reason no scenario can tell them from the implementation; one of those
verify catches is reported too. Exit status: 0 when every variant not
listed as equivalent is caught and none listed is, 1 otherwise, 2 for bad
input (an unknown variant, node not on PATH).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click
import orjson
from attrs import frozen

from gateproof.model.gateway.catalog import SHIPPED_DIR

from ..cli.catalog import read_catalog_file
from ..figure_pages import machine, write_page
from .execute import first_failure, json_lines

NODE_SOURCES = Path(__file__).resolve().parents[1] / "implementations" / "node"
VARIANTS_FILE = Path(__file__).resolve().parent / "node_variants.json"
CAUGHT, SURVIVED, ERROR = "caught", "survived", "error"


class VariantError(Exception):
    """A variant that cannot be made from the implementation as it stands, said in one line."""


@frozen
class Edit:
    file: str  # a file of the Node implementation
    old: str  # text that occurs exactly once in the declaration ``anchor`` opens (in the whole file without one)
    new: str
    anchor: str | None = None  # the first line of the top-level declaration the text sits in


#: The first line of a top-level declaration of a Node module: where one declaration ends and the next begins.
TOP_LEVEL = re.compile(r"^(?:async\s+)?(?:function|const|let|var|class)\b|^module\.exports\b", re.M)


def _region(text: str, anchor: str | None) -> tuple[int, int] | None:
    """Where the declaration ``anchor`` opens lies in ``text`` (the whole text without one); None unless it opens exactly one."""
    if anchor is None:
        return 0, len(text)
    starts = [m.start() for m in re.finditer(f"^{re.escape(anchor)}$", text, re.M)]
    if len(starts) != 1:
        return None
    following = TOP_LEVEL.search(text, text.index("\n", starts[0]) + 1 if "\n" in text[starts[0]:] else len(text))
    return starts[0], following.start() if following else len(text)


@frozen
class Variant:
    name: str
    rule: str  # the rule id (or ids) the change reads otherwise
    description: str
    edits: tuple[Edit, ...]
    equivalent: str | None = None  # why no scenario tells it apart, for the few listed so
    #: The shipped catalog (model/catalogs/NAME.json) a run without --catalog drives it under: it reads a field the lab's
    #: catalog does not use, so only a campaign under a catalog that uses it can tell it apart.
    catalog: str | None = None


@frozen
class Outcome:
    variant: Variant
    status: str  # caught, survived or error
    seconds: float
    failed: int = 0
    first: str = ""  # the first scenario verify failed it on
    detail: str = ""
    read: int = 0  # lines of verify's output a person reads to see the first disagreement whole (first_block)


def first_block(output: str) -> int:
    """How many lines verify's terminal output gives its first disagreement: from its heading to the blank line after its commands."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if re.match(r"\S+ (failed|errored): ", line)), None)
    if start is None:
        return 0
    return next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines)) - start


def reached(module: str, sources: Path = NODE_SOURCES) -> set[str]:
    """The Node module and every module it requires, however deep."""
    found, waiting = set(), [module]
    while waiting:
        name = waiting.pop()
        if name not in found:
            found.add(name)
            waiting += [f"{required}.js" for required in re.findall(r"require\('\./([\w-]+)'\)", (sources / name).read_text(encoding="utf-8"))]
    return found


def is_gateway(variant: Variant, sources: Path = NODE_SOURCES) -> bool:
    """Whether the variant reads a gateway rule otherwise: a G rule, or a change to a module only a gateway scenario runs."""
    gateway_only = reached("gateway.js", sources) - reached("ceiling.js", sources) - reached("lifecycle.js", sources)
    return variant.rule.startswith("G") or any(edit.file in gateway_only for edit in variant.edits)


def read_variants(path: Path = VARIANTS_FILE) -> list[Variant]:
    return [Variant(v["name"], v["rule"], v["description"], tuple(Edit(**e) for e in v["edits"]), v.get("equivalent"), v.get("catalog"))
            for v in orjson.loads(path.read_bytes())]


def campaign_options(variant: Variant, options: tuple[str, ...]) -> tuple[str, ...]:
    """verify's options for the variant: those given, and its own catalog's campaign when none is given."""
    if variant.catalog is None or "--catalog" in options:
        return options
    return (*options, "--catalog", str(SHIPPED_DIR / f"{variant.catalog}.json"), "--kinds", "gateway")


def _position(text: str, edit: Edit) -> int | None:
    """Where the edit's text starts in ``text``, or None unless it starts exactly once in its declaration."""
    region = _region(text, edit.anchor)
    if region is None:
        return None
    found = [m.start() for m in re.finditer(re.escape(edit.old), text) if region[0] <= m.start() < region[1]]
    return found[0] if len(found) == 1 else None


def changed_files(variant: Variant, sources: Path = NODE_SOURCES) -> dict[str, str]:
    """Each file the variant changes, with its text after every edit; VariantError when an edit's text is not in its place once.

    Every edit of a file is found in the file as it stands, then all are made, so one edit may change another's anchor.
    """
    texts: dict[str, str] = {}
    for name in dict.fromkeys(edit.file for edit in variant.edits):
        try:
            text = (sources / name).read_text(encoding="utf-8")
        except OSError as error:
            raise VariantError(f"{variant.name}: cannot read {name}: {error.strerror}") from None
        placed = []
        for edit in (e for e in variant.edits if e.file == name):
            start = _position(text, edit)
            if start is None or edit.old == edit.new:
                where = f"the declaration {edit.anchor!r}" if edit.anchor else "it"
                why = "makes no change" if edit.old == edit.new else f"replaces a text that does not start exactly once in {where}"
                raise VariantError(f"{variant.name}: an edit of {name} {why}")
            placed.append((start, edit))
        for start, edit in sorted(placed, key=lambda pair: pair[0], reverse=True):
            text = text[:start] + edit.new + text[start + len(edit.old):]
        texts[name] = text
    return texts


def made(variant: Variant, folder: Path, sources: Path = NODE_SOURCES) -> Path:
    """The variant written into ``folder`` (the whole implementation, its files changed); its entry point."""
    shutil.copytree(sources, folder)
    for name, text in changed_files(variant, sources).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder / "gateproof-node.js"


def drive(variant: Variant, work: Path, options: tuple[str, ...] = (), timeout: float = 300.0) -> Outcome:
    """The default verify campaign against one variant (under its own catalog, if it names one), with verify's ``options`` added,
    stopped at its first disagreement."""
    entry = made(variant, work / "node")
    out = work / "verify"
    command = [sys.executable, "-m", "gateproof.conformance.cli", "verify", "-x", "--out", str(out), "--report", "json",
               *campaign_options(variant, options)]
    started = time.monotonic()
    try:
        done = subprocess.run([*command, "--", "node", str(entry)], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome(variant, ERROR, time.monotonic() - started, detail=f"verify ran past {timeout:g}s")
    seconds = time.monotonic() - started
    # A verify that wrote no report did not finish, whatever its status says: Python exits 1 on an uncaught error too.
    if done.returncode not in (0, 1) or not (out / "report.json").is_file():
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        return Outcome(variant, ERROR, seconds, detail=f"verify exited {done.returncode} without its report: {tail[0]}")
    [tally] = orjson.loads((out / "report.json").read_bytes())["implementations"]
    status = CAUGHT if done.returncode == 1 else SURVIVED
    failure = first_failure(json_lines(out / "results.jsonl")) or {}
    return Outcome(variant, status, seconds, tally.get("failed", 0), failure.get("scenario", ""), read=first_block(done.stdout.decode("utf-8", "replace")))


def drive_all(variants: list[Variant], jobs: int = 1, options: tuple[str, ...] = (), report=lambda outcome: None) -> list[Outcome]:
    """Every variant driven, ``jobs`` at a time, each in a folder of its own; the outcomes in the variants' order."""
    with tempfile.TemporaryDirectory(prefix="gateproof-variants-") as root:
        def one(numbered: tuple[int, Variant]) -> Outcome:
            number, variant = numbered
            outcome = drive(variant, Path(root) / str(number), options)
            report(outcome)
            return outcome

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, enumerate(variants)))


def problems(outcomes: list[Outcome]) -> list[str]:
    """What needs work: a variant verify passes, one listed as equivalent that it catches, one it could not drive."""
    found = []
    for outcome in outcomes:
        variant = outcome.variant
        if outcome.status == ERROR:
            found.append(f"{variant.name}: not driven: {outcome.detail}")
        elif outcome.status == SURVIVED and variant.equivalent is None:
            found.append(f"{variant.name} survived [{variant.rule}]: {variant.description}")
        elif outcome.status == CAUGHT and variant.equivalent is not None:
            found.append(f"{variant.name} is listed as equivalent but was caught, by {outcome.first}: take it off the list")
    return found


def summary(outcomes: list[Outcome]) -> list[str]:
    """Per family of rules, and in all: variants, caught, survived, equivalent; with the median seconds to catch."""
    def family(outcome: Outcome) -> str:
        return "gateway" if outcome.variant.rule.startswith("G") else "ceiling and lifecycle"  # C and S rules: a ceiling story

    lines = [f"{'rules':<22} {'variants':>8} {'caught':>7} {'survived':>9} {'equivalent':>11}"]
    for name in sorted({family(o) for o in outcomes}) + ["all"]:
        chosen = [o for o in outcomes if name == "all" or family(o) == name]
        count = Counter("equivalent" if o.variant.equivalent is not None and o.status == SURVIVED else o.status for o in chosen)
        lines.append(f"{name:<22} {len(chosen):>8} {count[CAUGHT]:>7} {count[SURVIVED]:>9} {count['equivalent']:>11}")
    seconds = sorted(o.seconds for o in outcomes if o.status == CAUGHT)
    if seconds:
        lines.append(f"a caught variant took {seconds[len(seconds) // 2]:.1f}s of verify (median), at most {seconds[-1]:.1f}s")
    read = sorted(o.read for o in outcomes if o.status == CAUGHT)
    if read:
        lines.append(f"its first disagreement, as verify prints it: {read[len(read) // 2]} lines to read (median), at most {read[-1]}")
    return lines


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--variant", "names", multiple=True, help="Only this variant (repeat for more).")
@click.option("--jobs", type=click.IntRange(1, 16), default=1, show_default=True, help="Variants driven at once (each verify runs two processes).")
@click.option("--examples", type=click.IntRange(min=0), default=None, help="verify's --examples (default: verify's own).")
@click.option("--corpus/--no-corpus", default=True, help="--no-corpus: the generated scenarios alone, to measure the generators.")
@click.option("--seed", type=int, default=None, help="verify's --seed (default: verify's own): how the generators fare on other scenarios.")
@click.option("--catalog", "catalog", metavar="FILE", type=click.Path(dir_okay=False),
              help="verify's --catalog: the gateway's variants driven by the campaign under this tool catalog (its boundary pairs, then generated scenarios).")
@click.option("--list", "listing", is_flag=True, help="List the variants (name, rule, change) without driving them.")
def main(names: tuple[str, ...], jobs: int, examples: int | None, corpus: bool, seed: int | None, catalog: str | None, listing: bool) -> None:
    """Drive every one-change variant of the Node implementation with the default verify campaign."""
    variants = read_variants()
    if catalog is not None:
        read_catalog_file(catalog, "--catalog ")  # a catalog verify would refuse is refused here, in one line, before any variant is made
        variants = [v for v in variants if is_gateway(v)]
    unknown = sorted(set(names) - {v.name for v in variants})
    try:
        if unknown:
            raise VariantError(f"--variant {unknown[0]}: no such {'gateway ' if catalog else ''}variant in {VARIANTS_FILE.name} (see --list)")
        chosen = [v for v in variants if not names or v.name in names]
        for variant in chosen:
            changed_files(variant)
    except VariantError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    if listing:
        for variant in chosen:
            click.echo(f"{variant.name}  [{variant.rule}]  {variant.description}")
        return
    if shutil.which("node") is None:
        click.echo("error: node is not on PATH: the variants are of the Node implementation", err=True)
        sys.exit(2)

    def report(outcome: Outcome) -> None:
        found = f", {outcome.failed} failed, first {outcome.first}" if outcome.status == CAUGHT else (f": {outcome.detail}" if outcome.detail else "")
        click.echo(f"{outcome.variant.name}: {outcome.status} in {outcome.seconds:.1f}s{found}")

    options = [] if corpus else ["--no-corpus"]
    if catalog is not None:
        options += ["--catalog", str(Path(catalog).resolve()), "--kinds", "gateway"]
    for name, value in (("--examples", examples), ("--seed", seed)):
        if value is not None:
            options += [name, str(value)]
    started_on, started = machine(), time.monotonic()
    outcomes = drive_all(chosen, jobs, tuple(options), report)
    found = problems(outcomes)
    printed = [*summary(outcomes), f"{len(outcomes)} variants in {time.monotonic() - started:.0f}s, {jobs} at a time", *found]
    click.echo("")
    for line in printed:
        click.echo(line)
    if not names and not options:  # every variant through the default campaign: the run the page holds
        write_page("variants.md", "make variants: wrong readings of the rules, caught or not",
                   "make variants (python -m gateproof.conformance.mutation.variants)", started_on, printed)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
