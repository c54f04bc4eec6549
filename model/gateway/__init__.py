"""The tool-call gateway (lab ADR-001): every sensitive tool call is authorized
outside the model, from the host's session and stored records, never from what
the proposal claims. Rule ids ``G001.*`` (``lab-001``) and ``G002.*``
(``lab-001+next``) are restated in ``adr/gateway.md``.
"""
