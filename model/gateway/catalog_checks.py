"""What a catalog's schema cannot say, refused as a :class:`CatalogError` naming the field (S003.2 to S003.6).

Each check reads a document the schema has accepted, so every field it
looks at is there with its declared type.
"""

from __future__ import annotations

from ..scenario.errors import ScenarioError, join_path

#: The role entry that lets a session of any roles call a tool.
ANY_ROLE = "*"
TEXT_TYPES = ("identifier", "string")
NUMBER_TYPES = ("integer", "number")
SIDE_EFFECTS = ("export", "write")
#: S001.9: the keys of a gateway scenario's world that are not record collections, and the fields every stored record has.
WORLD_TABLES = ("sessions", "destinations", "runbooks", "approvals", "rate_limit", "clock")
RECORD_FIELDS = ("id", "content")
#: The lab's collection, whose record fields the scenario schema fixes (S003.7).
LAB_COLLECTION = ("cases", "tenant", "assignees")


class CatalogError(ScenarioError):
    """A document that is not a valid catalog; ``path`` names the field (``$`` is the document)."""


def _refuse(path: list, problem: str) -> None:
    raise CatalogError(join_path(path), problem)


def check_unique_names(items: list[dict], where: list, what: str) -> None:
    """S003.2: no two tools, record kinds or arguments of one tool share a name."""
    seen: set[str] = set()
    for position, item in enumerate(items):
        if item["name"] in seen:
            _refuse([*where, position, "name"], f"{what} {item['name']!r} is declared twice")
        seen.add(item["name"])


def check_record_kinds(kinds: list[dict]) -> None:
    """S003.2, S003.7: each record kind is declared once, keeps its tenant and its assignees in two fields of its own, and its records under a key
    of the world no other kind and no other table uses; a kind stored as the lab's ``cases`` keeps the lab's field names."""
    check_unique_names(kinds, ["record_kinds"], "record kind")
    stored: set[str] = set()
    for number, kind in enumerate(kinds):
        where = ["record_kinds", number]
        if kind["tenant"] == kind["assignees"]:
            _refuse([*where, "assignees"], f"the field {kind['tenant']!r} cannot hold both the tenant and the assignees")
        for field in ("tenant", "assignees"):
            if kind[field] in RECORD_FIELDS:
                _refuse([*where, field], f"{kind[field]!r} is a field of every record; the {field} needs one of its own")
        collection = kind.get("collection", kind["name"] + "s")
        field = "collection" if "collection" in kind else "name"
        if collection in WORLD_TABLES or collection in stored:
            _refuse([*where, field], f"the world key {collection!r} is taken: a kind's records need a key of their own (set collection)")
        if collection == LAB_COLLECTION[0] and (kind["tenant"], kind["assignees"]) != LAB_COLLECTION[1:]:
            _refuse([*where, field], "records stored as 'cases' keep their tenant in 'tenant' and their assignees in 'assignees'")
        stored.add(collection)


def check_argument_bounds(argument: dict, where: list) -> None:
    """S003.3: bounds fit the argument's type, none is above its maximum, and a text argument declares its longest."""
    text = argument["type"] in TEXT_TYPES
    for field in ("min_length", "max_length", "minimum", "maximum"):
        if field in argument and (field.endswith("_length") != text):
            _refuse([*where, field], f"not a bound of an argument of type {argument['type']}")
    if text and "max_length" not in argument:
        _refuse([*where, "max_length"], "required field is missing: a text argument declares its longest value")
    if argument["type"] == "integer":
        for field in ("minimum", "maximum"):
            if field in argument and argument[field] != int(argument[field]):
                _refuse([*where, field], "not an integer, for an argument of type integer")
    if argument["type"] == "identifier" and argument.get("min_length", 1) < 1:
        _refuse([*where, "min_length"], "below 1: an identifier is never empty")
    for least, most in (("min_length", "max_length"), ("minimum", "maximum")):
        if least in argument and most in argument and argument[least] > argument[most]:
            _refuse([*where, least], f"{argument[least]} is above the {most} {argument[most]}")


def check_named_argument(tool: dict, where: list, field: list) -> None:
    """S003.4: a record or destination argument is one of the tool's arguments, required and an identifier."""
    name = tool
    for key in field:
        name = name[key]
    declared = {argument["name"]: argument for argument in tool["arguments"]}
    if name not in declared:
        _refuse([*where, *field], f"no argument {name!r} among the tool's arguments")
    if declared[name]["type"] != "identifier" or not declared[name].get("required", True):
        _refuse([*where, *field], f"the argument {name!r} is not a required identifier")


def check_effect_fields(tool: dict, where: list) -> None:
    """S003.5: each field fits the tool's effect: a destination on exports alone, and always there; a reader role on retrievals alone;
    keys, approvals and the re-check at the write on tools with a side effect."""
    if tool["effect"] == "export" and "destination" not in tool:
        _refuse([*where, "destination"], "required field is missing: an export names its destination")
    for field, effects in (("destination", ("export",)), ("tenant_reader_role", ("retrieval",)), ("idempotency_key", SIDE_EFFECTS),
                           ("approvals", SIDE_EFFECTS), ("recheck_at_write", SIDE_EFFECTS)):
        if field in tool and tool["effect"] not in effects:
            _refuse([*where, field], f"not a field of a tool whose effect is {tool['effect']}")
    if ANY_ROLE in tool["roles"] and len(tool["roles"]) > 1:
        _refuse([*where, "roles"], f"{ANY_ROLE!r} is any role: it stands alone")


def check_approval(tool: dict, approval: dict, where: list) -> None:
    """S003.6: an approval condition names what it needs: an external destination of an export, or a numeric argument and a value."""
    if approval["when"] == "external_destination":
        for field in ("argument", "above"):
            if field in approval:
                _refuse([*where, field], "not a field of an external_destination approval")
        if "destination" not in tool:
            _refuse([*where, "when"], "the tool names no destination")
        return
    for field in ("argument", "above"):
        if field not in approval:
            _refuse([*where, field], "required field is missing")
    declared = {argument["name"]: argument for argument in tool["arguments"]}
    if declared.get(approval["argument"], {}).get("type") not in NUMBER_TYPES:
        _refuse([*where, "argument"], f"no integer or number argument {approval['argument']!r} among the tool's arguments")


def check_catalog_semantics(document: dict) -> None:
    """S003.2–S003.6: what the schema cannot say, checked on a document the schema accepts; S003.4: each tool's record kind among the catalog's."""
    check_record_kinds(document["record_kinds"])
    check_unique_names(document["tools"], ["tools"], "tool")
    kinds = {kind["name"] for kind in document["record_kinds"]}
    for number, tool in enumerate(document["tools"]):
        where = ["tools", number]
        check_unique_names(tool["arguments"], [*where, "arguments"], "argument")
        for position, argument in enumerate(tool["arguments"]):
            check_argument_bounds(argument, [*where, "arguments", position])
        check_named_argument(tool, where, ["record", "argument"])
        if tool["record"]["kind"] not in kinds:
            _refuse([*where, "record", "kind"], f"unknown record kind {tool['record']['kind']!r}")
        check_effect_fields(tool, where)
        if "destination" in tool:
            check_named_argument(tool, where, ["destination"])
        for position, approval in enumerate(tool.get("approvals", ())):
            check_approval(tool, approval, [*where, "approvals", position])
