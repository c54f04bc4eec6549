"""Answers every other run wrongly, so the same scenario gets two different answers."""

import itertools

from fake import right, serve, wrong

calls = itertools.count()
serve("nondeterministic", lambda seq, scenario: [(wrong if next(calls) % 2 else right)(seq, scenario)])
