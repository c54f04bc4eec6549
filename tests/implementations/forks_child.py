"""Forks a worker that sleeps, holding the pipes it inherited, then answers every run correctly.

The worker outlives its parent unless the whole process group is ended.
"""

import os
import time

from fake import right, serve

if os.fork() == 0:
    time.sleep(3600)
    os._exit(0)

serve("forks-child", lambda seq, scenario: [right(seq, scenario)])
