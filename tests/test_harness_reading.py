"""A reply that is byte for byte the expected outcome's line is read as that outcome; any other reply is read in full."""

from gateproof.conformance.harness.documents import dumps
from gateproof.conformance.harness.process import ImplementationProcess
from gateproof.conformance.harness.protocol import Run, outcome_line, run_line

from harness_helpers import GENEROUS, drive, entries, fake, statuses


def replies(name: str, expected_of) -> list[tuple[dict, object, dict]]:
    """(scenario, reply, expected outcome) for every case, run pipelined with ``expected_of`` as what is expected."""
    chosen = {id(scenario): expected for _, _, scenario, expected in entries(fault=None)}
    process = ImplementationProcess(fake(name), timeout=GENEROUS)
    process.start()
    try:
        found = [(scenario, reply, chosen[id(scenario)]) for scenario, reply in
                 process.run_many([scenario for _, _, scenario, _ in entries(fault=None)], lambda scenario: expected_of(chosen[id(scenario)]))]
    finally:
        process.close()
    return found


def test_the_lines_written_without_checking_are_the_checked_messages_written():
    _, _, scenario, expected = entries(fault=None)[0]
    assert run_line(7, dumps(scenario)) == dumps(Run(7, scenario).serializable()) + b"\n"
    assert outcome_line(7, dumps(expected)) == dumps({"seq": 7, "outcome": expected})


def test_a_reply_written_as_the_expected_line_is_read_as_the_expected_outcome_itself():
    found = replies("named", lambda expected: expected)
    assert found and all(reply.outcome is expected for _, reply, expected in found)


def test_a_right_reply_written_otherwise_is_parsed_and_still_agrees():
    found = replies("spaced", lambda expected: expected)
    assert found and all(reply.outcome is not expected and reply.outcome == expected for _, reply, expected in found)
    assert set(statuses(drive("spaced", fault=None)).values()) == {"passed"}


def test_a_reply_that_differs_from_what_is_expected_is_read_as_written():
    # Expected an outcome with one result too many: the reply, the model's own, is read as it was written.
    found = replies("named", lambda expected: {**expected, "results": expected["results"] * 2})
    assert found and all(reply.outcome == expected and len(reply.outcome["results"]) == len(expected["results"]) for _, reply, expected in found)


def test_a_right_reply_of_30_mb_is_read_whole_and_passes_never_nondeterministic():
    # The first replies are each a 30 MB line (spaces inside the JSON), arriving while later runs are in flight.
    verdicts = statuses(drive("padded", fault=None))
    assert verdicts and set(verdicts.values()) == {"passed"}
