"""Answers every run with an error whose message names its scenario, so no two messages are alike."""

from fake import serve

serve("errors-by-id", lambda seq, scenario: [{"seq": seq, "errored": {"message": f"cannot decide {scenario.get('id')}: " + "x" * 1500}}])
