"""The input-context gate: the decision, its messages, the exception and the audit record (ADR-144)."""

from __future__ import annotations

from typing import Callable

from attrs import frozen

from .fold import Classification
from .ladder import DataClass
from .lattice import DECISION_KINDS, UNDECLARED_KIND, decision_kind, is_sent, zone_permits
from .zones import CEILINGS, TrustZone

UNDECLARED_MESSAGE = (
    "No snippet or skill this configuration injects carries a data class, "
    "so the input-context gate constrains nothing."
)
OBSERVE_SUFFIX = " Enforcement is in observe mode, so the send would proceed and be recorded as blocked."


@frozen
class Decision:
    """What the gate decided for one send; ``enforcing`` is read only on a refusal (C144.10)."""

    kind: str  # one of DECISION_KINDS
    data_class: DataClass | None = None
    source: str = ""
    zone: TrustZone | None = None
    ceiling: DataClass | None = None
    enforcing: bool | None = None

    @property
    def sent(self) -> bool:
        """C144.11: the send goes out unless refused while enforcing."""
        return is_sent(DECISION_KINDS.index(self.kind))


UNDECLARED_DECISION = Decision(DECISION_KINDS[UNDECLARED_KIND])


def decide(
    classification: Classification,
    resolve_zone: Callable[[], TrustZone],
    read_enforcing: Callable[[], bool],
) -> Decision:
    """C144.10: undeclared consults nothing; otherwise the zone decides, and the switch is read only on a refusal.

    So a configuration that injects nothing is never refused, whatever its
    zone (C144.18). The zone and the switch are passed as thunks because *not* consulting
    them is part of the rule: an installation that classified nothing never
    resolves a zone, and a permitted send never reads the switch.
    """
    if classification.data_class is None:
        return UNDECLARED_DECISION
    zone = resolve_zone()
    declared = classification.data_class
    enforcing = None if zone_permits(zone.rank, declared.rank) else read_enforcing()
    kind = decision_kind(declared.rank, zone.rank, enforcing)
    return Decision(DECISION_KINDS[kind], declared, classification.source, zone, CEILINGS[zone], enforcing)


def message_of(decision: Decision) -> str:
    """C144.12: the decision's message, exactly as the rules word it."""
    if decision.data_class is None:
        return UNDECLARED_MESSAGE
    cls, zone, ceiling = decision.data_class.value, decision.zone.value, decision.ceiling.value
    if decision.kind == "permitted":
        verdict = f'which a provider in the "{zone}" trust zone may receive'
    else:
        verdict = f'which exceeds what a provider in the "{zone}" trust zone may receive'
    message = f"The injected context is classified {cls}, {verdict} (ceiling: {ceiling}). Declared by {decision.source}."
    return message + OBSERVE_SUFFIX if decision.kind == "observed" else message


def exception_text(decision: Decision, configuration_identifier: str) -> str | None:
    """C144.13: the text of the exception an enforcing refusal throws; None when nothing is thrown."""
    if decision.kind != "refused":
        return None
    return (
        f'Configuration "{configuration_identifier}" resolves to trust zone {decision.zone.value}, '
        f"which permits at most {decision.ceiling.value}, but {decision.source} is classified {decision.data_class.value}. "
        "Raise the provider's trust zone, remove the source from this configuration, or correct the declared class."
    )


def audit_record(
    decision: Decision,
    configuration_identifier: str,
    provider: str,
    model: str,
    be_user: int,
    run_uid: int,
) -> dict | None:
    """C144.14: the ``context_blocked`` record a refusal writes in either mode; never a source's text.

    It names the primary provider and model even when a fallback hop set the
    zone, and holds neither the zone nor the ceiling.
    """
    if decision.kind not in ("refused", "observed"):
        return None
    return {
        "correlation_id": "",
        "decision": "context_blocked",
        "reason": decision.data_class.value,
        "provider": provider,
        "model": model,
        "configuration": configuration_identifier,
        "be_user": be_user,
        "tool_name": "",
        "agentrun_uid": run_uid,
        "guardrail": "",
        "detail": decision.source + (" (observe)" if decision.kind == "observed" else ""),
    }
