"""Crashes on the fifth run it is sent, and from then on refuses to start: it cannot be restarted.

Its one argument is a file it creates on its first start; finding it there, it refuses.
"""

import itertools
import sys
from pathlib import Path

from fake import right, serve

marker = Path(sys.argv[1])
if marker.exists():
    print("license expired", flush=True)
    sys.exit(1)
marker.touch()
runs = itertools.count(1)


def answer(seq, scenario):
    if next(runs) == 5:
        sys.exit(3)
    return [right(seq, scenario)]


serve("dies-for-good", answer)
