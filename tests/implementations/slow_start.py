"""Takes SLOW_START seconds (1.5 by default) before it answers start, as a virtual machine or a server with its store
does on a loaded machine, then decides as the reference model does."""

import os
import sys
import time

time.sleep(float(os.environ.get("SLOW_START", "1.5")))
os.execv(sys.executable, [sys.executable, "-m", "gateproof.conformance.implementations.reference"])
