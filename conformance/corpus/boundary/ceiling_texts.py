"""Boundary pairs of every text the trust ceiling compares, with surrounding spaces and in a case outside A–Z.

The companion of ``texts`` for the ceiling and a run's life. The ceiling
folds some texts (tags, fallback entries, the switch, the de-duplication key,
a case-insensitive collation): each of those is folded over A–Z only and
trimmed of PHP's six characters only, so each pair's applies side holds the
text in another ASCII case with spaces around it (found) and its near misses
the text in another case of a letter outside A–Z (not found, under either
collation). The texts compared as stored (relations, classes, forced names,
the resume's order by name) have a near miss with spaces or non-ASCII case
each. Every world sits behind one externalGlobal provider unless a pair says
otherwise, so a secretAdjacent source that is found is refused.
"""

from __future__ import annotations

from .pairs import pair, side
from .texts import DOTTED_I, KELVIN, LONG_S, SHARP_S, SIGMA
from ..cases import case, send, skill, snippet, world

CI = {"collation": "case-insensitive"}
#: Each a text and the text Unicode's lower, upper or folded case makes of it, which A–Z folding leaves apart.
UNICODE_TWINS = ((KELVIN, "k"), (DOTTED_I, "i\u0307"), (SHARP_S, "ss"), (SIGMA, "\u03c2"), (LONG_S, "s"))


def both_ways(pairs) -> tuple[list[str], list[str]]:
    """Each pair's first beside its second, then each second (marked -2) beside its first: the texts on either side."""
    return [mine for mine, _ in pairs] + [theirs + "-2" for _, theirs in pairs], [theirs for _, theirs in pairs] + [mine + "-2" for mine, _ in pairs]


def tagged(sides: tuple[list[str], list[str]], collation: dict) -> tuple[dict, list[dict]]:
    """secretAdjacent snippets tagged each with one of the first texts, selected by tags written as the second."""
    own, configured = sides
    snippets = [snippet(n, "secretAdjacent", tags=tag) for n, tag in enumerate(own, 1)]
    return world(configuration={"snippet_tags": ",".join(configured)}, snippets=snippets) | collation, [send()]


def falling_back(sides: tuple[list[str], list[str]]) -> tuple[dict, list[dict]]:
    """A local configuration with a systemDiagnostics prompt whose fallback entries are the first texts, and configurations
    stored as the second, on the local model, under a case-insensitive collation."""
    entries, stored = sides
    document = world(zone="local", configuration={"fallbacks": entries, "system_prompt": "p", "system_prompt_class": "systemDiagnostics"},
                     configurations=[{"identifier": identifier, "model": "m"} for identifier in stored])
    return document | CI, [send()]


def switched(value: str) -> tuple[dict, list[dict]]:
    return world(snippets=[snippet(1, "secretAdjacent")], enforcement=value), [send(forced_snippets=[1])]


def kept_once(first: str, second: str) -> tuple[dict, list[dict]]:
    """Two tag-selected snippets identified ``first`` and ``second``, the second secretAdjacent: kept once, it is not sent."""
    snippets = [snippet(1, "publicContent", tags="t") | {"identifier": first}, snippet(2, "secretAdjacent", tags="t") | {"identifier": second}]
    return world(configuration={"snippet_tags": "t"}, snippets=snippets) | CI, [send()]


def forced_beside(listed: str, forced: str) -> tuple[dict, list[dict]]:
    """A tag-selected snippet identified ``listed`` and a forced secretAdjacent one identified ``forced`` (C164.3)."""
    snippets = [snippet(1, "publicContent", tags="t") | {"identifier": listed}, snippet(2, "secretAdjacent") | {"identifier": forced}]
    return world(configuration={"snippet_tags": "t"}, snippets=snippets) | CI, [send(forced_snippets=[2])]


