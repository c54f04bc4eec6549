"""The tests the plugin adds, built as pytest documents for tests that are not Python functions.

They are collected from the ini file that holds the gateproof settings: its
path is their file part (``pyproject.toml::corpus::gw.cross-tenant.read``),
so ``pytest pyproject.toml`` runs them alone, a node id selects one, and
``pytest tests/test_x.py`` runs none. One item per corpus case of the kinds
and rules chosen, one per rule version that searches generated scenarios,
or, with ``--gateproof-replay``, one per saved scenario; each carries the
``gateproof`` marker.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest._code.code import ReprEntryNative, ReprExceptionInfo, ReprFileLocation, ReprTraceback

from ..corpus.load import load_corpus
from ..harness.hunt import CONFIRMATIONS, model_outcome
from ..harness.protocol import scenario_rules
from .command import ImplementationSkipped
from .failure import Failure, failure_text, save
from .options import PluginSettings
from .search import Found, Search, check

PLUGIN_DIR = Path(__file__).resolve().parent


def whole_text(text: str, path: Path) -> ReprExceptionInfo:
    """The failure as pytest shows an exception: the whole text in the failures section, its first line as the crash message.

    A bare string would be the short summary's message too, and pytest prints
    that message whole when it runs in CI: every failure would be printed
    twice. This form also crosses pytest-xdist's wire intact.
    """
    lines = [line + "\n" for line in text.splitlines()]
    return ReprExceptionInfo(reprtraceback=ReprTraceback([ReprEntryNative(lines)], None, "native"),
                             reprcrash=ReprFileLocation(str(path), 0, text.splitlines()[0] if text else ""))


def checked(settings: PluginSettings, family: str, scenario: dict, expected: dict, pinned: tuple[str, ...] = ()):
    """:func:`check`, with a scenario the implementation answers ``skipped`` skipped as pytest skips a test."""
    try:
        return check(settings.target, family, settings.run, scenario, expected, pinned)
    except ImplementationSkipped as skipped:
        pytest.skip(f"the implementation does not decide it: {skipped}")


class GateproofFile(pytest.File):
    """The ini file, as the collector of the gateproof items: a group for the corpus and one for generated scenarios, or the replays."""

    def __init__(self, *, settings: PluginSettings, **kwargs):
        super().__init__(**kwargs)
        self.settings = settings

    def collect(self):
        groups = ("replay",) if self.settings.replays else ("corpus", "generated")
        return [Group.from_parent(self, name=name) for name in groups]


class Group(pytest.Collector):
    """``corpus``, ``generated`` or ``replay``: the first part of an item's name, so ``-k generated`` selects one group."""

    def collect(self):
        s = self.parent.settings
        if self.name == "replay":
            return [ReplayItem.from_parent(self, name=path.name, scenario=scenario, source=path) for path, scenario in s.replays]
        if self.name == "corpus":
            return [CorpusItem.from_parent(self, name=case.id, case=case) for case in load_corpus()
                    if case.scenario.get("kind", "ceiling") in s.kinds and scenario_rules(case.scenario) in s.rules]
        return [GeneratedItem.from_parent(self, name=name, kind=kind, version=version, share=part, index=index)
                for kind, version, share in s.shares() for index, (name, part) in enumerate(sliced(version, share, s.slices)) if part]


def sliced(version: str, share: int, slices: int) -> list[tuple[str, int]]:
    """(item name, scenarios) of each slice of a rule version's search: ``lab-001`` whole, or ``lab-001.1of4`` to ``lab-001.4of4``."""
    if slices == 1:
        return [(version, share)]
    return [(f"{version}.{n + 1}of{slices}", share // slices + (n < share % slices)) for n in range(slices)]


class GateproofItem(pytest.Item):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.settings: PluginSettings = self.parent.parent.settings
        self.add_marker("gateproof")

    def fail_with(self, found: Found, heading: str = "scenario", saved: Path | None = None) -> None:
        """Fail with the whole story; the scenario is saved for the replay command unless it came from ``saved``."""
        saved = saved or save(found, (self.parent.name, self.name), self.settings)
        width = max(60, self.config.get_terminal_writer().fullwidth - 4)
        text = failure_text(found, self.settings, saved, self.config.invocation_params.dir, width, heading, self.tbstyle())
        raise Failure(text, found.raised.error if found.raised is not None else None)

    def tbstyle(self) -> str:
        """``--tb``: ``line``, ``short``, or anything else for the whole story."""
        return self.config.getoption("tbstyle", "auto") or "auto"

    def repr_failure(self, excinfo, style=None):
        if not isinstance(excinfo.value, Failure):
            return super().repr_failure(excinfo, style)
        failure = excinfo.value
        if self.tbstyle() == "line":  # pytest prints the crash line alone; the representation adds nothing to it
            return ReprExceptionInfo(reprtraceback=ReprTraceback([], None, "line"), reprcrash=ReprFileLocation(str(self.path), 0, failure.text))
        if failure.raised is None:
            return whole_text(failure.text, self.path)
        # The gateway's own frames first: the plugin's and pytest's are trimmed away.
        raised = pytest.ExceptionInfo.from_exception(failure.raised)
        raised.traceback = raised.traceback.filter(lambda entry: PLUGIN_DIR not in Path(entry.path).parents)
        representation = self._repr_failure_py(raised, style or ("short" if self.tbstyle() == "short" else "long"))
        representation.addsection("gateproof", failure.text)
        return representation

    def reportinfo(self):
        # The heading of a failure: "corpus gw.cross-tenant.read". Not a suffix of the node id, so the -v line keeps the id as it is.
        return self.path, None, f"{self.parent.name} {self.name}"


class CorpusItem(GateproofItem):
    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        c = self.case
        found = checked(self.settings, c.family, c.scenario, c.expected, c.rules)
        if found is not None:
            self.fail_with(found)


class ReplayItem(GateproofItem):
    def __init__(self, *, scenario: dict, source: Path, **kwargs):
        super().__init__(**kwargs)
        self.scenario, self.source = scenario, source

    def runtest(self) -> None:
        found = checked(self.settings, "replay", self.scenario, model_outcome(self.scenario))
        if found is not None:
            self.fail_with(found, saved=self.source)


class GeneratedItem(GateproofItem):
    def __init__(self, *, kind: str, version: str, share: int, index: int = 0, **kwargs):
        super().__init__(**kwargs)
        key = f"{self.nodeid}\0{self.settings.target}".encode()
        # Under --hypothesis-seed every slice would draw the same scenarios: each draws from the seed and its own index.
        forced = self.config.getoption("hypothesis_seed", None)
        seed = None if forced is None or self.settings.slices == 1 else f"{forced}/{index}"
        self.search = Search(self.settings.target, self.settings.run, kind, version, share, key, seed)
        self.obj = self.search.test  # what hypothesis's pytest plugin looks at for its statistics and reporting

    def runtest(self) -> None:
        try:
            self.search.test()
        except Exception:
            if self.search.found is None:
                raise
        first = self.search.found
        if first is None:
            return
        reduced, tried = self.search.reduced(first)
        expected = model_outcome(reduced.scenario)
        # Confirmed by two more runs, as verify confirms: an answer that alternates cannot pass both.
        again = [check(self.settings.target, self.search.family, self.settings.run, reduced.scenario, expected) for _ in range(CONFIRMATIONS)]
        if any(found is None or found.signature() != reduced.signature() for found in again):
            self.fail_with(reduced, "scenario (answered differently when run again: the gateway is nondeterministic)")
        self.fail_with(again[-1], f"scenario (reduced in {tried} candidates)")
