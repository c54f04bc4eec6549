"""Answers every scenario with a valid outcome that is wrong."""

from fake import serve, wrong

serve("always-wrong", lambda seq, scenario: [wrong(seq, scenario)])
