"""Reading generated scenarios as a campaign does: a world that scenarios in a row share, read once.

The trust-ceiling generator draws several scenarios on one world, each
document holding that one dict as its world (``ceiling.SCENARIOS_A_WORLD``).
No one changes a drawn document (the reducer copies what it edits), so the
dict stands for what it held when first read, and reading it again would
only make the same records again.
"""

from __future__ import annotations

from gateproof.model.records import World
from gateproof.model.scenario.read import Scenario, read_on_world, read_valid_scenario, read_world


class WorldsReadOnce:
    """A reader of schema-checked documents that reads each trust-ceiling world once for the documents in a row holding it."""

    def __init__(self):
        self.world_document: dict | None = None
        self.world: World | None = None

    def __call__(self, document: dict) -> Scenario:
        if document.get("kind", "ceiling") != "ceiling":
            return read_valid_scenario(document)
        if document["world"] is not self.world_document:
            self.world, self.world_document = read_world(document["world"]), document["world"]
        return read_on_world(document, self.world)
