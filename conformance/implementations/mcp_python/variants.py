"""Faults an MCP gateway is known to ship with, one switch each, so that ``gateproof verify`` can be shown to catch them.

A fault is never a second gateway: it is either a different *view* of the
store the decision is made on (what a gateway that skips a check effectively
believes), or one switch at the point where a real gateway goes wrong (the
JSON reader, where identity comes from, what discovery hides, what a
catch-all does, what the rate limit counts). Everything else is the gateway
itself, deciding with the model's functions.
"""

from __future__ import annotations

from typing import Callable

from attrs import frozen

from gateproof.model.gateway.arguments import compute_canonical_arguments, has_unique_keys
from gateproof.model.gateway.lab import SUPERVISOR_ROLE, SUPPORT_ROLE
from gateproof.model.gateway.gate import Call
from gateproof.model.gateway.world import Destination, GatewayWorld
from gateproof.model.records import replaced
from gateproof.model.tables import Table

View = Callable[[GatewayWorld, Call], GatewayWorld]


def as_stored(world: GatewayWorld, call: Call) -> GatewayWorld:
    """The correct gateway decides on the store exactly as it stands."""
    return world


def _named(call: Call, name: str):
    """A string the arguments name under ``name``, when they are a plain object; None otherwise."""
    value = call.arguments.get(name) if type(call.arguments) is dict else None
    return value if isinstance(value, str) else None


def _case_made_visible(world: GatewayWorld, call: Call) -> GatewayWorld:
    """The named case (when stored) as if it were of the caller's tenant and assigned to the caller."""
    session, case = world.session_index[call.session], world.case_index.get(_named(call, "case_id"))
    if case is None:
        return world
    return world.with_case(replaced(case, tenant=session.tenant, assignees=case.assignees | {session.user}))


def requires_stored_case(world: GatewayWorld, call: Call) -> GatewayWorld:
    """fail-open: the policy loads the named case first, and a lookup of a case the store lacks raises."""
    if isinstance(call.arguments, dict) and "case_id" in call.arguments:
        world.case_index[call.arguments["case_id"]]  # KeyError (or TypeError) for a case the store does not hold
    return world


def reads_ungated(world: GatewayWorld, call: Call) -> GatewayWorld:
    """ungated-read: a read is checked for its shape and nothing else: any session, any tenant, no limit."""
    if call.tool != "read_case":
        return world
    session = world.session_index[call.session]
    world = replaced(world.with_session(replaced(session, valid=True)), rate_limit=None)
    return _case_made_visible(world, call)


def tool_name_only(world: GatewayWorld, call: Call) -> GatewayWorld:
    """tool-name-only: session and role are checked; what the arguments name (case, tenant, assignment, destination) is not."""
    world = _case_made_visible(world, call)
    destination = _named(call, "destination_id")
    if call.tool != "export_case" or destination is None:
        return world
    return _configured(world, Destination(destination, True))


def _configured(world: GatewayWorld, destination: Destination) -> GatewayWorld:
    """The world with ``destination`` configured, every removed one still known as removed (a change may remove it again)."""
    lookup = world.destination_index
    if destination.id in lookup.positions:
        return replaced(world, destinations=world.destinations.replaced(destination))
    removed = [Destination(key, False) for key in lookup.positions if key not in lookup]
    table = Table.of("id", (*world.destinations, *removed, destination))
    for gone in removed:
        table = table.without(gone.id)
    return replaced(world, destinations=table)


def calls_not_role_checked(world: GatewayWorld, call: Call) -> GatewayWorld:
    """discovery-filtered-only: hiding a tool from discovery was taken for authorization, so calls skip the role."""
    session = world.session_index[call.session]
    return world.with_session(replaced(session, roles=session.roles | {SUPPORT_ROLE}))


def supervisors_cross_tenants(world: GatewayWorld, call: Call) -> GatewayWorld:
    """cross-tenant-supervisor: a supervisor's read sees a case of any tenant as if it were of its own."""
    session, case = world.session_index[call.session], world.case_index.get(_named(call, "case_id"))
    if call.tool != "read_case" or case is None or SUPERVISOR_ROLE not in session.roles:
        return world
    return world.with_case(replaced(case, tenant=session.tenant))


def approvals_ignore_arguments(world: GatewayWorld, call: Call) -> GatewayWorld:
    """approval-any-arguments: an approval of a tool for a user is taken for any arguments of that tool."""
    if not isinstance(call.tool, str) or type(call.arguments) is not dict or not has_unique_keys(call.arguments):
        return world  # no canonical form: G001.17 refuses such arguments before any approval is looked for
    user, arguments = world.session_index[call.session].user, compute_canonical_arguments(call.arguments)
    approvals = tuple(replaced(a, arguments=arguments) if (a.tool, a.user) == (call.tool, user) else a for a in world.approvals)
    return replaced(world, approvals=approvals)


@frozen
class Fault:
    """One gateway fault: the view its decisions are made on, and the switches where it goes wrong."""

    name: str
    view: View = as_stored
    fails_open: bool = False  # a policy error allows the call instead of refusing it
    keeps_last_key: bool = False  # the JSON reader keeps the last of a repeated key (G001.17 never applies)
    acts_on_behalf: bool = False  # an ``on_behalf_of`` argument names the session to act as
    filters_discovery: bool = False  # tools/list hides export_case from sessions without the support role
    spends_on_refusal: bool = False  # a call refused as rate_limited counts against the limit too

    @property
    def server_name(self) -> str:
        """The name the server gives itself: ``mcp-python``, or ``mcp-python-<variant>`` for a faulty one."""
        return "mcp-python" + (f"-{self.name}" if self.name else "")


NONE = Fault("")

FAULTS: dict[str, Fault] = {fault.name: fault for fault in (
    Fault("fail-open", view=requires_stored_case, fails_open=True),
    Fault("ungated-read", view=reads_ungated),
    Fault("tool-name-only", view=tool_name_only),
    Fault("identity-from-argument", acts_on_behalf=True),
    Fault("discovery-filtered-only", view=calls_not_role_checked, filters_discovery=True),
    Fault("cross-tenant-supervisor", view=supervisors_cross_tenants),
    Fault("last-key-wins", keeps_last_key=True),
    Fault("approval-any-arguments", view=approvals_ignore_arguments),
    Fault("refusals-spend-budget", spends_on_refusal=True),
)}
