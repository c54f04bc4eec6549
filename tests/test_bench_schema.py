"""The measurement of what each JSON Schema validator earns runs and reports figures that make sense."""

from gateproof.conformance.bench.schema import broken, measure


def test_the_schema_validators_figures_are_measured():
    lines: list[str] = []
    figures = measure(20, print=lines.append)
    assert len(lines) == 2 and figures["invalid"] > 0 and 0 <= figures["same_field"] <= figures["invalid"]
    assert all(figures[name] > 0 for name in ("jsonschema_rs", "jsonschema", "decide"))


def test_a_broken_document_differs_from_its_original_in_one_place():
    import json
    from random import Random

    original = {"a": {"b": [1, 2]}, "c": "x"}
    for seed in range(20):
        assert json.dumps(broken(original, Random(seed))) != json.dumps(original)  # JSON's view: true is not 1
    assert original == {"a": {"b": [1, 2]}, "c": "x"}
