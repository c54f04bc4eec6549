"""Reading the shipped corpus, and writing it out for runners in other languages."""

from __future__ import annotations

import shutil
from pathlib import Path

from attrs import frozen

from ..harness.documents import dumps_pretty, parse_json
from ..harness.paths import path_component
from .build import CORPUS_ROOT
from .refusals import REFUSALS_FILE


@frozen
class CorpusCase:
    """One case of the corpus: its stable id, the file it comes from, the rules it pins, and the expected outcome."""

    id: str
    family: str  # the file, relative to the corpus root, without .json: "ceiling", "gateway/injection"
    description: str
    rules: tuple[str, ...]
    scenario: dict
    expected: dict


def corpus_files(root: Path = CORPUS_ROOT) -> list[Path]:
    """Every family file: ``ceiling.json``, ``lifecycle.json`` and the gateway's group files; not the refusal corpus, of invalid documents."""
    return [p for p in sorted(root.glob("*.json")) if p.name != REFUSALS_FILE] + sorted(root.glob("*/*.json"))


def load_corpus(root: Path = CORPUS_ROOT) -> list[CorpusCase]:
    cases = []
    for path in corpus_files(root):
        family = path.relative_to(root).with_suffix("").as_posix()
        for entry in parse_json(path.read_bytes(), repeats=None, limit=None)["cases"]:  # a proposal may repeat a key
            cases.append(CorpusCase(entry["id"], family, entry["description"], tuple(entry["rules"]), entry["scenario"], entry["expected"]))
    return cases


def export_corpus(destination: Path, root: Path = CORPUS_ROOT) -> list[Path]:
    """Copy every family file under ``destination``, keeping the layout; the written paths."""
    written = []
    for path in corpus_files(root):
        target = destination / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        written.append(target)
    return written


def export_scenarios(destination: Path, root: Path = CORPUS_ROOT) -> list[Path]:
    """Write each case's scenario alone as ``destination/FAMILY/ID.json``, a file ``decide``, ``explain`` and ``verify
    --replay`` take as it is; the written paths. Repeated keys and large integers are written as the corpus holds them."""
    written = []
    for case in load_corpus(root):
        target = destination / case.family / f"{path_component(case.id)}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(dumps_pretty(case.scenario) + b"\n")
        written.append(target)
    return written
