"""Answers start, forks a worker that sleeps, and never answers a run: verify waits on it for the whole timeout."""

import json
import os
import sys
import time

from fake import started

if os.fork() == 0:
    time.sleep(3600)
    os._exit(0)
sys.stdin.readline()
print(json.dumps(started("sleeper")), flush=True)
time.sleep(3600)
