"""The team gateway's rules: an in-memory store and the tool-call decision.

Nothing here knows about MCP. `Gateway.call` decides one proposed call for a
session the host has already authenticated, writes its one audit record and
performs what an allowed call does (serve a case, record an export).

Rules decided: lab-001 (G001.*) and lab-001+next (G001.* and G002.*), as
adr/gateway.md states them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

LAB = "lab-001"
NEXT = "lab-001+next"
RULE_VERSIONS = (LAB, NEXT)

# The catalogue: each tool and the arguments it declares.
CATALOGUE: dict[str, tuple[str, ...]] = {
    "export_case": ("case_id", "destination_id"),
    "read_case": ("case_id",),
}
MAX_ID_LENGTH = 128
SUPPORT_ROLE = "support"
SUPERVISOR_ROLE = "supervisor"

# Each refusal reason and the rule that states it (adr/gateway.md, reason codes).
RULE_OF = {
    "unknown_tool": "G001.1",
    "extra_arguments": "G001.3",
    "missing_argument": "G001.4",
    "session_invalid": "G001.6",
    "rate_limited": "G002.4",
    "idempotency_conflict": "G002.3",
    "role_denied": "G001.7",
    "destination_denied": "G001.8",
    "approval_required": "G002.5",
    "approval_expired": "G002.6",
    "case_not_found": "G001.9",
    "tenant_mismatch": "G001.10",
}

CHANGE_OPS = (
    "reassign_case",
    "revoke_session",
    "remove_destination",
    "edit_case",
    "edit_runbook",
    "advance_clock",
)


class FixtureError(ValueError):
    """A fixture message the store cannot apply."""


def canonical(arguments: Any) -> str:
    """G002.7: keys sorted, no insignificant whitespace, characters kept as they are."""
    return json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Session:
    id: str
    user: str
    tenant: str
    roles: list[str]
    valid: bool


@dataclass
class Case:
    id: str
    tenant: str
    assignees: list[str]
    content: str


@dataclass
class Refusal:
    reason: str
    rule: str


@dataclass
class Decision:
    """What a call decided, as the caller and the audit log see it."""

    decision: str  # allow | deny
    reason: str
    caller_reason: str
    rule: str | None
    stage: str = "check"
    replayed: bool = False
    served: dict[str, Any] | None = None  # what an allowed call answers


@dataclass
class Store:
    rules: str = LAB
    scenario: str = ""
    sessions: dict[str, Session] = field(default_factory=dict)
    cases: dict[str, Case] = field(default_factory=dict)
    destinations: dict[str, bool] = field(default_factory=dict)  # id -> internal
    runbooks: dict[str, str] = field(default_factory=dict)
    approvals: list[dict[str, Any]] = field(default_factory=list)
    rate_limit: tuple[int, int] | None = None  # (calls, window)
    clock: int = 0
    # history
    calls: dict[str, list[int]] = field(default_factory=dict)  # session id -> times of counted calls
    keys: dict[str, tuple[str, str]] = field(default_factory=dict)  # idempotency key -> (session id, canonical args)
    pending: list[dict[str, Any]] = field(default_factory=list)  # before_write changes for the next call
    # records since the last `records`
    exports: list[dict[str, Any]] = field(default_factory=list)
    reads: list[dict[str, Any]] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FixtureError(f"{where}: an object is expected")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise FixtureError(f"{where}: a string is expected")
    return value


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise FixtureError(f"{where}: an integer is expected")
    return int(value)


def _strs(value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise FixtureError(f"{where}: a list is expected")
    return [_str(v, f"{where}[{i}]") for i, v in enumerate(value)]


class Gateway:
    def __init__(self) -> None:
        self.store = Store()

    # ---- fixture: load, change, before_write, records -------------------

    def load(self, scenario: Any, rules: Any, world: Any) -> None:
        """Replace everything stored with the scenario's world (S001.9 defaults)."""
        if rules not in RULE_VERSIONS:
            raise FixtureError(f"rules: one of {list(RULE_VERSIONS)} is expected")
        w = _obj(world, "world")
        s = Store(rules=rules, scenario=scenario if isinstance(scenario, str) else "")
        for i, raw in enumerate(w.get("sessions") or []):
            r = _obj(raw, f"world.sessions[{i}]")
            sid = _str(r.get("id"), f"world.sessions[{i}].id")
            s.sessions[sid] = Session(
                id=sid,
                user=_str(r.get("user"), f"world.sessions[{i}].user"),
                tenant=_str(r.get("tenant"), f"world.sessions[{i}].tenant"),
                roles=_strs(r.get("roles", []), f"world.sessions[{i}].roles"),
                valid=r.get("valid", True) is not False,
            )
        for i, raw in enumerate(w.get("cases") or []):
            r = _obj(raw, f"world.cases[{i}]")
            cid = _str(r.get("id"), f"world.cases[{i}].id")
            s.cases[cid] = Case(
                id=cid,
                tenant=_str(r.get("tenant"), f"world.cases[{i}].tenant"),
                assignees=_strs(r.get("assignees", []), f"world.cases[{i}].assignees"),
                content=_str(r.get("content", ""), f"world.cases[{i}].content"),
            )
        for i, raw in enumerate(w.get("destinations") or []):
            r = _obj(raw, f"world.destinations[{i}]")
            s.destinations[_str(r.get("id"), f"world.destinations[{i}].id")] = r.get("internal") is True
        for i, raw in enumerate(w.get("runbooks") or []):
            r = _obj(raw, f"world.runbooks[{i}]")
            s.runbooks[_str(r.get("id"), f"world.runbooks[{i}].id")] = _str(
                r.get("content", ""), f"world.runbooks[{i}].content"
            )
        for i, raw in enumerate(w.get("approvals") or []):
            r = _obj(raw, f"world.approvals[{i}]")
            s.approvals.append(
                {
                    "tool": _str(r.get("tool"), f"world.approvals[{i}].tool"),
                    "arguments": canonical(_obj(r.get("arguments"), f"world.approvals[{i}].arguments")),
                    "user": _str(r.get("user"), f"world.approvals[{i}].user"),
                    "expires_at": _int(r.get("expires_at"), f"world.approvals[{i}].expires_at"),
                }
            )
        if w.get("rate_limit") is not None:
            r = _obj(w["rate_limit"], "world.rate_limit")
            s.rate_limit = (_int(r.get("calls"), "world.rate_limit.calls"), _int(r.get("window"), "world.rate_limit.window"))
        s.clock = _int(w.get("clock", 0), "world.clock")
        self.store = s

    def check_change(self, change: Any) -> dict[str, Any]:
        c = _obj(change, "change")
        if c.get("op") not in CHANGE_OPS:
            raise FixtureError(f"change.op: one of {list(CHANGE_OPS)} is expected")
        return c

    def apply_change(self, change: dict[str, Any]) -> None:
        """One world change, applied to the store now."""
        s = self.store
        op = change["op"]
        if op == "reassign_case":
            case = s.cases.get(_str(change.get("case_id"), "change.case_id"))
            assignees = _strs(change.get("assignees"), "change.assignees")
            if case is not None:
                case.assignees = assignees
        elif op == "revoke_session":
            session = s.sessions.get(_str(change.get("session"), "change.session"))
            if session is not None:
                session.valid = False
        elif op == "remove_destination":
            s.destinations.pop(_str(change.get("destination_id"), "change.destination_id"), None)
        elif op == "edit_case":
            case = s.cases.get(_str(change.get("case_id"), "change.case_id"))
            content = _str(change.get("content"), "change.content")
            if case is not None:
                case.content = content
        elif op == "edit_runbook":
            rid = _str(change.get("runbook_id"), "change.runbook_id")
            content = _str(change.get("content"), "change.content")
            if rid in s.runbooks:
                s.runbooks[rid] = content
        elif op == "advance_clock":
            s.clock += _int(change.get("seconds"), "change.seconds")

    def hold_before_write(self, changes: Any) -> None:
        if not isinstance(changes, list) or not changes:
            raise FixtureError("changes: a non-empty list is expected")
        self.store.pending = [self.check_change(c) for c in changes]

    def take_records(self) -> dict[str, list[dict[str, Any]]]:
        s = self.store
        out = {"exports": s.exports, "reads": s.reads, "audit": s.audit}
        s.exports, s.reads, s.audit = [], [], []
        return out

    # ---- the decision ---------------------------------------------------

    def session(self, session_id: str) -> Session | None:
        return self.store.sessions.get(session_id)

    def _shape(self, tool: Any, arguments: Any, repeated_keys: bool) -> Refusal | None:
        """G001.1, G001.2, G001.17, G001.3, G001.4, G001.5: the proposal alone."""
        if not isinstance(tool, str) or tool not in CATALOGUE:
            return Refusal("unknown_tool", "G001.1")
        if not isinstance(arguments, dict):
            return Refusal("malformed_input", "G001.2")
        if repeated_keys:
            return Refusal("malformed_input", "G001.17")
        declared = CATALOGUE[tool]
        if any(k not in declared for k in arguments):
            return Refusal("extra_arguments", "G001.3")
        if any(k not in arguments for k in declared):
            return Refusal("missing_argument", "G001.4")
        for k in declared:
            v = arguments[k]
            if not isinstance(v, str) or not (1 <= len(v) <= MAX_ID_LENGTH):
                return Refusal("malformed_input", "G001.5")
        return None

    def _over_rate_limit(self, session_id: str) -> bool:
        s = self.store
        if s.rate_limit is None:
            return False
        limit, window = s.rate_limit
        now = s.clock
        recent = [t for t in s.calls.get(session_id, []) if now - window < t <= now]
        return len(recent) >= limit

    def _approval(self, user: str, tool: str, args_text: str) -> Refusal | None:
        """G002.5 and G002.6, for an export to a configured external destination."""
        s = self.store
        naming = [
            a for a in s.approvals if a["tool"] == tool and a["arguments"] == args_text and a["user"] == user
        ]
        if not naming:
            return Refusal("approval_required", "G002.5")
        if all(s.clock >= a["expires_at"] for a in naming):
            return Refusal("approval_expired", "G002.6")
        return None

    def _from_role_on(self, session: Session, tool: str, args: dict[str, str]) -> Refusal | None:
        """The checks of the precedence table from the role on (G001.7 to G001.12, G002.5, G002.6)."""
        s = self.store
        nxt = s.rules == NEXT
        if tool == "export_case":
            if SUPPORT_ROLE not in session.roles:
                return Refusal("role_denied", "G001.7")
            internal = s.destinations.get(args["destination_id"])
            if internal is None or (not nxt and not internal):
                return Refusal("destination_denied", "G001.8")
            if nxt and not internal:
                refused = self._approval(session.user, tool, canonical(args))
                if refused:
                    return refused
        case = s.cases.get(args["case_id"])
        if case is None:
            return Refusal("case_not_found", "G001.9")
        if case.tenant != session.tenant:
            return Refusal("tenant_mismatch", "G001.10")
        if tool == "export_case":
            if session.user not in case.assignees:
                return Refusal("not_assigned", "G001.11")
        elif session.user not in case.assignees and SUPERVISOR_ROLE not in session.roles:
            return Refusal("not_assigned", "G001.12")
        return None

    def _audit_names(self, tool: Any, arguments: Any, repeated_keys: bool) -> tuple[str | None, str | None, str | None]:
        """G001.15: only a known tool, a stored case, a configured destination."""
        s = self.store
        known_tool = tool if isinstance(tool, str) and tool in CATALOGUE else None
        if repeated_keys or not isinstance(arguments, dict):
            return known_tool, None, None
        case_id = arguments.get("case_id")
        dest_id = arguments.get("destination_id")
        case_id = case_id if isinstance(case_id, str) and case_id in s.cases else None
        dest_id = dest_id if isinstance(dest_id, str) and dest_id in s.destinations else None
        return known_tool, case_id, dest_id

    def call(
        self,
        session_id: str,
        tool: Any,
        arguments: Any,
        *,
        repeated_keys: bool = False,
        idempotency_key: str | None = None,
    ) -> Decision:
        """Decide one call of an authenticated session, record it, and do what it allows."""
        s = self.store
        session = s.sessions[session_id]
        nxt = s.rules == NEXT
        checked_at = s.clock
        audit_tool, audit_case, audit_dest = self._audit_names(tool, arguments, repeated_keys)
        user, tenant = session.user, session.tenant

        replay = False
        refused = self._shape(tool, arguments, repeated_keys)
        if refused is None and not session.valid:
            refused = Refusal("session_invalid", "G001.6")
        if refused is None and nxt and self._over_rate_limit(session_id):
            refused = Refusal("rate_limited", "G002.4")
        args_text = canonical(arguments) if refused is None else ""
        if refused is None and nxt and tool == "export_case" and idempotency_key is not None:
            bound = s.keys.get(idempotency_key)
            if bound is not None:
                if bound == (session_id, args_text):
                    replay = True
                else:
                    refused = Refusal("idempotency_conflict", "G002.3")
        if refused is None and not replay:
            refused = self._from_role_on(session, tool, arguments)

        # G002.4: every call counts but one refused for the limit itself.
        if nxt and (refused is None or refused.reason != "rate_limited"):
            s.calls.setdefault(session_id, []).append(checked_at)

        # G002.1: the world moves on between the check and the write, whatever was decided.
        pending, s.pending = s.pending, []
        for change in pending:
            self.apply_change(change)

        stage = "check"
        served: dict[str, Any] | None = None
        if refused is None and replay:
            served = {"case_id": arguments["case_id"], "destination_id": arguments["destination_id"], "replayed": True}
        elif refused is None and tool == "export_case":
            if nxt:
                again = None
                if not session.valid:
                    again = Refusal("session_invalid", "G001.6")
                else:
                    again = self._from_role_on(session, tool, arguments)
                if again is not None:
                    refused, stage = again, "write"
            if refused is None:
                case = s.cases[arguments["case_id"]]
                s.exports.append(
                    {
                        "case_id": case.id,
                        "destination_id": arguments["destination_id"],
                        "tenant": case.tenant,
                        "payload": case.content,
                    }
                )
                if nxt and idempotency_key is not None:
                    s.keys[idempotency_key] = (session_id, args_text)
                served = {"case_id": case.id, "destination_id": arguments["destination_id"], "replayed": False}
        elif refused is None and tool == "read_case":
            case = s.cases[arguments["case_id"]]
            s.reads.append({"case_id": case.id})
            served = {"case_id": case.id, "content": case.content}

        if refused is None:
            decision = Decision("allow", "allowed", "allowed", None, stage, replay, served)
        else:
            caller = "case_not_found" if refused.reason == "tenant_mismatch" else refused.reason
            decision = Decision("deny", refused.reason, caller, refused.rule, stage, False, None)
        s.audit.append(
            {
                "decision": decision.decision,
                "reason": decision.reason,
                "tool": audit_tool,
                "user": user,
                "tenant": tenant,
                "case_id": audit_case,
                "destination_id": audit_dest,
                "stage": decision.stage,
                "replayed": decision.replayed,
                "rule": decision.rule,
            }
        )
        return decision


def repeats_a_key(pairs_value: Any) -> bool:
    """Whether a value parsed with `KeyPairs` writes a key twice in some object."""
    if isinstance(pairs_value, KeyPairs):
        if pairs_value.repeated:
            return True
        return any(repeats_a_key(v) for v in pairs_value.values())
    if isinstance(pairs_value, list):
        return any(repeats_a_key(v) for v in pairs_value)
    return False


class KeyPairs(dict):
    """A JSON object as read by `json.loads(..., object_pairs_hook=KeyPairs.hook)`."""

    repeated = False

    @classmethod
    def hook(cls, pairs: list[tuple[str, Any]]) -> "KeyPairs":
        obj = cls(pairs)
        obj.repeated = len(obj) != len(pairs)
        return obj

