"""Reading scenario documents in a row that hold one world: the world read once.

The trust-ceiling generator draws several scenarios on one world, each
document holding that one dict as its world (``ceiling.SCENARIOS_A_WORLD``),
so a campaign sends them in runs sharing a world. The harness holds the
very dict the generator drew: no one changes a drawn document (the reducer
copies what it edits), so the dict stands for what it held when first
read. The reference implementation gets each document parsed anew from its
line, so it knows a world again by its JSON text: the same text is the
same document, whereas equal parsed values are not (``1``, ``1.0`` and
``true`` compare equal), and a reading that held them alike would be right
only while no rule reads a stored value's type.
"""

from __future__ import annotations

from typing import Callable, Hashable

import orjson

from gateproof.model.records import World
from gateproof.model.scenario.read import Scenario, read_on_world, read_valid_scenario, read_world


def json_text(world: dict) -> bytes | None:
    """The world as compact JSON text; None for one orjson cannot write as read (a key written twice, an integer beyond 64 bits)."""
    try:
        return orjson.dumps(world, option=orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:
        return None


class WorldsReadOnce:
    """A reader of schema-checked documents that reads each trust-ceiling world once for the documents in a row holding it.

    ``key`` names a world: by default the dict itself (``id``, which stays
    its own while the dict is held here); :func:`json_text` for documents
    parsed one by one. A world with no key (None) is read every time.
    """

    def __init__(self, key: Callable[[dict], Hashable | None] = id):
        self.key = key
        # The world document last read, its key and the world read from it: one tuple, replaced whole, so a reader
        # shared between threads never pairs one world's key with another's records.
        self.held: tuple[dict, Hashable, World] | None = None

    def __call__(self, document: dict) -> Scenario:
        if document.get("kind", "ceiling") != "ceiling":
            return read_valid_scenario(document)
        fields, held = document["world"], self.held
        key = self.key(fields)
        if key is None or held is None or key != held[1]:
            held = self.held = fields, key, read_world(fields)
        return read_on_world(document, held[2])
