"""A gateway's tool catalog: the document a team declares its gateway in, read into values.

The schema (``model/schema/catalog.schema.json``) says what each field may
hold; :func:`read_catalog` then refuses what a schema cannot say (S003.1 to
S003.6), each as a :class:`CatalogError` naming the field and the problem.
A catalog read is a value: the rules read their tools, arguments, roles and
records from it, and :func:`catalog_document` writes it back.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

import attrs
import orjson
from attrs import frozen

from ..scenario.document import check_depth, check_repeated_keys, read_object
from ..scenario.errors import ScenarioError
from ..scenario.schema import validate
from .catalog_checks import ANY_ROLE, SIDE_EFFECTS, CatalogError, check_catalog_semantics

CATALOG_VERSION = 1
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "catalogs"


@frozen
class RateLimit:
    """At most ``calls`` calls per session in any ``window`` seconds (G002.4)."""

    calls: int
    window: int


@frozen
class ArgumentSpec:
    """One declared argument: its type and bounds, and whether a call must carry it."""

    name: str
    type: str
    required: bool = True
    min_length: int | None = None
    max_length: int | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    description: str = ""


@frozen
class RecordKind:
    """A kind of stored record and the fields that hold its tenant and its assignees."""

    name: str
    tenant: str
    assignees: str
    collection: str | None = None
    description: str = ""

    @property
    def stored_as(self) -> str:
        """S001.9: the key of a scenario's world holding records of this kind: ``collection``, or the kind's name and ``s``."""
        return self.collection or f"{self.name}s"


@frozen
class ApprovalRule:
    """When a call needs an approval of its exact action: to an external destination, or with an argument above a value."""

    when: str
    argument: str | None = None
    above: int | float | None = None


@frozen
class CatalogTool:
    """One declared tool: its arguments, the record it acts on, who may call it, its effect and its next checks."""

    name: str
    effect: str
    arguments: tuple[ArgumentSpec, ...]
    record_argument: str
    record_kind: str
    roles: frozenset[str]
    destination: str | None = None
    tenant_reader_role: str | None = None
    idempotency_key: bool = False
    approvals: tuple[ApprovalRule, ...] = ()
    recheck_at_write: bool = False
    description: str = ""

    @property
    def argument_names(self) -> tuple[str, ...]:
        return tuple(argument.name for argument in self.arguments)

    @property
    def required_arguments(self) -> tuple[str, ...]:
        return tuple(argument.name for argument in self.arguments if argument.required)

    @property
    def has_side_effect(self) -> bool:
        return self.effect in SIDE_EFFECTS


@frozen
class Catalog:
    """A gateway as its catalog declares it."""

    id: str
    record_kinds: tuple[RecordKind, ...]
    tools: tuple[CatalogTool, ...]
    rate_limit: RateLimit | None = None
    description: str = ""

    def tool(self, name: object) -> CatalogTool | None:
        """G001.1 over the catalog's ``tools[].name``: the declared tool of this name; None for any other name or any value that is not a string."""
        return next((tool for tool in self.tools if tool.name == name), None) if isinstance(name, str) else None

    @property
    def record_arguments(self) -> tuple[str, ...]:
        """G001.15: the argument names that name a record (``tools[].record.argument``), each once, in the order the tools declare them."""
        return tuple(dict.fromkeys(tool.record_argument for tool in self.tools))

    @property
    def destination_arguments(self) -> tuple[str, ...]:
        """G001.15: the argument names that name a destination (``tools[].destination``), each once, in declaration order."""
        return tuple(dict.fromkeys(tool.destination for tool in self.tools if tool.destination))

    @property
    def writes(self) -> bool:
        """S001.10: whether a tool's effect is ``write``, and so whether a call's outcome lists its writes."""
        return any(tool.effect == "write" for tool in self.tools)


def _argument(fields: dict) -> ArgumentSpec:
    return ArgumentSpec(
        fields["name"], fields["type"], fields.get("required", True), fields.get("min_length"), fields.get("max_length"),
        fields.get("minimum"), fields.get("maximum"), fields.get("description", ""),
    )


