"""Answers every scenario right; first writes the environment it was started with, as JSON, to the file ``ENV_FILE`` names (if it is set),
and, when ``DAEMON_SECONDS`` is set, starts a daemon that leaves its process group (``setsid``) and lives that many seconds."""

import json
import os
import time

from fake import right, serve

if "ENV_FILE" in os.environ:
    with open(os.environ["ENV_FILE"], "w", encoding="utf-8") as handle:
        json.dump(dict(os.environ), handle)
if "DAEMON_SECONDS" in os.environ and os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(float(os.environ["DAEMON_SECONDS"]))
    os._exit(0)

serve("tells-environment", lambda seq, scenario: [right(seq, scenario)])
