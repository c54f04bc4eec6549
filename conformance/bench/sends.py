"""The bench's own send: ten sources injected at once, drawn from a seeded generator, for the throughput figures."""

from __future__ import annotations

import random

CLASSES = ["publicContent", "editorContent", "sourceCode", "internalConfiguration", "systemDiagnostics", "secretAdjacent", None]
ZONES = ["local", "privateHosted", "externalEu", "externalGlobal"]


def ten_source_scenario(rng: random.Random, number: int) -> dict:
    """A send that injects ten sources: prompt, four tagged snippets, two skills, two forced snippets, one forced skill."""
    snippets = [{"uid": uid, "identifier": f"s{uid}", "text": "text", "data_class": rng.choice(CLASSES), "tags": "ops" if uid <= 4 else "other", "sorting": uid} for uid in range(1, 9)]
    skills = [{"uid": uid, "name": f"k{uid}", "text": "text", "data_class": rng.choice(CLASSES)} for uid in range(1, 5)]
    return {
        "gateproof": 1,
        "id": f"bench/{number}",
        "world": {
            "providers": [{"identifier": "p", "zone": rng.choice(ZONES)}, {"identifier": "q", "zone": rng.choice(ZONES)}],
            "models": [{"identifier": "m", "provider": "p"}, {"identifier": "n", "provider": "q"}],
            "configurations": [
                {"identifier": "c", "model": "m", "fallbacks": ["d"], "system_prompt": "prompt", "system_prompt_class": rng.choice(CLASSES), "snippet_tags": "ops", "skills": [1, 2]},
                {"identifier": "d", "model": "n"},
            ],
            "snippets": snippets,
            "skills": skills,
            "enforcement": rng.choice(["enforce", "observe"]),
        },
        "steps": [{"op": "send", "configuration": "c", "forced_snippets": [5, 6], "forced_skills": [3]}],
    }
