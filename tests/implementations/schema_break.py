"""Answers the fault scenario with an outcome that breaks the outcome schema."""

from fake import is_fault, right, serve

serve("schema-break", lambda seq, scenario: [{"seq": seq, "outcome": {"results": "nope"}}] if is_fault(scenario) else [right(seq, scenario)])
