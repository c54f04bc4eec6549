#!/bin/sh
# Starts the command it is given as a child, without exec, and waits for it: killing this shell alone leaves the child running.
"$@"
status=$?
exit $status
