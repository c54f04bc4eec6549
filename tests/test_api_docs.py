"""The Python API reference's examples run as written, and each public name is importable from the package itself."""

from __future__ import annotations

import doctest
from pathlib import Path

import gateproof

API = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def test_every_example_of_the_api_reference_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # verify's results folder goes there, not into the checkout
    failures, tried = doctest.testfile(str(API), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert tried >= 20 and failures == 0


def test_every_public_name_is_importable_and_an_unknown_one_is_an_attribute_error():
    for name in gateproof.__all__:
        assert getattr(gateproof, name) is not None
    try:
        gateproof.no_such_name
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("an unknown name was found")


def test_the_package_is_typed_and_versioned():
    from importlib.metadata import version

    assert (Path(gateproof.__file__).parent / "py.typed").is_file()
    assert gateproof.__version__ == version("gateproof")


def test_each_strategy_draws_scenarios_the_model_reads_of_its_kind_and_rules():
    kinds = {"ceiling_scenarios": ("ceiling", "adr-175"), "lifecycle_scenarios": ("ceiling", "adr-166"),
             "gateway_scenarios": ("gateway", "lab-001+next")}
    for name, (kind, rules) in kinds.items():
        documents = _drawn(getattr(gateproof, name)(rules=rules))
        assert len(documents) == 15
        for document in documents:
            outcome = gateproof.run_scenario(gateproof.read_scenario(document))
            assert document.get("kind", "ceiling") == kind and outcome["rules"] == rules
            assert len(outcome["results"]) == len(document["steps"])
    stories = _drawn(gateproof.lifecycle_scenarios(rules="adr-166"), 40)
    assert any(step["op"] == "suspend" for story in stories for step in story["steps"])  # a run's life, not sends alone


def _drawn(strategy, count: int = 15) -> list[dict]:
    """``count`` documents the strategy draws."""
    from hypothesis import HealthCheck, given, settings

    documents: list[dict] = []

    @settings(max_examples=count, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(document):
        documents.append(document)

    collect()
    return documents



def test_the_metadata_states_the_license_and_the_pythons_it_runs_on_and_claims_no_address():
    """No public address exists for the project, so the metadata names none: no Home-page, no Project-URL."""
    import re
    from importlib.metadata import metadata

    root = API.parent.parent
    about = metadata("gateproof")
    assert about["License-Expression"] == "MIT" and about.get_all("License-File") == ["LICENSE"]
    assert (root / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "Home-page" not in about and "Project-URL" not in about and "Download-URL" not in about
    classifiers = about.get_all("Classifier")
    assert "Typing :: Typed" in classifiers and not any(c.startswith("License ::") for c in classifiers)  # the expression alone says it
    oldest = int(re.fullmatch(r">=3\.(\d+)", about["Requires-Python"])[1])
    versions = sorted(int(c.rsplit(".", 1)[1]) for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert versions == list(range(oldest, versions[-1] + 1))  # every minor version from the oldest supported, none skipped
    assert f"\n## {gateproof.__version__} " in (root / "CHANGELOG.md").read_text(encoding="utf-8")
