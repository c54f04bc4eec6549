"""The conformance harness: drive any implementation through the protocol and say where it departs from the model."""
