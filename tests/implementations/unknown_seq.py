"""Answers the fault scenario under a seq nobody sent."""

from fake import is_fault, right, serve

serve("unknown-seq", lambda seq, scenario: [right(seq + 1000 if is_fault(scenario) else seq, scenario)])
