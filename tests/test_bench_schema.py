"""The measurement of what validation costs and how well its error aims runs and reports figures that make sense."""

from gateproof.conformance.bench.schema import broken, measure


def test_the_schema_validators_figures_are_measured():
    lines: list[str] = []
    figures = measure(20, print=lines.append)
    assert len(lines) == 2 and figures["invalid"] > 0 and 0 <= figures["aimed"] <= figures["invalid"]
    assert all(figures[name] > 0 for name in ("jsonschema_rs", "decide"))


def test_a_broken_document_differs_from_its_original_in_one_place():
    import json
    from random import Random

    original = {"a": {"b": [1, 2]}, "c": "x"}
    for seed in range(20):
        document, path = broken(original, Random(seed))
        assert json.dumps(document) != json.dumps(original)  # JSON's view: true is not 1
        assert path and path[0] in original
    assert original == {"a": {"b": [1, 2]}, "c": "x"}
