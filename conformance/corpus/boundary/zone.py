"""Boundary pairs of the ladder, the zones and the switch (ADR-094, ADR-113, ADR-115, ADR-149).

Most pairs force one snippet through one provider and move a single stored
value across the rule's edge: a rank, a zone's spelling, a fallback entry,
the switch's text.
"""

from __future__ import annotations

from .pairs import pair, side
from ..cases import case, send, snippet, world

FORCE_ONE = [send(forced_snippets=[1])]


def forcing(data_class: object, zone: object = "externalGlobal", **extra) -> tuple[dict, list[dict]]:
    """A side's world and steps: one snippet of ``data_class``, forced through a provider in ``zone``."""
    return world(zone=zone, snippets=[snippet(1, data_class)], **extra), FORCE_ONE


def hop(zone: str, **configuration) -> dict:
    """World fields for a fallback configuration ``hop`` whose own model is on a provider in ``zone``."""
    return {
        "providers": [{"identifier": "ph", "zone": zone}],
        "models": [{"identifier": "mh", "provider": "ph"}],
        "configurations": [{"identifier": "hop", "model": "mh", **configuration}],
    }


def falling_back(entries: list, hop_zone: str = "local", **hop_fields) -> tuple[dict, list[dict]]:
    """A side's world and steps: a secretAdjacent snippet forced through a local provider whose chain is ``entries``."""
    return forcing("secretAdjacent", "local", configuration={"fallbacks": entries}, **hop(hop_zone, **hop_fields))


def serving(mode: str) -> tuple[dict, list[dict]]:
    """A side's world and steps: the relation is on an externalGlobal provider, routing resolved the local model ``m``."""
    document = world(
        zone="local", configuration={"model": "mq", "selection_mode": mode}, snippets=[snippet(1, "secretAdjacent")],
        providers=[{"identifier": "q", "zone": "externalGlobal"}], models=[{"identifier": "mq", "provider": "q"}],
    )
    return document, [send(forced_snippets=[1], serving_model="m")]


def criteria_fallback(hop_model: str | None) -> tuple[dict, list[dict]]:
    """A side's world and steps: a criteria-mode send served by the local ``m``, falling back to a criteria-mode ``hop``."""
    document = world(
        zone="local", configuration={"selection_mode": "criteria", "fallbacks": ["hop"]}, snippets=[snippet(1, "secretAdjacent")],
        **hop("local", selection_mode="criteria", model=hop_model),
    )
    return document, [send(forced_snippets=[1], serving_model="m")]


