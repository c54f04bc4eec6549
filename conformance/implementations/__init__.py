"""Implementations the conformance suite drives: each exposes ``run(scenario_document) -> outcome_document``."""