def named_in_order(first: str, second: str, collation: dict) -> tuple[dict, list[dict]]:
    """Two tag-selected sourceCode snippets of equal sorting named ``first`` and ``second``: the later one is named."""
    snippets = [snippet(1, "sourceCode", name=first, tags="t"), snippet(2, "sourceCode", name=second, tags="t")]
    return world(zone="local", configuration={"snippet_tags": "t"}, snippets=snippets) | collation, [{"op": "readout", "configuration": "c"}]


def related(model_field: str, provider_field: str) -> tuple[dict, list[dict]]:
    """A configuration on the model ``model_field`` names, that model on the provider ``provider_field`` names, where the
    world holds model ``mk`` on the local provider ``ps``: a relation that finds neither reaches externalGlobal."""
    document = {"providers": [{"identifier": "ps", "zone": "local"}], "models": [{"identifier": "mk", "provider": provider_field}],
                "configurations": [{"identifier": "c", "model": model_field, "system_prompt": "x", "system_prompt_class": "sourceCode"}]}
    return document | CI, [send()]


def classed(data_class: str) -> tuple[dict, list[dict]]:
    return world(snippets=[snippet(1, data_class)]), [send(forced_snippets=[1])]


def named(fields: dict, kind: str = "skill") -> tuple[dict, list[dict]]:
    """One forced secretAdjacent skill or snippet with ``fields``: the refusal names it."""
    record = skill(1, "secretAdjacent", **fields) if kind == "skill" else snippet(1, "secretAdjacent", **fields)
    return world(**{f"{kind}s": [record]}), [send(**{f"forced_{kind}s": [1]})]


def zoned(zone: str) -> tuple[dict, list[dict]]:
    return world(zone=zone, configuration={"system_prompt": "x", "system_prompt_class": "sourceCode"}), [send()]


