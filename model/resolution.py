"""Which trust zone a send can reach (ADR-094, ADR-149).

The zone is the least trusted of the primary provider's zone and the zone of
every configuration one level down the fallback chain: text that may be
retried against a fallback may travel wherever that fallback sends it.
"""

from __future__ import annotations

from attrs import frozen

from .lattice import least_trusted
from .lookups import collated
from .records import Configuration, World
from .text import normalise_token
from .zones import STRICTEST_ZONE, TrustZone, parse_zone


@frozen
class ZoneHop:
    """One step of a zone resolution, for the explained trace."""

    via: str  # "serving model", "model relation", "fallback"
    subject: str  # the model or configuration identifier the hop read
    provider: str  # the provider identifier found, or ""
    zone: TrustZone
    running: TrustZone
    rule: str


@frozen
class ZoneResolution:
    zone: TrustZone
    hops: tuple[ZoneHop, ...]
    provider: str  # the primary provider's identifier, or "" (what the audit names)
    model: str  # the primary model's identifier, or ""


def zone_of_model(world: World, model_identifier: str | None) -> tuple[TrustZone, str]:
    """C094.7: the zone of a model's provider; no model, no provider or an unknown one is externalGlobal."""
    model = world.model_index.get(model_identifier) if model_identifier is not None else None
    provider = world.provider_index.get(model.provider) if model and model.provider is not None else None
    if provider is None:
        return STRICTEST_ZONE, ""
    return parse_zone(provider.zone), provider.identifier


def normalise_fallback_chain(raw: tuple) -> tuple[str, ...]:
    """C094.9: drop non-strings and empty entries; trim, lowercase, de-duplicate in written order."""
    chain: dict[str, None] = {}
    for entry in raw:
        if isinstance(entry, str):
            normalised = normalise_token(entry)
            if normalised:
                chain.setdefault(normalised, None)
    return tuple(chain)


def lookup_fallback(world: World, identifier: str) -> Configuration | None:
    """C094.10, C144.19: a fallback is found by identifier among undeleted configurations, active or not.

    The first undeleted configuration in the world's order whose identifier
    equals it under the collation is found (after folding, case-insensitively).
    """
    wanted = collated(identifier, world.collation)
    return next((c for c in world.configurations if not c.deleted and collated(c.identifier, world.collation) == wanted), None)


def gate_serving_model(configuration: Configuration, serving_model: str | None) -> str | None:
    """C149.2: only a criteria-mode configuration hands the gate a serving model."""
    return serving_model if configuration.selection_mode == "criteria" else None


def resolve_zone(world: World, configuration: Configuration, serving_model: str | None = None) -> ZoneResolution:
    """C094.8, C094.10, C149.1: the least trusted zone a send through ``configuration`` can reach.

    The primary zone comes from the serving model when the gate was given
    one, else from the configuration's own model relation (C094.8). Each
    fallback one level down adds its own relation's zone, never a serving
    model's (C149.1); an unresolvable one adds externalGlobal (C094.10).
    """
    serving = gate_serving_model(configuration, serving_model)
    if serving is not None:
        via, primary_model = "serving model", serving
    else:
        via, primary_model = "model relation", configuration.model
    zone, provider = zone_of_model(world, primary_model)
    primary_known = primary_model is not None and primary_model in world.model_index
    hops = [ZoneHop(via, primary_model or "", provider, zone, zone, "C094.8")]
    for identifier in normalise_fallback_chain(configuration.fallbacks):
        fallback = lookup_fallback(world, identifier)
        hop_zone, hop_provider = (STRICTEST_ZONE, "") if fallback is None else zone_of_model(world, fallback.model)
        zone = least_trusted(zone, hop_zone)
        hops.append(ZoneHop("fallback", identifier, hop_provider, hop_zone, zone, "C094.10"))
    return ZoneResolution(zone, tuple(hops), provider, primary_model if primary_known else "")
