"""The conformance corpus: its data (``*.json``, ``gateway/*.json``) beside the code that builds it from the model."""
