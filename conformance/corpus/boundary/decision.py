"""Boundary pairs of the fold and the decision (ADR-144): what an undeclared source does, which source wins, what is decided, said, thrown and recorded."""

from __future__ import annotations

from .pairs import pair, side
from .zone import falling_back, forcing
from ..cases import case, send, skill, snippet, world

SECRET_TEXT = "The signing keys are kept in vault 7."


def tie(first_class: str) -> tuple[dict, list[dict]]:
    """A side's world and steps: forced skills k1 of ``first_class`` then k2 of sourceCode."""
    return world(skills=[skill(1, first_class), skill(2, "sourceCode")]), [send(forced_skills=[1, 2])]


def looked_at(forced: list) -> tuple[dict, list[dict]]:
    """A side's world and steps: the readout of a playground request forcing ``forced``, then the configuration alone."""
    steps = [{"op": "readout", "configuration": "c", "forced_snippets": forced}, {"op": "classify", "configuration": "c"}]
    return world(snippets=[snippet(1, "secretAdjacent")]), steps


def null_switch() -> tuple[dict, list[dict]]:
    """A side's world and steps: a forced secretAdjacent snippet under a switch stored as JSON null, which ``world`` reads as never stored."""
    document, steps = forcing("secretAdjacent")
    return document | {"enforcement": None}, steps


def cases() -> list[dict]:
    return [
        *pair(case, "ceiling", "C144.2",
              side("the forced snippet stores no class, which places no constraint: the send is undeclared and no zone is consulted.", *forcing(None)),
              side("the forced snippet declares publicContent, the least class but a declaration, so a zone is resolved and the send is permitted.",
                   *forcing("publicContent"))),
        *pair(case, "ceiling", "C144.9",
              side("two forced skills declare sourceCode, and on a tie the later source takes over, so k2 is named.", *tie("sourceCode")),
              side("the earlier skill is one rank stricter, so the later one's lower rank never takes over and k1 is named.", *tie("internalConfiguration"))),
        *pair(case, "ceiling", "C144.10",
              side("sourceCode exceeds externalGlobal's ceiling, so the switch is read and, in observe mode, the decision is observed.",
                   *forcing("sourceCode", enforcement="observe")),
              side("editorContent is within the ceiling, so the decision is permitted and the switch is never read, even in observe mode.",
                   *forcing("editorContent", enforcement="observe"))),
        *pair(case, "ceiling", "C144.11",
              side("the switch enforces, so the refused send does not go out.", *forcing("secretAdjacent", enforcement="enforce")),
              side("the switch observes, so the same decision is observed and the send goes out.", *forcing("secretAdjacent", enforcement="observe"))),
        *pair(case, "ceiling", "C144.12",
              side("systemDiagnostics exceeds externalEu's ceiling in observe mode, so the message says it exceeds and adds the observe sentence.",
                   *forcing("systemDiagnostics", "externalEu", enforcement="observe")),
              side("internalConfiguration is within externalEu's ceiling, so the message is the permitted one, with no observe sentence.",
                   *forcing("internalConfiguration", "externalEu", enforcement="observe"))),
        *pair(case, "ceiling", "C144.13",
              side("a stored null enforces, so the refusal throws the exception naming the configuration, zone, ceiling, source and class.",
                   *null_switch()),
              side('the switch " observe" observes, so the same refusal is only observed and nothing is thrown.',
                   *forcing("secretAdjacent", enforcement=" observe"))),
        *pair(case, "ceiling", "C144.14",
              side("the fallback's externalEu refuses secretAdjacent, and the audit record names the primary provider and model, not the fallback's.",
                   *falling_back(["hop"], hop_zone="externalEu")),
              side("the fallback's local permits the send, and a permitted send writes no audit record.", *falling_back(["hop"]))),
        *pair(case, "ceiling", "C144.15",
              side("the call metadata holds the integer 7, so the audit record names user 7.",
                   world(snippets=[snippet(1, "secretAdjacent")]), [send(forced_snippets=[1], be_user=7)]),
              side("the call metadata holds the number 7.0, which is not an integer, so the audit record names user 0.",
                   world(snippets=[snippet(1, "secretAdjacent")]), [send(forced_snippets=[1], be_user=7.0)])),
        *pair(case, "ceiling", "C144.15",
              side("the call metadata holds the integer 9007199254740993, one past what a double holds exactly, so the audit record names that user, digit for digit.",
                   world(snippets=[snippet(1, "secretAdjacent")]), [send(forced_snippets=[1], be_user=9007199254740993)]),
              side("the call metadata holds 9007199254740993.0, a number with a fraction part however near an integer, so the audit record names user 0.",
                   world(snippets=[snippet(1, "secretAdjacent")]), [send(forced_snippets=[1], be_user=9007199254740993.0)]),
              "large"),
        *pair(case, "ceiling", "C144.16",
              side("the readout lists the forced snippet with its class and folds it, while classify answers for the configuration alone.", *looked_at([1])),
              side("with nothing forced the readout injects nothing: an empty list, a null class and an empty source, like classify.", *looked_at([]))),
        *pair(case, "ceiling", "C144.17",
              side("the task input speaks of signing keys but has no stored home for a class, so it is never classified and the send is undeclared.",
                   world(), [send(input=SECRET_TEXT)]),
              side("the same text stored as a forced snippet carries its declared class, so the send is refused.",
                   world(snippets=[snippet(1, "secretAdjacent", text=SECRET_TEXT)]), [send(input=SECRET_TEXT, forced_snippets=[1])])),
        *pair(case, "ceiling", "C144.18",
              side("a configuration with no model that declares nothing consults no zone, so it is never refused.",
                   world(configuration={"model": None}), [send()]),
              side("the same configuration with a sourceCode system prompt consults a zone, externalGlobal for want of a model, and is refused.",
                   world(configuration={"model": None, "system_prompt": "x", "system_prompt_class": "sourceCode"}), [send()])),
    ]
