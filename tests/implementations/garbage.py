"""Prints a line that is not JSON instead of the fault scenario's reply."""

from fake import is_fault, right, serve

serve("garbage", lambda seq, scenario: ["this is not json {"] if is_fault(scenario) else [right(seq, scenario)])
