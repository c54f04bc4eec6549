"""Prints a greeting instead of answering start, and exits."""

import sys

print("hello, I am not a gateproof implementation", flush=True)
sys.exit(1)
