"""The lab's gateway as its catalog declares it (``model/catalogs/lab-001.json``): the names the lab-001 rules read.

The lab's rules are written for one export tool and one retrieval tool that
name their record with one argument; each name below is read from the
catalog, and a catalog that broke that shape would stop the import here
rather than be decided by rules written for another.
"""

from __future__ import annotations

from .catalog import ANY_ROLE, ApprovalRule, Catalog, CatalogTool, shipped_catalog


def _only(values: list, what: str):
    """The one value of ``values``: the lab's rules are written for exactly one ``what``."""
    if len(set(values)) != 1:
        raise ValueError(f"the lab's catalog declares {len(set(values))} {what}, and its rules are written for one")
    return values[0]


LAB_CATALOG: Catalog = shipped_catalog("lab-001")
#: The tool whose effect is an export (G001.7, G001.8, G001.11, G001.14) and the retrieval tool (G001.12).
EXPORT_TOOL: CatalogTool = _only([tool for tool in LAB_CATALOG.tools if tool.effect == "export"], "export tools")
READ_TOOL: CatalogTool = _only([tool for tool in LAB_CATALOG.tools if tool.effect == "retrieval"], "retrieval tools")
#: The argument naming the case a call acts on (``tools[].record.argument``) and the export's destination (``tools[].destination``).
RECORD_ARGUMENT: str = _only([tool.record_argument for tool in LAB_CATALOG.tools], "record arguments")
DESTINATION_ARGUMENT: str = _only([EXPORT_TOOL.destination], "destination arguments")
#: G001.7: the role that may export (``tools[].roles`` of the export tool); G001.12: the role that reads any case of its
#: tenant (``tools[].tenant_reader_role`` of the retrieval tool), whose own roles are any (``*``).
SUPPORT_ROLE: str = _only(sorted(EXPORT_TOOL.roles), "export roles")
SUPERVISOR_ROLE: str = _only([READ_TOOL.tenant_reader_role], "tenant reader roles")
if READ_TOOL.roles != {ANY_ROLE}:
    raise ValueError("the lab's retrieval tool is open to any role, and its rules check none")
if EXPORT_TOOL.approvals != (ApprovalRule("external_destination"),):
    raise ValueError("the lab's export needs an approval to an external destination, and its rules ask for no other")
#: G001.5: the longest identifier an argument may carry (``tools[].arguments[].max_length``); longer is malformed, not truncated.
ARGUMENT_MAX_LENGTH: int = _only([argument.max_length for tool in LAB_CATALOG.tools for argument in tool.arguments], "argument lengths")
