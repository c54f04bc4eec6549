"""A corpus case the corpus cannot hold stops the build naming the case, before any file is rewritten."""

from __future__ import annotations

import pytest

from gateproof.conformance.corpus import build
from gateproof.conformance.corpus.cases import CorpusError, case, send, world


def families_with(monkeypatch, *extra: dict) -> None:
    """The ceiling family with ``extra`` cases after its own."""
    description, cases = build.FAMILIES["ceiling"]
    monkeypatch.setitem(build.FAMILIES, "ceiling", (description, lambda: [*cases(), *extra]))


def test_an_invalid_scenario_is_named_by_its_case_and_its_field(monkeypatch, tmp_path):
    families_with(monkeypatch, case("ceiling.bad", "A send to a configuration the world lacks.", ["C144.9"], world(), [send(configuration="nowhere")]))
    with pytest.raises(CorpusError, match=r"^corpus case ceiling\.bad: its scenario is not valid: \$\.steps\[0\]\.configuration: "):
        build.build(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_an_id_used_twice_is_refused(monkeypatch, tmp_path):
    families_with(monkeypatch, case("ceiling.dry-run-not-gated", "A second case under a used id.", ["C164.5"], world(), [send()]))
    with pytest.raises(CorpusError, match=r"^corpus case ceiling\.dry-run-not-gated: the id is used by another case"):
        build.build(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_command_says_it_in_one_line_with_exit_status_2(monkeypatch, tmp_path, capsys):
    families_with(monkeypatch, case("ceiling.bad", "An unknown field.", ["C144.9"], world() | {"colour": "red"}, [send()]))
    with pytest.raises(SystemExit) as stopped:
        build.rebuild("gateproof corpus build", tmp_path)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("gateproof: error: corpus case ceiling.bad: its scenario is not valid: $.world") and err.count("\n") == 1
    assert "Traceback" not in err
