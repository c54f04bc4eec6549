"""The boundary pairs of a catalog: for every declared tool, each rule that applies to it met on one side and just past it on the other.

Derived from the catalog alone, so any team's gateway gets its own pairs:
each argument's bounds either side, an extra and a missing argument, each
role the tool lists against one it does not, the tenant, the assignment or
the read rule, the destination, and under the next checks the key, the
window and the expiry, the approval's value, and the re-check at the
write. Each pair is two cases whose scenarios differ in one thing; their
ids are made from the catalog, the tool and what differs, never a number.
"""

from __future__ import annotations

import copy

from gateproof.model.gateway.catalog import Catalog, CatalogTool, read_catalog
from gateproof.model.gateway.catalog_checks import ANY_ROLE

from ..generation.catalog_values import either_side, inside
from .cases import with_expected
from .load import CorpusCase
from ..generation.catalog_world import EXTERNAL, INTERNAL, STRANGER_ROLE
from ..generation.draw import Draw

VERSIONS = ("lab-001", "lab-001+next")
CLOCK = 100


class Pair:
    """The base scenario of one tool, and cases made from it by one edit each."""

    def __init__(self, catalog: Catalog, document: dict, tool: CatalogTool, rules: str):
        self.catalog, self.document, self.tool, self.rules = catalog, document, tool, rules
        kind = next(k for k in catalog.record_kinds if k.name == tool.record_kind)
        self.kind = kind
        role = sorted(tool.roles)[0] if ANY_ROLE not in tool.roles else STRANGER_ROLE
        self.world = {
            "sessions": [{"id": "caller", "user": "ana", "tenant": "north", "roles": [role]}],
            kind.stored_as: [{"id": f"{kind.name}-1", kind.tenant: "north", kind.assignees: ["ana"], "content": "stored content"}],
            "clock": CLOCK,
        }
        if tool.destination:
            self.world["destinations"] = [{"id": INTERNAL, "internal": True}, {"id": EXTERNAL, "internal": False}]
        self.arguments = self.base_arguments()

    def base_arguments(self) -> dict:
        """Arguments every shape rule takes: required ones at an inside value, optional ones left out, no approval needed."""
        d = Draw(0)
        arguments = {}
        for argument in self.tool.arguments:
            if not argument.required:
                continue
            if argument.name == self.tool.record_argument:
                arguments[argument.name] = f"{self.kind.name}-1"
            elif argument.name == self.tool.destination:
                arguments[argument.name] = INTERNAL
            else:
                value = inside(d, argument)
                for approval in self.tool.approvals:
                    if approval.argument == argument.name and value > approval.above:
                        value = approval.above if argument.minimum is None or approval.above >= argument.minimum else argument.minimum
                arguments[argument.name] = value
        return arguments

    def case(self, what: str, rules_pinned: list[str], calls=None, world_edit=None, steps=None) -> dict:
        """A case named ``what`` pinning ``rules_pinned``: the base world edited by ``world_edit``, and ``calls`` (arguments) or ``steps``."""
        world = copy.deepcopy(self.world)
        if world_edit:
            world_edit(world)
        steps = steps or [self.call(arguments) for arguments in (calls or [self.arguments])]
        name = f"{self.catalog.id[:80]}.{self.rules}.{self.tool.name}.{what}".replace("+", ".")
        scenario = {"gateproof": 1, "kind": "gateway", "id": name, "description": f"{self.tool.name}: {what.replace('-', ' ')}.",
                    "rules": self.rules, "catalog": self.document, "world": world, "steps": steps}
        return {"id": name, "description": scenario["description"], "rules": rules_pinned, "scenario": scenario}

    def call(self, arguments, session: str = "caller", **fields) -> dict:
        return {"op": "call", "session": session, "tool": self.tool.name, "arguments": arguments, **fields}


def shape_pairs(pair: Pair) -> list[dict]:
    """G001.1–G001.5: the tool's name and a near one, each argument's bounds either side, an extra field, each required one missing."""
    tool, base = pair.tool, pair.arguments
    cases = [pair.case("allowed", ["G001.13"]), pair.case("name-changed", ["G001.1"], steps=[dict(pair.call(base), tool=tool.name.upper())]),
             pair.case("extra-argument", ["G001.3"], calls=[{**base, "approved_by": "admin"}])]
    for argument in tool.arguments:
        if argument.name in (tool.record_argument, tool.destination):
            continue
        for what, value, _taken in either_side(argument):
            cases.append(pair.case(f"{argument.name}-{what}", ["G001.5"], calls=[{**base, argument.name: value}]))
    for name in tool.required_arguments:
        cases.append(pair.case(f"{name}-missing", ["G001.4"], calls=[{k: v for k, v in base.items() if k != name}]))
    for argument in tool.arguments:
        if not argument.required:
            cases.append(pair.case(f"{argument.name}-given", ["G001.4"], calls=[{**base, argument.name: inside(Draw(1), argument)}]))
    return cases


