"""A world read once for the documents in a row that hold it: by the dict itself in the harness, by its JSON text in reference."""

from itertools import islice

import pytest

from gateproof.conformance.generation import scenarios
from gateproof.conformance.harness.documents import dumps
from gateproof.conformance.harness.shared_worlds import WorldsReadOnce, json_text
from gateproof.conformance.implementations import reference
from gateproof.conformance.mutation.answers import as_the_server_parses
from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.scenario.document import RepeatedKeys
from gateproof.model.versions import VERSIONS

TARGETS = [("ceiling", v) for v in sorted(VERSIONS)] + [("gateway", v) for v in sorted(GATEWAY_VERSIONS)]


def outcome(decide, document):
    try:
        return decide(document)
    except ScenarioError as error:
        return ("refused", error.path, error.problem)


@pytest.mark.parametrize("kind, version", TARGETS)
def test_reference_answers_documents_parsed_anew_in_campaign_order_as_the_model_answers_each_alone(kind, version):
    texts = [dumps(document) for document in islice(scenarios(kind, version, 3), 300)]
    for text in texts:
        assert outcome(reference.run, as_the_server_parses(text)) == outcome(lambda d: run_scenario(read_scenario(d)), as_the_server_parses(text))


def world_document(enforcement) -> dict:
    return {"gateproof": 1, "id": "w", "world": {"configurations": [{"identifier": "c"}], "enforcement": enforcement},
            "steps": [{"op": "classify", "configuration": "c"}]}


def test_a_world_known_again_by_its_text_is_read_once_and_a_world_equal_only_as_values_is_read_again():
    read = WorldsReadOnce(key=json_text)
    first = read(world_document(1))
    assert read(world_document(1)).world is first.world  # parsed anew, the same text
    for alike in (1.0, True):  # equal to 1 as Python values, another document as text
        again = read(world_document(alike))
        assert again.world is not first.world and again.world.enforcement is alike
        first = again


def test_a_world_json_cannot_write_as_read_has_no_text_and_is_read_every_time():
    assert json_text(RepeatedKeys([("enforcement", "observe"), ("enforcement", "enforce")])) is None
    assert json_text({"enforcement": 2**64}) is None
    read = WorldsReadOnce(key=json_text)
    assert read(world_document(2**64)).world is not read(world_document(2**64)).world


def test_a_world_refused_while_read_leaves_the_world_read_before_it_held():
    read = WorldsReadOnce(key=json_text)
    first = read(world_document(1))
    twice = world_document(1)
    twice["world"]["configurations"] *= 2  # one identifier twice (S001.1)
    for _ in range(2):
        with pytest.raises(ScenarioError, match="duplicate identifier"):
            read(twice)
    assert read(world_document(1)).world is first.world


def test_the_harness_knows_a_world_by_the_dict_itself_not_by_what_it_holds():
    read, document = WorldsReadOnce(), world_document("observe")
    first = read(document)
    assert read(dict(document, id="again")).world is first.world  # the same world dict
    assert read(world_document("observe")).world is not first.world  # an equal dict, another world
