"""A gateway call in the team's names: its tool, roles, record kind and fields, destination argument and approvals,
each read from the catalog the scenario declares (``world.catalog``).

The reason codes and the outcome's field names are the lab's under any
catalog (adr/gateway.md, "The rules over a catalog"): ``case_not_found`` for an
order not stored. So what a check asks is said in the catalog's names, and
under a catalog other than the lab's a failed check says why in them too
(``no order "o-9" stored``). The lab's texts, which predate catalogs, are kept
where a generic phrase would say them otherwise: its role check and its
assignees.
"""

from __future__ import annotations

from attrs import frozen

from gateproof.model.gateway.arguments import Check, is_valid_value, list_extra_arguments, list_missing_arguments
from gateproof.model.gateway.authorize import is_argument_above, lookup_case
from gateproof.model.gateway.catalog import ANY_ROLE, ArgumentSpec, Catalog, CatalogTool, RecordKind
from gateproof.model.gateway.lab import LAB_CATALOG, SUPPORT_ROLE
from gateproof.model.gateway.world import Case, GatewayWorld, Session

from .trace import shown

def value_text(argument: ArgumentSpec) -> str:
    """``identifier 1..128``, ``number 0.01..10000``, ``string ..500``: what an argument's value must be, in a few words."""
    least, most = (argument.min_length, argument.max_length) if argument.type in ("identifier", "string") else (argument.minimum, argument.maximum)
    if least is None and argument.type == "identifier":
        least = 1
    bounds = "" if least is None and most is None else f" {'' if least is None else least}..{'' if most is None else most}"
    return f"{argument.type}{bounds}"


def argument_text(argument: ArgumentSpec) -> str:
    """``case_id identifier 1..128``, ``amount number 0.01..10000``, ``note string ..500 optional``: one argument in a few words."""
    return f"{argument.name} {value_text(argument)}{'' if argument.required else ' optional'}"


def roles_text(tool: CatalogTool) -> str:
    return "any" if ANY_ROLE in tool.roles else ", ".join(sorted(tool.roles))


def record_kind(catalog: Catalog, name: str) -> RecordKind:
    return next(kind for kind in catalog.record_kinds if kind.name == name)


@frozen
class CallNames:
    """One call as the catalog names it: the world it is decided on, its session and arguments, and the tool it names (None
    for a tool the catalog does not declare)."""

    world: GatewayWorld
    session: Session
    arguments: object
    tool: CatalogTool | None

    @property
    def catalog(self) -> Catalog:
        return self.world.catalog

    @property
    def lab(self) -> bool:
        """Whether the catalog is the lab's, whose texts are kept as they were."""
        return self.catalog == LAB_CATALOG

    def named(self, argument: str | None) -> str | None:
        """The string the call's argument ``argument`` holds, or None."""
        value = self.arguments.get(argument) if isinstance(self.arguments, dict) and argument else None
        return value if isinstance(value, str) else None

    @property
    def record_argument(self) -> str | None:
        """The argument naming the call's record: its tool's (``tools[].record.argument``), or for a tool the catalog does not
        declare, the first of the catalog's record arguments the call carries."""
        if self.tool is not None:
            return self.tool.record_argument
        return next((name for name in self.catalog.record_arguments if self.named(name) is not None), None)

    @property
    def kind(self) -> RecordKind:
        """The record kind the call's record argument names: its tool's, or the first tool's to name records with that argument."""
        tool = self.tool or next((t for t in self.catalog.tools if t.record_argument == self.record_argument), self.catalog.tools[0])
        return record_kind(self.catalog, tool.record_kind)

    @property
    def record(self) -> Case | None:
        record_id = self.named(self.record_argument)
        return None if record_id is None else lookup_case(self.world, record_id, self.kind.name)

    @property
    def destination_argument(self) -> str | None:
        if self.tool is not None:
            return self.tool.destination
        return next((name for name in self.catalog.destination_arguments if self.named(name) is not None), None)

    def conditions(self, above: str = "above") -> str:
        """The approval conditions (``tools[].approvals``) that hold for the call: ``external destination``, ``amount 600 above 500``."""
        held = []
        for approval in self.tool.approvals:
            if approval.when == "external_destination":
                destination = self.world.destination_index.get(self.named(self.tool.destination))
                if destination is not None and not destination.internal:
                    held.append("external destination")
            elif is_argument_above(approval, self.arguments):
                held.append(f"{approval.argument} {shown(self.arguments[approval.argument])} {above} {shown(approval.above)}")
        return " and ".join(held)

    def check_name(self, rule: str) -> str:
        """What the check of ``rule`` asks of this call, in the catalog's names (:data:`CHECK_NAMES`)."""
        return CHECK_NAMES[rule](self)

    def role_check(self) -> str:
        return f"session holds the {SUPPORT_ROLE} role" if self.lab else f"session holds a role of {self.tool.name}: {roles_text(self.tool)}"

    def values_check(self) -> str:
        identifiers = all(argument.type == "identifier" for argument in self.tool.arguments)
        return "every value an identifier string" if identifiers else "every value of its declared type and bounds"

    def read_check(self) -> str:
        reader = self.tool.tenant_reader_role
        return f"session may read the {self.kind.name} (assigned" + (f", or {reader})" if reader else ")")

    def why_failed(self, check: Check) -> str | None:
        """Why a check failed, in the catalog's names; None under the lab's catalog, whose reason codes say it in its own."""
        return None if self.lab else _why(self, check.rule)

    def record_line(self) -> str:
        """The stored record the call names: its tenant and assignees in the fields its kind keeps them in."""
        kind, record = self.kind, self.record
        said = f"{kind.name} {shown(self.named(self.record_argument))}: "
        if record is None:
            return said + "not stored"
        if self.lab:
            return said + f"tenant {shown(record.tenant)}, " + (f"assigned to {shown(sorted(record.assignees))}" if record.assignees else "assigned to nobody")
        return said + f"{kind.tenant} {shown(record.tenant)}, {kind.assignees} {shown(sorted(record.assignees))}"

    def audit_label(self, key: str) -> str:
        """An audit record's field as the text shows it: under a catalog other than the lab's, ``case_id`` and ``destination_id``
        by the arguments they are read from (G001.15; ``order_id``), the outcome keeping the field names whatever the catalog."""
        if self.lab or key not in ("case_id", "destination_id"):
            return key
        if key == "case_id":
            return " or ".join(self.catalog.record_arguments)
        return " or ".join(self.catalog.destination_arguments) or "destination"

    def tool_line(self) -> str:
        """The tool as the catalog declares it, shown under a catalog other than the lab's."""
        tool = self.tool
        where = f"; destination: {tool.destination}" if tool.destination else ""
        return (f"tool {shown(tool.name)} of catalog {shown(self.catalog.id)}: {tool.effect}, on the {tool.record_kind} named by "
                f"{tool.record_argument}{where}; arguments {', '.join(map(argument_text, tool.arguments))}; roles {roles_text(tool)}")


