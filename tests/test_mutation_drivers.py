"""The drivers after verify: the refusal corpus and explain's traces catch what a person is shown otherwise, and nothing else."""

from __future__ import annotations

import pytest

from gateproof.conformance.mutation.drivers import Pristine, differs, drive, first_difference
from gateproof.conformance.mutation.execute import CAUGHT, ERROR, SURVIVED, Finding

TIMEOUT = 300.0  # generous: a loaded machine is no fault of the mutant's
#: Words a schema violation otherwise ("required field is missing"): only a refused document shows it.
REFUSAL_WORDING = 'model/scenario/schema.py:_describe:string->XXstringXX:"required field is missing"'
#: Names the enforcement mode otherwise: only explain prints the label.
EXPLAIN_LABEL = 'model/enforcement.py:mode_label:string->XXstringXX:"enforce"'
#: The default of a send's task input, which no rule, outcome, refusal or explanation reads (C144.17).
UNREAD = 'model/scenario/read.py:Send:empty->XX:""'
#: Lets every value orjson cannot write pass as JSON: told apart on a set, it then walks a value holding itself without end.
WRONG_THEN_ENDLESS = "model/scenario/document.py:_reads_back:False->True:False #2"
#: Walks without counting depth: told apart only where a deep value ends, before the one that never does.
NO_DEPTH = "model/scenario/document.py:_refuse_what_json_cannot_carry:number->0:1 #2"


@pytest.fixture(scope="module")
def pristine() -> Pristine:
    return Pristine(TIMEOUT)


def test_the_refusal_driver_catches_a_refusal_worded_otherwise(pristine):
    found = drive(Finding(REFUSAL_WORDING, SURVIVED, 1.0), pristine, TIMEOUT)
    assert found.status == CAUGHT and found.phase == "refusals", found
    assert found.counterexample == "refusal.S001.1.required" and "XXrequired field is missingXX" in found.detail
    assert found.seconds > 1.0 and found.to_catch >= 1


def test_the_explain_driver_catches_a_label_only_explain_shows_and_the_refusals_do_not(pristine):
    found = drive(Finding(EXPLAIN_LABEL, SURVIVED, 0.0), pristine, TIMEOUT)
    assert found.status == CAUGHT and found.phase == "explain", found  # the refusals, compared first, all agreed
    assert "XXenforceXX" in found.detail or "XXobserveXX" in found.detail


@pytest.mark.parametrize(("mutant", "case"), [(WRONG_THEN_ENDLESS, "python.set (read_scenario)"), (NO_DEPTH, "python.deep-5000 (read_scenario)")])
def test_a_mutant_is_caught_on_its_first_wrong_answer_though_a_later_one_never_comes(pristine, mutant, case):
    found = drive(Finding(mutant, SURVIVED, 0.0), pristine, TIMEOUT)
    assert (found.status, found.phase, found.counterexample) == (CAUGHT, "refusals", case), found


def test_a_change_nothing_shows_survives_both_drivers(pristine):
    found = drive(Finding(UNREAD, SURVIVED, 2.0), pristine, TIMEOUT)
    assert found.status == SURVIVED and found.phase is None and found.counterexample is None, found


def test_what_verify_caught_is_not_driven_again(pristine):
    caught = Finding(REFUSAL_WORDING, CAUGHT, 3.0, 5, "ceiling.x", "corpus")
    assert drive(caught, pristine, TIMEOUT) is caught


def test_a_mutant_whose_answers_are_cut_short_is_an_error_never_a_catch(pristine):
    pristine.answers()  # computed within the generous timeout, before the mutant gets almost none
    found = drive(Finding(EXPLAIN_LABEL, SURVIVED, 0.0), pristine, 0.001)
    assert found.status == ERROR and "timed out" in found.detail, found


def test_the_first_difference_names_the_driver_the_case_and_where_the_answers_part():
    model = [("refusals", "a", {"refused": {"field": "$.x", "problem": "p"}}), ("explain", "b", {"trace": {"steps": [1, 2]}})]
    assert first_difference(model, list(model)) is None
    other = [model[0], ("explain", "b", {"trace": {"steps": [1, 3]}})]
    assert first_difference(model, other) == (2, "explain", "b", "trace.steps[1]: 3 where the model gives 2")
    assert first_difference(model, model[:1]) == (2, "explain", "b", "no answer")
    assert differs({"refused": {}}, {"raised": "TypeError"}) == "the answer: {'raised': 'TypeError'} where the model gives {'refused': {}}"
