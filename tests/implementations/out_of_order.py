"""Answers every batch of runs it reads in reverse order: allowed, since replies are matched by seq."""

from fake import right, serve

serve("out-of-order", lambda seq, scenario: [right(seq, scenario)], arrange=lambda replies: replies[::-1])