def ceiling_cases() -> list[dict]:
    return [
        *pair(case, "ceiling", "C144.4",
              side("the snippets' tags and the configuration's differ only in the case of A-Z and in spaces, so each is selected.",
                   *tagged(([" LEGAL ", "ops"], ["legal", " OPS "]), CI)),
              side("the tags differ in the case of letters outside A-Z (the Kelvin sign and k, the dotted I, the sharp s and ss, "
                   "sigma, the long s), which C144.4 does not fold even under a case-insensitive collation: nothing is selected.",
                   *tagged(both_ways(UNICODE_TWINS), CI)),
              "folded-over-a-z", case_sensitive=side("the same tags under the case-sensitive collation: nothing is selected.",
                                                     *tagged(both_ways(UNICODE_TWINS), {}))),
        *pair(case, "ceiling", "C094.9",
              side("the fallback entries differ from the configurations only in the case of A-Z and in spaces, so each finds "
                   "one, and the send stays local.", *falling_back(([" LEGAL ", "ops"], ["legal", "OPS"]))),
              side("the entries differ from the stored identifiers in the case of letters outside A-Z, which neither the entry's "
                   "lowering nor the case-insensitive collation folds: none is found, and the send can reach externalGlobal.",
                   *falling_back(both_ways(UNICODE_TWINS))),
              "folded-over-a-z"),
        *pair(case, "ceiling", "C113.1",
              side("the switch \" OBSERVE \" trims and lowercases to observe: it observes.", *switched(" OBSERVE ")),
              side(f"the switch \"ob{LONG_S}erve\" is observe only to a Unicode fold: it enforces.", *switched(f"ob{LONG_S}erve")),
              "folded-over-a-z"),
        *pair(case, "ceiling", "C144.5",
              side("the identifiers \" K \" and \"k\" are one key trimmed and lowercased: the second is kept out, and nothing "
                   "secret is sent.", *kept_once(" K ", "k")),
              side("the identifiers \"k\" and the Kelvin sign are two keys over A-Z: both are kept, and the second is refused.",
                   *kept_once("k", KELVIN)),
              "folded-over-a-z", sharp_s=side("the identifiers \"ss\" and the sharp s are two keys: both are kept.", *kept_once("ss", SHARP_S))),
        *pair(case, "ceiling", "C164.3",
              side("the forced snippet's name is the listed one's, so it is left out and nothing secret is sent.", *forced_beside("k", "k")),
              side("the forced snippet is named with the Kelvin sign, the listed one k: compared as stored they differ, so it is "
                   "listed and refused.", *forced_beside("k", KELVIN)),
              "names-as-stored", sharp_s=side("the forced snippet is named with the sharp s, the listed one ss: it is listed.",
                                              *forced_beside("ss", SHARP_S))),
        *pair(case, "ceiling", "C144.19",
              side("under the case-insensitive collation \"Ka\" folds to \"ka\", before \"kb\": the later, \"kb\", is named.",
                   *named_in_order("Ka", "kb", CI)),
              side(f"\"{KELVIN}a\" begins with the Kelvin sign, which the collation does not fold: it orders after \"kb\" and is named.",
                   *named_in_order(f"{KELVIN}a", "kb", CI)),
              "folded-over-a-z"),
        *pair(case, "ceiling", "C094.8",
              side("the configuration names its model mk as stored, and mk its local provider ps: the send stays local.", *related("mk", "ps")),
              side(f"the configuration names its model \"m{KELVIN}\": it names no model, whatever the collation, and the send "
                   "reaches externalGlobal.", *related(f"m{KELVIN}", "ps")),
              "non-ascii-case", provider=side(f"the model names its provider \"p{LONG_S}\": it names no provider.", *related("mk", f"p{LONG_S}"))),
        *pair(case, "ceiling", "C094.2",
              side("the stored class is secretAdjacent exactly: refused.", *classed("secretAdjacent")),
              side(f"the stored class \"{LONG_S}ecretAdjacent\" is no class: undeclared.", *classed(f"{LONG_S}ecretAdjacent")),
              "non-ascii-case", spaced=side("the stored class \" secretAdjacent \" is no class: undeclared.", *classed(" secretAdjacent "))),
        *pair(case, "ceiling", "C144.8",
              side("a skill is named by its name as stored: \" k1 \", spaces and all.", *named({"name": " k1 "})),
              side("a skill named \"k1\" is named so.", *named({"name": "k1"})),
              "name-as-stored", display_name=side("a snippet without an identifier is named by its display name as stored: "
                                                  "\" bee \", spaces and all.", *named({"identifier": "", "name": " bee "}, "snippet"))),
        *pair(case, "ceiling", "C094.7",
              side("the stored zone local is local: the sourceCode prompt is permitted.", *zoned("local")),
              side("the stored zone \" local\" is no zone, so it reads as externalGlobal: refused.", *zoned(" local")),
              "zone-as-stored", trailing=side("the stored zone \"local \" reads as externalGlobal.", *zoned("local ")),
              other_case=side("the stored zone \"LOCAL\" is no zone either: externalGlobal.", *zoned("LOCAL"))),
    ]


def resumed_by_name(first: str, second: str) -> tuple[dict, list[dict]]:
    """Before ADR-175 a resume rebuilds forced skills by name; two skills of one class named ``first`` and ``second``."""
    skills = [skill(1, "sourceCode", name=first), skill(2, "sourceCode", name=second)]
    steps = [{"op": "queue", "run": "r", "configuration": "c", "forced_skills": [1, 2]}, {"op": "dequeue", "run": "r"},
             {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r"}]
    return world(enforcement="observe", skills=skills) | CI, steps


def lifecycle_cases() -> list[dict]:
    """C165.6: the by-name rebuild orders by the name as stored, by code point, whatever the installation's collation."""
    def resumed(case_id: str, description: str, rules: list[str], document: dict, steps: list[dict]) -> dict:
        return case(case_id, description, rules, document, steps, "adr-166")

    return pair(resumed, "lifecycle", "C165.6",
                side("skills named \"B\" and \"a\", resumed by name under a case-insensitive collation: by code point B comes "
                     "first, so a, the later, is named on resume.", *resumed_by_name("a", "B")),
                side("skills named \"b\" and \"A\": by code point A comes first, so b is named on resume.", *resumed_by_name("b", "A")),
                "name-as-stored")
