"""The catalogs the gateway proofs range over: every catalog of at most ``bound`` distinct tools drawn from :data:`TOOL_SHAPES`.

A tool shape is a :class:`CatalogTool` that varies what the lab-001 rules
read of a tool: its effect (retrieval, export, write), whether it lists a
role or takes any (``*``), a tenant reader role on a retrieval, an integer
argument that is absent, optional or required, an ``argument_above``
approval on it for a tool with a side effect, and the idempotency key and
re-check at the write that only lab-001+next reads. The lab's own two tools
are shapes too, so the lab's catalog is one of the catalogs. Every shape is
named by what it declares, and a catalog by its tools' names, so a
counterexample names the same catalog whatever else is added here.
"""

from __future__ import annotations

import hashlib
from itertools import product

from gateproof.model.gateway.catalog import ApprovalRule, ArgumentSpec, Catalog, CatalogTool
from gateproof.model.gateway.catalog_checks import ANY_ROLE
from gateproof.model.gateway.lab import EXPORT_TOOL, LAB_CATALOG, READ_TOOL, SUPERVISOR_ROLE, SUPPORT_ROLE

#: The record and destination arguments every generated tool declares as the lab's tools do.
RECORD_SPEC, DESTINATION_SPEC = EXPORT_TOOL.arguments
AMOUNT = "amount"
#: G001.18: an ``argument_above`` approval applies to an amount strictly above this.
AMOUNT_ABOVE = 500
AMOUNT_CHOICES = ("none", "optional", "required")


def _amount(choice: str) -> tuple[ArgumentSpec, ...]:
    return () if choice == "none" else (ArgumentSpec(AMOUNT, "integer", required=choice == "required", minimum=0),)


def _name(effect: str, roles: frozenset, reader: bool, amount: str, above: bool, keyed: bool) -> str:
    parts = [{"retrieval": "read", "export": "export", "write": "write"}[effect], "any" if ANY_ROLE in roles else SUPPORT_ROLE]
    parts += ["reader"] * reader + {"none": [], "optional": ["amount_opt"], "required": ["amount"]}[amount]
    return "_".join(parts + ["above"] * above + ["keyed"] * keyed)


def _shape(effect: str, listed: bool, reader: bool, amount: str, above: bool, keyed: bool) -> CatalogTool:
    roles = frozenset({SUPPORT_ROLE if listed else ANY_ROLE})
    exporting = effect == "export"
    return CatalogTool(
        name=_name(effect, roles, reader, amount, above, keyed),
        effect=effect,
        arguments=(RECORD_SPEC, *((DESTINATION_SPEC,) if exporting else ()), *_amount(amount)),
        record_argument=RECORD_SPEC.name,
        record_kind=EXPORT_TOOL.record_kind,
        roles=roles,
        destination=DESTINATION_SPEC.name if exporting else None,
        tenant_reader_role=SUPERVISOR_ROLE if reader else None,
        idempotency_key=keyed,
        approvals=(*((ApprovalRule("external_destination"),) if exporting else ()), *((ApprovalRule("argument_above", AMOUNT, AMOUNT_ABOVE),) if above else ())),
        recheck_at_write=keyed,
    )


def _generated_shapes() -> tuple[CatalogTool, ...]:
    """Every combination the catalog's schema and S003.5 allow: a reader role on retrievals alone, approvals and flags on side effects alone."""
    shapes = []
    for effect, listed, reader, amount, above, keyed in product(("retrieval", "export", "write"), (False, True), (False, True), AMOUNT_CHOICES, (False, True), (False, True)):
        side_effect = effect != "retrieval"
        if (reader and side_effect) or (above and (not side_effect or amount == "none")) or (keyed and not side_effect):
            continue
        shapes.append(_shape(effect, listed, reader, amount, above, keyed))
    return tuple(shapes)


#: The lab's tools, then every generated shape; a catalog lists some of them, in this order.
TOOL_SHAPES: tuple[CatalogTool, ...] = (*LAB_CATALOG.tools, *_generated_shapes())
LAB_SHAPES = tuple(range(len(LAB_CATALOG.tools)))
MAX_NAMED_ID = 180


def catalog_of(shapes) -> Catalog:
    """The catalog declaring the tools of ``shapes`` (indices into :data:`TOOL_SHAPES`), named by its tools; the lab's is the lab's."""
    tools = tuple(TOOL_SHAPES[shape] for shape in shapes)
    if tools == LAB_CATALOG.tools:
        return LAB_CATALOG
    names = "+".join(tool.name for tool in tools)
    if len(names) > MAX_NAMED_ID:  # a catalog id is at most 200 characters: a long list of names is named by its digest
        names = f"{len(tools)}-tools-{hashlib.sha256(names.encode()).hexdigest()[:16]}"
    return Catalog(id=f"generated:{names}", record_kinds=LAB_CATALOG.record_kinds, tools=tools)


def catalogs_up_to(bound: int) -> int:
    """How many catalogs of at most ``bound`` distinct tools there are: what a proof at that bound covers."""
    count, ways = 0, 1
    for size in range(1, bound + 1):
        ways = ways * (len(TOOL_SHAPES) - size + 1) // size
        count += ways
    return count