def _plain(text: str):
    return lambda names: text


#: What each check of a call asks, in words, by the rule id the model's check carries, in the names of the call's catalog.
CHECK_NAMES = {
    "G001.1": _plain("known tool"), "G001.2": _plain("arguments are an object"), "G001.17": _plain("no key written twice"),
    "G001.3": _plain("no undeclared arguments"), "G001.4": _plain("every declared argument present"), "G001.5": CallNames.values_check,
    "G001.6": _plain("session is valid"), "G001.7": CallNames.role_check, "G001.8": _plain("destination is configured and internal"),
    "G001.9": lambda names: f"{names.kind.name} exists", "G001.10": lambda names: f"{names.kind.name} belongs to the session's tenant",
    "G001.11": lambda names: f"session's user is assigned to the {names.kind.name}", "G001.12": CallNames.read_check,
    "G001.18": _plain("no approval needed (lab-001 honours none)"),
    "G002.3": _plain("a reused idempotency key names the same action"), "G002.4": _plain("session is within its rate limit"),
    "G002.5": lambda names: f"{names.conditions()}: an approval names this exact action",
    "G002.6": lambda names: f"{names.conditions()}: the approval has not expired",
}


def _why(names: CallNames, rule: str) -> str | None:
    """G001.3–G001.18, G002.5, G002.6: a failed check in the catalog's names; None where the reason code says it all."""
    tool, session, arguments = names.tool, names.session, names.arguments
    kind, record = names.kind, names.record
    if rule == "G001.3":
        return f"{tool.name} declares no {', '.join(list_extra_arguments(tool, arguments))}"
    if rule == "G001.4":
        return f"{tool.name} requires {', '.join(list_missing_arguments(tool, arguments))}"
    if rule == "G001.5":
        wrong = next(a for a in tool.arguments if a.name in arguments and not is_valid_value(a, arguments[a.name]))
        return f"{wrong.name} {shown(arguments[wrong.name])} does not fit {value_text(wrong)}"
    if rule == "G001.7":
        return f"the session's roles {shown(sorted(session.roles))} hold none of {roles_text(tool)}"
    if rule == "G001.8":
        destination = names.named(tool.destination)
        if names.world.destination_index.get(destination) is None:
            return f"{tool.destination} {shown(destination)} names no configured destination"
        return f"{tool.destination} {shown(destination)} is an external destination"
    if rule == "G001.18":
        return f"{names.conditions('is above')}: needs an approval of this exact {tool.name}"
    if rule == "G002.5":
        return f"no approval of this exact {tool.name} for {shown(session.user)}"
    if rule == "G001.9":
        return f"no {kind.name} {shown(names.named(tool.record_argument))} stored"
    if rule == "G001.10":
        return f"the {kind.name}'s {kind.tenant} is {shown(record.tenant)}, the session's is {shown(session.tenant)}"
    if rule in ("G001.11", "G001.12"):
        reader = f", nor does the session hold {tool.tenant_reader_role}" if rule == "G001.12" and tool.tenant_reader_role else ""
        return f"{shown(session.user)} is not among the {kind.name}'s {kind.assignees}{reader}"
    return None


def call_names(world: GatewayWorld, session_id: str, tool: object, arguments: object) -> CallNames:
    return CallNames(world, world.session_index[session_id], arguments, world.catalog.tool(tool))
