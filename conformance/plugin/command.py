"""An implementation given by its command, in any language, as the plugin's ``run(scenario) -> outcome``.

It speaks ``PROTOCOL.md`` as ``verify`` drives it (an MCP server goes
through the bridge, ``conformance/MCP.md``), started at the first scenario
and stopped when pytest ends. A scenario it answers ``skipped`` is skipped
(a corpus case) or not counted (a generated one); ``errored`` is its failure.
"""

from __future__ import annotations

from ..harness.process import ImplementationProcess, StartFailed
from ..harness.protocol import Errored, Skipped


class ImplementationSkipped(Exception):
    """The implementation answered that it does not decide this scenario."""


class ImplementationErrored(Exception):
    """The implementation answered ``errored``, or could not be started: the message says what happened."""


class CommandRun:
    """``run(scenario)`` through an implementation process, started once and restarted by the harness when it breaks."""

    def __init__(self, argv: tuple[str, ...], timeout: float):
        self.argv, self.timeout = argv, timeout
        self.process: ImplementationProcess | None = None
        self.unobservable: tuple[str, ...] = ()

    def __call__(self, scenario: dict) -> dict:
        if self.process is None:
            self.process = ImplementationProcess(self.argv, self.timeout)
            try:
                self.unobservable = self.process.start().unobservable
            except StartFailed as error:
                self.close()
                raise ImplementationErrored(f"the implementation did not start: {error}") from None
        reply = self.process.run_one(scenario)
        if isinstance(reply, Skipped):
            raise ImplementationSkipped(reply.message)
        if isinstance(reply, Errored):
            raise ImplementationErrored(reply.message)
        return reply.outcome

    def close(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.close()
