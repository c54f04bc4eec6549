"""The conformance protocol, version 1: newline-delimited JSON over an implementation's stdin and stdout.

Each message is a frozen class whose wire name is its class name in lower
case: a command carries it as ``cmd`` (``{"cmd": "start", ...}``), a reply as
its one key beside ``seq`` (``{"seq": 3, "outcome": {...}}``). Every message
is checked against its JSON Schema in ``conformance/schema/protocol/`` on both
sides, so an implementation in any language can check itself with the same
files. ``conformance/PROTOCOL.md`` states the protocol for implementers.
"""

from __future__ import annotations

import abc

import json
from functools import cache
from pathlib import Path

import jsonschema_rs
from attrs import field, frozen

from gateproof.model.scenario import ScenarioError
from gateproof.model.scenario.errors import join_path
from gateproof.model.scenario.schema import published_schema, validate

PROTOCOL_VERSION = 1
SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema" / "protocol"


class ProtocolError(Exception):
    """A message that breaks the protocol: not JSON, not an object, or invalid against its schema."""


def wire_name(cls: type) -> str:
    return cls.__name__.lower()


@cache
def _validator(name: str):
    return jsonschema_rs.validator_for(json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8")))


#: Messages that carry a whole document: the protocol schema only says it is an object, and the
#: document's own schema (scenario or outcome) checks the rest, so the envelope is checked without it.
DOCUMENT_KEYS = {"run": "scenario", "outcome": "outcome"}


def check(name: str, message: object) -> None:
    """Raise :class:`ProtocolError` naming the field when ``message`` breaks the schema of ``name``."""
    key = DOCUMENT_KEYS.get(name)
    if key is not None and isinstance(message, dict) and isinstance(message.get(key), dict):
        message = {**message, key: {}}  # converting a large document for a type check costs more than the decision
    validator = _validator(name)
    if validator.is_valid(message):
        return
    error = next(validator.iter_errors(message))
    where = join_path(error.instance_path)
    raise ProtocolError(f"{name} message: {where}: {_problem(error)}")


#: The most characters of a schema error's own words kept: they quote the value, which may be megabytes long.
PROBLEM_CHARACTERS = 300


def _problem(error) -> str:
    """What is wrong, bounded: a text over its length is counted, never quoted; any other quote is cut."""
    if type(error.kind).__name__ == "MaxLength" and isinstance(error.instance, str):
        return f"{len(error.instance)} characters, more than the {error.kind.limit} allowed"
    text = error.message
    return text if len(text) <= PROBLEM_CHARACTERS else text[:PROBLEM_CHARACTERS - 1] + "…"


class Message(abc.ABC):
    """Serialisation shared by every message: the wire form, checked against its schema."""

    @abc.abstractmethod
    def body(self) -> dict:
        """The message as it goes on the wire, before its schema is checked."""

    def serializable(self) -> dict:
        message = self.body()
        check(wire_name(type(self)), message)
        return message


# Commands: harness to implementation.


@frozen
class Start(Message):
    version: int = PROTOCOL_VERSION

    def body(self) -> dict:
        return {"cmd": "start", "version": self.version}


@frozen
class Run(Message):
    seq: int
    scenario: dict = field(eq=False)

    def body(self) -> dict:
        return {"cmd": "run", "seq": self.seq, "scenario": self.scenario}


def run_line(seq: int, scenario_bytes: bytes) -> bytes:
    """A run command as a line, the scenario already written: what ``dumps(Run(seq, scenario).serializable())`` writes.

    A campaign sends thousands of runs a second; the envelope, an integer
    ``seq`` and a scenario object, is valid by construction and not checked again.
    """
    return b'{"cmd":"run","seq":%d,"scenario":%b}\n' % (seq, scenario_bytes)


def outcome_line(seq: int, outcome_bytes: bytes) -> bytes:
    """The reply line that carries ``outcome_bytes`` for run ``seq``, as an implementation writing compact JSON writes it."""
    return b'{"seq":%d,"outcome":%b}' % (seq, outcome_bytes)


@frozen
class Stop(Message):
    def body(self) -> dict:
        return {"cmd": "stop"}


COMMANDS = {wire_name(c): c for c in (Start, Run, Stop)}


def read_command(message: object) -> Start | Run | Stop:
    """The command an implementation received, checked against its schema."""
    if not isinstance(message, dict) or message.get("cmd") not in COMMANDS:
        raise ProtocolError(f"not a command: {_brief(message)}")
    name = message["cmd"]
    check(name, message)
    arguments = {k: v for k, v in message.items() if k != "cmd"}
    return COMMANDS[name](**arguments)


# Replies: implementation to harness.


@frozen
class Started(Message):
    """Who the implementation is, and the rule versions and scenario kinds it decides."""

    name: str
    version: str
    language: str
    homepage: str
    rules: tuple[str, ...] = field(converter=tuple)
    kinds: tuple[str, ...] = field(converter=tuple)
    issues: str | None = None
    protocol: int = PROTOCOL_VERSION
    unobservable: tuple[str, ...] = field(default=(), converter=tuple)  # result keys it cannot show, compared at no level

    def body(self) -> dict:
        info = {"protocol": self.protocol, "name": self.name, "version": self.version, "language": self.language,
                "homepage": self.homepage, "rules": list(self.rules), "kinds": list(self.kinds)}
        if self.issues is not None:
            info["issues"] = self.issues
        if self.unobservable:
            info["unobservable"] = list(self.unobservable)
        return {"started": info}

    def decides(self, scenario: dict) -> bool:
        return scenario.get("kind", "ceiling") in self.kinds and scenario_rules(scenario) in self.rules


@frozen
class Outcome(Message):
    seq: int
    outcome: dict = field(eq=False)

    def body(self) -> dict:
        return {"seq": self.seq, "outcome": self.outcome}


@frozen
class Skipped(Message):
    seq: int
    message: str
    issue_url: str | None = None

    def body(self) -> dict:
        skipped = {"message": self.message} if self.issue_url is None else {"message": self.message, "issue_url": self.issue_url}
        return {"seq": self.seq, "skipped": skipped}


@frozen
class Errored(Message):
    seq: int
    message: str
    context: dict = field(factory=dict, eq=False)

    def body(self) -> dict:
        return {"seq": self.seq, "errored": {"message": self.message, "context": self.context}}


RunReply = Outcome | Skipped | Errored


#: A trust-ceiling scenario's default version as the shipped schema publishes it (written from the declarations), read from
#: the file rather than the model: a mutant of the model that renames a version must not move what the protocol server
#: declares it decides.
_CEILING_RULES = published_schema("scenario")["$defs"]["rules"]
CEILING_DEFAULT = _CEILING_RULES["default"]
#: The trust ceiling's ADR versions in order: the schema's enum up to the default (the latest); the profiles follow it.
CEILING_ADR_VERSIONS = tuple(_CEILING_RULES["enum"][:_CEILING_RULES["enum"].index(CEILING_DEFAULT) + 1])


def scenario_rules(scenario: dict) -> str:
    """The rule version a scenario names, or its kind's default (S001.9)."""
    default = "lab-001" if scenario.get("kind") == "gateway" else CEILING_DEFAULT
    return scenario.get("rules", default)


def read_started(message: object) -> Started:
    check("started", message)
    return Started(**message["started"])


def read_run_reply(message: object) -> RunReply:
    """One reply to a run; an outcome must also be valid against the outcome schema."""
    if not isinstance(message, dict):
        raise ProtocolError(f"a reply must be an object, not {_brief(message)}")
    kinds = [name for name in ("outcome", "skipped", "errored") if name in message]
    if len(kinds) != 1:
        raise ProtocolError(f"a reply carries exactly one of outcome, skipped or errored: {_brief(message)}")
    check(kinds[0], message)
    seq, body = message["seq"], message[kinds[0]]
    if kinds[0] == "skipped":
        return Skipped(seq, body["message"], body.get("issue_url"))
    if kinds[0] == "errored":
        return Errored(seq, body["message"], body.get("context", {}))
    try:
        validate("outcome", body)
    except ScenarioError as error:
        raise ProtocolError(f"outcome breaks outcome.schema.json at {error}") from None
    return Outcome(seq, body)


def _brief(value: object) -> str:
    text = json.dumps(value, default=repr)
    return text if len(text) <= 80 else text[:77] + "..."
