"""Calls itself whatever its first argument (or else ``FAKE_NAME``) says (``..``, a name of 300 characters), and is wrong on the faulty scenario."""

import os
import sys

from fake import is_fault, right, serve, wrong

serve(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FAKE_NAME", "named"), lambda seq, scenario: [wrong(seq, scenario) if is_fault(scenario) else right(seq, scenario)])
