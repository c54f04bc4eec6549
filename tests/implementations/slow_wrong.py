"""Deterministic and wrong on the fault scenario, but slow: slow to start, and each reply written on its own, a little late.

Its replies trickle in while later runs are still in flight, which is when a
harness that confirms a failure too early reads another run's reply as the
confirmation's.
"""

import json
import sys
import time

from fake import is_fault, right, started, wrong

time.sleep(0.3)  # an interpreter that loads a large program before it reads anything
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "stop":
        break
    if message["cmd"] == "start":
        reply = started("slow-wrong")
    else:
        time.sleep(0.02)
        reply = (wrong if is_fault(message["scenario"]) else right)(message["seq"], message["scenario"])
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
