"""Documents built in Python and handed to read_scenario or run_scenario: tracebacks on hostile values never, the field always named (S001.12).

A document that is Python values and not text could hold what no JSON text
reads into: tuples, sets, NaN, keys that are not strings, values nested
without end. Each is refused with a ``ScenarioError`` naming where it is, as
the same mistake written as text would be, never a RecursionError,
TypeError or ValueError from a validator or a writer.
"""

from __future__ import annotations

import copy
import decimal
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_input_fuzz import replace_at

from gateproof.conformance.corpus.python_values import CEILING, GATEWAY, holding_itself, nested, planted, python_value_documents
from gateproof.conformance.harness.documents import dumps, parse_json
from gateproof.conformance.generation.gateway_strategies import gateway_scenarios
from gateproof.conformance.generation.ceiling_strategies import ceiling_scenarios
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.scenario.document import MAX_DEPTH
from gateproof.model.scenario.errors import join_path

def refusal(document) -> ScenarioError:
    """The error read_scenario raises, checked to be the one run_scenario raises for the document unread."""
    with pytest.raises(ScenarioError) as read:
        read_scenario(document)
    with pytest.raises(ScenarioError) as run:
        run_scenario(document)
    assert (run.value.path, run.value.problem) == (read.value.path, read.value.problem)
    return read.value


#: What each refused document of python_values must be refused with: the path, and words of the problem.
REFUSED = {
    "set": ("$.world.sessions[0].roles", "a set, which JSON cannot carry"),
    "frozenset": ("$.world.sessions[0].roles", "a set"),
    "tuple-steps": ("$.steps", "a tuple, where JSON has arrays: a list"),
    "tuple-value": ("$.steps[0].arguments.case_id", "a tuple"),
    "nan": ("$.steps[0].arguments.case_id", "NaN is not a JSON number"),
    "minus-infinity": ("$.steps[0].be_user", "Infinity is not a JSON number"),
    "infinity": ("$.world.enforcement", "Infinity is not a JSON number"),
    "int-key": ("$.world", "the key 1 is not a string"),
    "tuple-key": ("$.steps[0].arguments", "the key ('case_id',) is not a string"),
    "surrogate": ("$.steps[0].arguments.case_id", "lone surrogate"),
    "bytes": ("$.steps[0].arguments.case_id", "a value of type bytes"),
    "decimal": ("$.steps[0].be_user", "a value of type Decimal"),
    "complex": ("$.steps[0].be_user", "a value of type complex"),
    "holding-itself": (join_path(["steps", 0, "arguments", "case_id", *["again"] * (MAX_DEPTH - 4)]), f"nested more than {MAX_DEPTH} levels deep"),
    "deep-5000": (join_path(["world", "providers", 0, "zone", *[0] * (MAX_DEPTH - 4)]), f"nested more than {MAX_DEPTH} levels deep"),
    "repeated-key": ("$.world", "the key 'sessions' is written more than once"),
    "integer-over-schema": ("$.world.clock", "above the maximum 2147483647"),
    "tuple-document": ("$", "a tuple"),
    "past-the-depth-limit": (join_path(["world", "enforcement", *[0] * (MAX_DEPTH - 2)]), f"nested more than {MAX_DEPTH} levels deep"),
    "surrogate-then-tuple": ("$.world.sessions[0].user", "lone surrogate"),  # the first in document order
}
DOCUMENTS = dict(python_value_documents())


@pytest.mark.rule("S001.12")
def test_every_python_built_document_is_either_refused_as_stated_or_read():
    for name, document in DOCUMENTS.items():
        if name not in REFUSED:
            assert run_scenario(read_scenario(document))["results"], name


@pytest.mark.rule("S001.12")
@pytest.mark.parametrize(("document", "path", "words"), [(DOCUMENTS[name], *expected) for name, expected in REFUSED.items()], ids=list(REFUSED))
def test_a_value_json_cannot_carry_is_refused_naming_where_it_is(document, path, words):
    error = refusal(document)
    assert error.path == path and words in error.problem, (error.path, error.problem)


@pytest.mark.rule("S001.12", "S001.4", "S001.5")
@pytest.mark.parametrize("levels", [MAX_DEPTH - 4, MAX_DEPTH - 3, 300])
def test_nesting_built_in_python_is_judged_as_the_same_document_written_as_text(levels):
    """Within the limit both read and decide alike; beyond it both name the same path."""
    document = planted(GATEWAY, ["steps", 0, "arguments", "note"], nested(levels))  # $ 1, steps 2, [0] 3, arguments 4: the note is level 5
    text = dumps(document)
    if 4 + levels <= MAX_DEPTH:
        assert run_scenario(document) == run_scenario(read_scenario(parse_json(text)))
        return
    with pytest.raises(ScenarioError) as from_text:
        read_scenario(parse_json(text))
    error = refusal(document)
    assert (error.path, error.problem) == (from_text.value.path, from_text.value.problem)


@pytest.mark.rule("S001.12", "S001.4")
def test_an_untyped_integer_of_any_size_is_carried_exactly_into_the_outcome():
    outcome = run_scenario(planted(CEILING, ["steps", 0, "be_user"], -(10**40)))
    assert parse_json(dumps(outcome))["results"][0] == outcome["results"][0]
    assert outcome == run_scenario(read_scenario(parse_json(dumps(planted(CEILING, ["steps", 0, "be_user"], -(10**40))))))


#: What a Python program could put in a document: values no JSON text reads into, and containers of them.
hostile_leaves = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, b"x", 1j, decimal.Decimal("1.5"), object(), Ellipsis, range(2), "\udfff", "a\ud800b"]),
    st.tuples(st.integers()), st.frozensets(st.integers(), max_size=2), st.sets(st.text(max_size=2), max_size=2),
    st.dictionaries(st.integers() | st.none() | st.booleans() | st.floats(allow_nan=False), st.integers(), min_size=1, max_size=2),
)
hostile_values = st.one_of(
    hostile_leaves,
    st.builds(lambda inner: [0, inner], hostile_leaves),
    st.builds(lambda inner: {"k": inner}, hostile_leaves),
    st.builds(holding_itself),
    st.integers(MAX_DEPTH + 1, 3000).map(nested),
)


@st.composite
def planted_documents(draw):
    """A valid scenario of either kind with one value, anywhere in it, replaced by a hostile one; and the path replaced."""
    document = copy.deepcopy(draw(ceiling_scenarios(max_steps=2, max_snippets=2, max_skills=2) | gateway_scenarios(max_steps=3)))
    path = draw(st.sampled_from([list(path) for path in places(document) if path]))
    return replace_at(document, path, draw(hostile_values)), path


def places(value, path=()):
    """The path of every value within ``value``, itself first."""
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from places(child, (*path, key))


@pytest.mark.rule("S001.12")
@settings(max_examples=300, deadline=None)
@given(planted_documents())
def test_a_hostile_python_value_anywhere_is_refused_at_its_path_and_nothing_else_is_raised(case):
    document, path = case
    error = refusal(document)
    assert error.path.startswith(join_path(path)), (error.path, path)


@pytest.mark.rule("S001.12")
@settings(max_examples=150, deadline=None)
@given(ceiling_scenarios(max_steps=3) | gateway_scenarios(max_steps=3))
def test_a_document_of_json_values_reads_as_its_text_does(document):
    """The check of Python values takes nothing a JSON document may hold: the document and its text decide alike."""
    assert run_scenario(document) == run_scenario(read_scenario(parse_json(dumps(document))))
