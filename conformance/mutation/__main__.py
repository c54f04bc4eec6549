"""``python -m gateproof.conformance.mutation``: see :mod:`.cli`."""

from .cli import main

if __name__ == "__main__":
    main()
