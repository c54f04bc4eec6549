"""Counterexamples as scenario documents, and the verdicts a replayed scenario shows.

Every send becomes a configuration of its own: its primary zone through a
provider of that zone, each listed fallback a configuration of its own, each
listed source a snippet (tag-selected when the configuration carries it,
forced by uid otherwise). Sends that need different enforcement switches go
into different documents, since a world has one switch.
"""

from __future__ import annotations

import re

from gateproof.model.enforcement import mode_label
from gateproof.model.ladder import DataClass
from gateproof.model.lattice import DECISION_KINDS, NO_SOURCE, UNDECLARED
from gateproof.model.zones import TrustZone

from .send import Semantics, Send, Verdict

#: The zone a replayed verdict reports when the decision consulted none.
NOT_CONSULTED = -1
_CLASSES = tuple(DataClass)
_ZONES = tuple(TrustZone)
_SOURCE_NAME = re.compile(r'^snippet "send-\d+-source-(\d+)"$')


def _provider(zone: TrustZone) -> str:
    return f"provider-{zone.value.lower()}"


def _model(zone_rank: int) -> str:
    return f"model-{_ZONES[zone_rank].value.lower()}"


def _class_value(rank: int) -> str | None:
    return None if rank == UNDECLARED else _CLASSES[rank].value


def _send_records(number: int, send: Send):
    """The configurations, snippets and steps that stand for one send."""
    name = f"send-{number}"
    fallbacks = [f"{name}-fallback-{i}" for i, listed in enumerate(send.fallback_listed) if listed]
    fallback_configurations = [
        {"identifier": f"{name}-fallback-{i}", "model": _model(zone)}
        for i, (zone, listed) in enumerate(zip(send.fallback_zones, send.fallback_listed))
        if listed
    ]
    snippets, forced = [], []
    for i, (rank, listed, is_forced) in enumerate(zip(send.ranks, send.listed, send.forced)):
        if not listed:
            continue
        uid = number * 1000 + i + 1
        identifier = f"{name}-source-{i}"
        snippets.append({
            "uid": uid, "identifier": identifier, "name": identifier, "data_class": _class_value(rank),
            "tags": "" if is_forced else name, "sorting": i,
        })
        if is_forced:
            forced.append(uid)
    configuration = {"identifier": name, "model": _model(send.primary_zone), "fallbacks": fallbacks, "snippet_tags": name}
    steps = [
        {"op": "classify", "configuration": name},
        {"op": "send", "configuration": name, "forced_snippets": forced},
    ]
    return [configuration, *fallback_configurations], snippets, steps


def scenario_documents(title: str, claim: str, semantics: Semantics, sends: tuple[Send, ...]) -> list[tuple[dict, list[int]]]:
    """One scenario per enforcement switch the sends need, each with the indices of the sends it holds.

    ``title`` names the scenario (an invariant id); ``claim`` is what the
    sends break, for the description.
    """
    switches = list(dict.fromkeys(_switch_text(send) for send in sends))
    documents, labels = [], []
    for switch in switches:
        held = [index for index, send in enumerate(sends) if _switch_text(send) == switch]
        configurations, snippets, steps = [], [], []
        for index in held:
            more_configurations, more_snippets, more_steps = _send_records(index + 1, sends[index])
            configurations += more_configurations
            snippets += more_snippets
            steps += more_steps
        mode = mode_label(sends[held[0]].enforcing)
        label = mode if mode not in labels else f"{mode}-{len(labels) + 1}"
        labels.append(label)
        documents.append(({
            "gateproof": 1,
            "id": f"counterexample/{title}/{semantics.name}/{label}",
            "description": _description(title, claim, semantics, mode, switch),
            "rules": semantics.document_rules,
            "world": {
                "providers": [{"identifier": _provider(zone), "zone": zone.value} for zone in _ZONES],
                "models": [{"identifier": _model(zone.rank), "provider": _provider(zone)} for zone in _ZONES],
                "configurations": configurations,
                "snippets": snippets,
                "enforcement": switch,
            },
            "steps": steps,
        }, held))
    return documents


def _switch_text(send: Send) -> str:
    """The switch's raw text a send's document stores: the story's own, or the plain word for its mode."""
    return mode_label(send.enforcing) if send.switch is None else send.switch


def _description(title: str, claim: str, semantics: Semantics, mode: str, switch: str) -> str:
    if semantics.is_model_version:
        under = f"the rules {semantics.name}, which this scenario names, so decide shows it"
    else:
        under = f"the wrong rule {semantics.name} ({semantics.description}); replay it with decide --rules {semantics.name}"
    return (
        f"A counterexample to {title} ({claim}) under {under}. Enforcement is in {mode} mode (the switch reads {switch!r}); "
        "each send follows a classify step showing what its configuration alone declares."
    )


def verdicts_of(outcome: dict) -> list[Verdict]:
    """The verdict of every send step of an outcome document, in step order."""
    verdicts = []
    for result in outcome["results"]:
        if result["op"] != "send":
            continue
        declared = result["declared_class"]
        match = _SOURCE_NAME.match(result["source"])
        zone = result["zone"]
        verdicts.append(Verdict(
            declared=UNDECLARED if declared is None else DataClass(declared).rank,
            source=int(match.group(1)) if match else NO_SOURCE,
            zone=NOT_CONSULTED if zone is None else TrustZone(zone).rank,
            kind=DECISION_KINDS.index(result["decision"]),
            sent=result["sent"],
        ))
    return verdicts
