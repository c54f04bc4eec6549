"""Trust zones and their ceilings (ADR-094), read fail-closed."""

from __future__ import annotations

import enum

from .ladder import DataClass


class TrustZone(enum.Enum):
    """C094.3: four trust zones, ranked 0 (most trusted) to 3 (least trusted)."""

    LOCAL = "local"
    PRIVATE_HOSTED = "privateHosted"
    EXTERNAL_EU = "externalEu"
    EXTERNAL_GLOBAL = "externalGlobal"

    rank: int  # set below: the trust rank, 0 for the most trusted


for _rank, _zone in enumerate(TrustZone):
    _zone.rank = _rank
_BY_VALUE = {zone.value: zone for zone in TrustZone}

#: C094.4: the strictest class each zone may receive.
CEILINGS: dict[TrustZone, DataClass] = {
    TrustZone.LOCAL: DataClass.SECRET_ADJACENT,
    TrustZone.PRIVATE_HOSTED: DataClass.SYSTEM_DIAGNOSTICS,
    TrustZone.EXTERNAL_EU: DataClass.INTERNAL_CONFIGURATION,
    TrustZone.EXTERNAL_GLOBAL: DataClass.EDITOR_CONTENT,
}

#: The zone every unknown, missing or unreadable value falls to.
STRICTEST_ZONE = TrustZone.EXTERNAL_GLOBAL


def parse_zone(raw: object) -> TrustZone:
    """C094.7: a stored zone that is not exactly one of the four values reads as externalGlobal.

    So an empty, unmigrated or future value can never widen the gate.
    """
    zone = _BY_VALUE.get(raw) if isinstance(raw, str) else None
    return STRICTEST_ZONE if zone is None else zone
