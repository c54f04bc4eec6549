"""The executable reference model of gateproof.

Each module states one family of rules; every rule's id (for example
``C094.5``) stands in the docstring of the function that implements it and
is restated in ``adr/``.
"""
