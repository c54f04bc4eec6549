"""The one mechanism for invalid input: a ScenarioError naming the field and what was wrong."""

from __future__ import annotations


class ScenarioError(ValueError):
    """A document that is not a valid scenario; ``path`` names the field (``$`` is the document)."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem

    def __reduce__(self):
        # Rebuilt from its two fields, so it survives the trip back from a worker process.
        return (type(self), (self.path, self.problem))


def join_path(path) -> str:
    """``["world", "snippets", 2, "uid"]`` as ``$.world.snippets[2].uid``."""
    text = "$"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text
