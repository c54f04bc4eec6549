"""``read_parsed_scenario``, the protocol server's reader of text it has just parsed, reads and refuses as ``read_scenario`` does."""

import pytest

from gateproof.conformance.corpus.refusals import REFUSALS_FILE, raw_text, read_refusals
from gateproof.conformance.corpus.build import CORPUS_ROOT
from gateproof.conformance.generation.ceiling import scenarios_on_a_world
from gateproof.conformance.generation.draw import Draw
from gateproof.conformance.generation.gateway import gateway_scenario
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.documents import dumps
from gateproof.conformance.mutation.answers import as_the_server_parses
from gateproof.model.scenario import ScenarioError, read_scenario
from gateproof.model.scenario.read import read_parsed_scenario


def reading(reader, document):
    try:
        return reader(document)
    except ScenarioError as error:
        return ("refused", error.path, error.problem)


@pytest.mark.rule("S001.12")
def test_parsed_documents_read_as_read_scenario_reads_them():
    texts = [dumps(case.scenario) for case in load_corpus()]
    texts += [dumps(scenarios_on_a_world(Draw(seed), "adr-179", seed)[0]) for seed in range(300)]
    texts += [dumps(gateway_scenario(Draw(seed), "lab-001+next", seed)) for seed in range(300)]
    for text in texts:
        document = as_the_server_parses(text)
        assert reading(read_parsed_scenario, document) == reading(read_scenario, as_the_server_parses(text))


@pytest.mark.rule("S001.6")
def test_a_key_written_twice_and_integers_past_64_bits_are_judged_as_read_scenario_judges_them():
    twice = b'{"gateproof": 1, "id": "t", "id": "u", "world": {}, "steps": []}'
    assert reading(read_parsed_scenario, as_the_server_parses(twice)) == reading(read_scenario, as_the_server_parses(twice))
    assert reading(read_parsed_scenario, as_the_server_parses(twice))[0] == "refused"
    big = b'{"gateproof": 1, "id": "b", "world": {"enforcement": 18446744073709551616}, "steps": [{"op": "classify", "configuration": "c"}]}'
    assert reading(read_parsed_scenario, as_the_server_parses(big)) == reading(read_scenario, as_the_server_parses(big))


@pytest.mark.rule("S001.1")
def test_every_refusal_document_parsed_from_its_text_is_refused_or_read_alike():
    compared = 0
    for case in read_refusals(CORPUS_ROOT / REFUSALS_FILE):
        text = raw_text(case)
        try:
            document = as_the_server_parses(text)
        except ScenarioError:
            continue  # refused by the reader itself, before either function sees it
        assert reading(read_parsed_scenario, document) == reading(read_scenario, as_the_server_parses(text)), case
        compared += 1
    assert compared >= 40