def authority_pairs(pair: Pair) -> list[dict]:
    """G001.6–G001.12: the session, each role, the record, its tenant, its assignees, the tenant reader, the destination."""
    tool, kind, records = pair.tool, pair.kind, pair.kind.stored_as
    cases = [pair.case("session-revoked", ["G001.6"], world_edit=lambda w: w["sessions"][0].update(valid=False)),
             pair.case("record-missing", ["G001.9"], calls=[{**pair.arguments, tool.record_argument: f"{kind.name}-9"}]),
             pair.case("record-of-another-tenant", ["G001.10"], world_edit=lambda w: w[records][0].update({kind.tenant: "south"})),
             pair.case("caller-unassigned", ["G001.11" if tool.has_side_effect else "G001.12"],
                       world_edit=lambda w: w[records][0].update({kind.assignees: ["bo"]}))]
    if ANY_ROLE not in tool.roles:
        cases.append(pair.case("role-not-listed", ["G001.7"], world_edit=lambda w: w["sessions"][0].update(roles=[STRANGER_ROLE])))
        for role in sorted(tool.roles):
            cases.append(pair.case(f"role-{role}", ["G001.7"], world_edit=lambda w, r=role: w["sessions"][0].update(roles=[r])))
    if tool.tenant_reader_role:
        def reader(w, role=tool.tenant_reader_role):
            w["sessions"][0]["roles"] = sorted({*w["sessions"][0]["roles"], role})
            w[records][0][kind.assignees] = ["bo"]
        cases.append(pair.case("tenant-reader-unassigned", ["G001.12"], world_edit=reader))
    if tool.destination:
        for what, destination in (("destination-internal", INTERNAL), ("destination-external", EXTERNAL), ("destination-unknown", "nowhere")):
            cases.append(pair.case(what, ["G001.8", "G002.5"], calls=[{**pair.arguments, tool.destination: destination}]))
    return cases


def next_pairs(pair: Pair) -> list[dict]:
    """G001.18, G002.1–G002.6: approvals either side of their value and expiry, keys, the window, the re-check at the write."""
    tool, base, cases = pair.tool, pair.arguments, []
    approved = [base] + ([{**base, tool.destination: EXTERNAL}] if tool.destination else [])
    for approval in tool.approvals:
        if approval.when == "argument_above":
            spec = next(a for a in tool.arguments if a.name == approval.argument)
            step = 1 if spec.type == "integer" else 0.5
            cases.append(pair.case(f"{spec.name}-at-approval-value", ["G001.18", "G002.5"], calls=[{**base, spec.name: approval.above}]))
            if spec.maximum is None or approval.above + step <= spec.maximum:
                approved.append({**base, spec.name: approval.above + step})
    for number, arguments in enumerate(approved[1:], 1):
        for what, expires in (("unexpired", CLOCK + 1), ("expiring-now", CLOCK)):
            stored = {"id": "approval", "tool": tool.name, "arguments": arguments, "user": "ana", "expires_at": expires}
            cases.append(pair.case(f"approval-{number}-{what}", ["G002.5", "G002.6", "G001.18"], calls=[arguments],
                                   world_edit=lambda w, a=stored: w.update(approvals=[a])))
        cases.append(pair.case(f"approval-{number}-missing", ["G002.5", "G001.18"], calls=[arguments]))
    if tool.idempotency_key:
        again = [pair.call(base, idempotency_key="key-1"), pair.call(base, idempotency_key="key-1")]
        cases.append(pair.case("key-repeated", ["G002.2"], steps=again))
        other = dict(again[1], arguments={**base, tool.record_argument: f"{pair.kind.name}-9"})
        cases.append(pair.case("key-on-another-action", ["G002.3"], steps=[again[0], other]))
    limit = pair.catalog.rate_limit or {"calls": 2, "window": 10}
    calls, window = (limit.calls, limit.window) if pair.catalog.rate_limit else (2, 10)
    edit = None if pair.catalog.rate_limit else (lambda w: w.update(rate_limit={"calls": 2, "window": 10}))
    cases.append(pair.case("calls-at-limit", ["G002.4"], steps=[pair.call(base)] * calls, world_edit=edit))
    cases.append(pair.case("calls-past-limit", ["G002.4"], steps=[pair.call(base)] * (calls + 1), world_edit=edit))
    for what, seconds in (("window-passed", window), ("window-not-passed", window - 1)):
        steps = [pair.call(base)] * calls + [{"op": "advance_clock", "seconds": seconds}, pair.call(base)]
        cases.append(pair.case(f"calls-then-{what}", ["G002.4"], steps=steps, world_edit=edit))
    if tool.has_side_effect:
        revoked = pair.call(base, before_write=[{"op": "revoke_session", "session": "caller"}])
        cases.append(pair.case("revoked-before-write", ["G002.1"], steps=[revoked]))
    return cases


def catalog_pairs(document: dict) -> list[dict]:
    """Every boundary case of the catalog ``document``, under both rule versions, for every declared tool."""
    catalog = read_catalog(document)
    cases = []
    for rules in VERSIONS:
        for tool in catalog.tools:
            pair = Pair(catalog, document, tool, rules)
            cases += shape_pairs(pair) + authority_pairs(pair) + next_pairs(pair)
    return cases


def catalog_corpus(document: dict) -> list[CorpusCase]:
    """The boundary pairs of a catalog as corpus cases, each with the outcome the model gives it, in the family ``catalog/ID``."""
    family = f"catalog/{document['id']}"
    return [CorpusCase(case["id"], family, case["description"], tuple(case["rules"]), case["scenario"], with_expected(case)["expected"])
            for case in catalog_pairs(document)]
