"""Declares rule versions and kinds, then skips every run of the kinds it names (every run, if it names none).

With ``--declare VERSION,...`` it declares those rule versions instead of the usual ones.
"""

import sys

from fake import RULES, right, serve

arguments = sys.argv[1:]
declared = RULES
if arguments[:1] == ["--declare"]:
    declared, arguments = arguments[1].split(","), arguments[2:]
skipped_kinds = set(arguments)


def answer(seq, scenario):
    kind = scenario.get("kind", "ceiling")
    if not skipped_kinds or kind in skipped_kinds:
        return [{"seq": seq, "skipped": {"message": f"{kind} scenarios are not decided here"}}]
    return [right(seq, scenario)]


serve("skips", answer, rules=declared)
