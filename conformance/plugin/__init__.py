"""The pytest plugin's parts: its settings, its collected items, the search of generated scenarios and the failure text.

The hooks pytest calls live in ``gateproof.conformance.plugin.hooks``, the
module the ``pytest11`` entry point names.
"""