def cases() -> list[dict]:
    return [
        *pair(case, "ceiling", "C094.1",
              side("internalConfiguration ranks exactly at externalEu's ceiling, and a rank that does not exceed the ceiling's is at most it, so the send is permitted.",
                   *forcing("internalConfiguration", "externalEu")),
              side("systemDiagnostics ranks one above externalEu's ceiling, so it is not at most it and the send is refused.",
                   *forcing("systemDiagnostics", "externalEu"))),
        *pair(case, "ceiling", "C094.2",
              side("the stored class is exactly secretAdjacent, so it declares that class and the send is refused.", *forcing("secretAdjacent")),
              side("the stored class has a trailing space, so it is no exact match, declares nothing, and the send is undeclared.", *forcing("secretAdjacent "))),
        *pair(case, "ceiling", "C094.3",
              side("the provider stores local, one of the four zones and the most trusted, so secretAdjacent is permitted.", *forcing("secretAdjacent", "local")),
              side("the provider stores Local, which is none of the four zones, so the send reaches externalGlobal and is refused.", *forcing("secretAdjacent", "Local"))),
        *pair(case, "ceiling", "C094.4",
              side("privateHosted's ceiling is systemDiagnostics, so a systemDiagnostics snippet is permitted.", *forcing("systemDiagnostics", "privateHosted")),
              side("secretAdjacent is above privateHosted's ceiling of systemDiagnostics, so the send is refused.", *forcing("secretAdjacent", "privateHosted"))),
        *pair(case, "ceiling", "C094.5",
              side("externalGlobal permits editorContent, the strictest class it permits, so the send is permitted.", *forcing("editorContent")),
              side("sourceCode is the first class externalGlobal does not permit, so the send is refused.", *forcing("sourceCode"))),
        *pair(case, "ceiling", "C094.6",
              side("the fallback's externalEu has a higher trust rank than the primary privateHosted, so it is the less trusted and refuses systemDiagnostics.",
                   *forcing("systemDiagnostics", "privateHosted", configuration={"fallbacks": ["hop"]}, **hop("externalEu"))),
              side("the fallback's local has a lower trust rank than the primary privateHosted, so privateHosted stays and permits systemDiagnostics.",
                   *forcing("systemDiagnostics", "privateHosted", configuration={"fallbacks": ["hop"]}, **hop("local")))),
        *pair(case, "ceiling", "C094.7",
              side("the provider stores the empty string, which is not a zone, so it reads as externalGlobal and sourceCode is refused.", *forcing("sourceCode", "")),
              side("the provider stores externalEu exactly, so it is read as stored and sourceCode is permitted.", *forcing("sourceCode", "externalEu"))),
        *pair(case, "ceiling", "C094.8",
              side("the configuration has no model relation, so the primary zone starts at externalGlobal and secretAdjacent is refused.",
                   *forcing("secretAdjacent", "local", configuration={"model": None})),
              side("the configuration's relation names the model on the local provider, so the primary zone is local and the send is permitted.",
                   *forcing("secretAdjacent", "local"))),
        *pair(case, "ceiling", "C094.9",
              side('the entry " HOP\\t" trims and lowercases to hop, so the local fallback is found and the send stays permitted.', *falling_back([" HOP\t"])),
              side("the entry starts with a no-break space, which trimming keeps, so it names no configuration and adds externalGlobal.", *falling_back(["\u00a0hop"])),
              non_ascii_letter=side('the entry HÖP lowercases only its ASCII letters, to hÖp, so it does not find the fallback höp and adds externalGlobal.',
                                    *falling_back(["HÖP"], identifier="höp"))),
        *pair(case, "ceiling", "C094.10",
              side("the fallback is inactive but not deleted, so it is found and its local zone keeps the send permitted.", *falling_back(["hop"], active=False)),
              side("the fallback is deleted, so the entry finds none and adds externalGlobal, refusing the send.", *falling_back(["hop"], deleted=True))),
        *pair(case, "ceiling", "C113.1",
              side('the switch "\\tOBSERVE\\n" is observe after trimming and lowercasing, so the refusal is observed and the send goes out.',
                   *forcing("secretAdjacent", enforcement="\tOBSERVE\n")),
              side("the switch ends in a no-break space, which trimming keeps, so it is not observe and the refusal is enforced.",
                   *forcing("secretAdjacent", enforcement="OBSERVE\u00a0"))),
        *pair(case, "ceiling", "C113.2",
              side("the switch stores the typo obsrve, which reads as enforcing, so the mode shown is enforce: no observe sentence.",
                   *forcing("secretAdjacent", enforcement="obsrve")),
              side("the switch stores Observe, which reads as observe, so the mode shown is observe.", *forcing("secretAdjacent", enforcement="Observe"))),
        *pair(case, "ceiling", "C115.1",
              side("no switch was ever stored, so the gate enforces and the send is refused.", *forcing("secretAdjacent")),
              side("the switch was stored as observe, so the same refusal is only observed.", *forcing("secretAdjacent", enforcement="observe"))),
        *pair(case, "ceiling", "C149.1",
              side("the criteria-mode fallback has no model relation and is never given the serving model, so it adds externalGlobal and refuses the send.",
                   *criteria_fallback(None)),
              side("the criteria-mode fallback's own relation is on a local provider, so it adds local and the send is permitted.", *criteria_fallback("mh"))),
        *pair(case, "ceiling", "C149.2",
              side("a criteria-mode configuration hands the gate the local model routing resolved, so the send is permitted.", *serving("criteria")),
              side("a fixed-mode configuration is judged by its own externalGlobal relation whatever routing named, so the send is refused.", *serving("fixed"))),
    ]
