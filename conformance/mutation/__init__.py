"""Mutation testing of the model: how much of what the model decides the conformance suite would notice changed."""