def _tool(fields: dict) -> CatalogTool:
    return CatalogTool(
        name=fields["name"],
        effect=fields["effect"],
        arguments=tuple(map(_argument, fields["arguments"])),
        record_argument=fields["record"]["argument"],
        record_kind=fields["record"]["kind"],
        roles=frozenset(fields["roles"]),
        destination=fields.get("destination"),
        tenant_reader_role=fields.get("tenant_reader_role"),
        idempotency_key=fields.get("idempotency_key", False),
        approvals=tuple(ApprovalRule(a["when"], a.get("argument"), a.get("above")) for a in fields.get("approvals", ())),
        recheck_at_write=fields.get("recheck_at_write", False),
        description=fields.get("description", ""),
    )


def read_catalog(document: object) -> Catalog:
    """S003.1: a catalog document read into values, or a :class:`CatalogError` naming the first wrong field and the problem.

    The document is held to the limits of any document (S001.5, S001.6),
    then to its version, its schema, and what the schema cannot say (S003.2–S003.6).
    """
    try:
        check_depth(document)
        check_repeated_keys(document)
        if isinstance(document, dict) and "catalog" in document and document["catalog"] != CATALOG_VERSION:
            raise ScenarioError("$.catalog", f"expected the catalog format version {CATALOG_VERSION}, got {json.dumps(document['catalog'])[:60]}")
        validate("catalog", document)
    except ScenarioError as error:
        raise CatalogError(error.path, error.problem) from None
    check_catalog_semantics(document)
    limit = document.get("rate_limit")
    return Catalog(
        id=document["id"],
        record_kinds=tuple(RecordKind(k["name"], k["tenant"], k["assignees"], k.get("collection"), k.get("description", "")) for k in document["record_kinds"]),
        tools=tuple(map(_tool, document["tools"])),
        rate_limit=None if limit is None else RateLimit(limit["calls"], limit["window"]),
        description=document.get("description", ""),
    )


def _declared(value: object) -> dict:
    """The fields of an attrs value that differ from their defaults: what its document writes."""
    return {field.name: getattr(value, field.name) for field in attrs.fields(type(value)) if getattr(value, field.name) != field.default}


def catalog_document(catalog: Catalog) -> dict:
    """The document :func:`read_catalog` reads back to ``catalog``: every field that is not at its default."""
    tools = []
    for tool in catalog.tools:
        fields = _declared(tool)
        fields.pop("record_kind")
        fields["record"] = {"argument": fields.pop("record_argument"), "kind": tool.record_kind}
        fields["roles"] = sorted(tool.roles)
        fields["arguments"] = [_declared(argument) for argument in tool.arguments]
        if tool.approvals:
            fields["approvals"] = [_declared(approval) for approval in tool.approvals]
        tools.append(fields)
    document = {"catalog": CATALOG_VERSION, **_declared(catalog), "record_kinds": [_declared(kind) for kind in catalog.record_kinds], "tools": tools}
    if catalog.rate_limit is not None:
        document["rate_limit"] = {"calls": catalog.rate_limit.calls, "window": catalog.rate_limit.window}
    return document


def read_catalog_cached(document: object) -> Catalog:
    """:func:`read_catalog`, each distinct document read once: a campaign's scenarios carry one catalog many times."""
    return read_catalog_text(orjson.dumps(document, option=orjson.OPT_SORT_KEYS))


@lru_cache(maxsize=64)
def read_catalog_text(text: bytes) -> Catalog:
    """The catalog a canonical JSON text holds, read once per text."""
    return read_catalog(json.loads(text, object_pairs_hook=read_object))


@cache
def shipped_document(name: str) -> dict:
    """The document of the catalog shipped with the model as ``model/catalogs/NAME.json``; no one may change it."""
    return json.loads((SHIPPED_DIR / f"{name}.json").read_text(encoding="utf-8"), object_pairs_hook=read_object)


@cache
def shipped_catalog(name: str) -> Catalog:
    """The catalog shipped with the model as ``model/catalogs/NAME.json``, read as any other."""
    return read_catalog(shipped_document(name))
