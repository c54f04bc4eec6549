"""What ``gateproof diff`` prints, a piece at a time as its results come: proofs, differences, claims, the verdict.

Values are printed in full (long ones wrapped), an absent key as
``(absent)``, and every command a reader may run stands on a line of its
own after ``$ ``, exactly as it runs.
"""

from __future__ import annotations

from ..explanation.trace import shown, wrapped

_ABSENT = object()


def command_line(command: str) -> str:
    return f"      $ {command}"


def proof_lines(entry: dict) -> list[str]:
    if entry["result"] == "alike":
        return [f"  alike for {entry['scope']}  ({entry['seconds']}s)"]
    if entry["result"] == "differ":
        lines = [f"  differ for some {entry['subjects']}, at most {entry['bound']} each; the smallest such story, under each version:"]
        return lines + [command_line(command) for command in entry["replay"]]
    if entry["result"] == "inconsistent":
        return [f"  INCONSISTENT for {entry['scope']}: {entry['reason']}"]
    return [f"  unknown for {entry['scope']}: {entry['reason']}"]


def _value(result: dict, key: str) -> str:
    value = result.get(key, _ABSENT)
    return "(absent)" if value is _ABSENT else shown(value)


def difference_lines(entry: dict, left: str, right: str) -> list[str]:
    verdict = f"expected: {entry['consequence']}" if entry["expected"] else "UNEXPECTED: no ADR documents this difference"
    lines = ["", f"  {entry['file']}: step {entry['step']} ({entry['op']}), {entry['forced_sources']} forced source(s), found after {entry['found_after_seconds']}s",
             f"    {verdict}"]
    width = max(len(left), len(right))
    for key in entry["keys"]:
        lines.append(f"    {key}")
        lines += [f"      {left:<{width}}  {_value(entry['from_result'], key)}", f"      {right:<{width}}  {_value(entry['to_result'], key)}"]
    lines.append(f"    why, at step {entry['step']} of each version's explanation:")
    return lines + [command_line(command) for command in entry["explain"]]


def claim_lines(entry: dict) -> list[str]:
    status = entry["status"] + {"held": " (UNEXPECTED)" if entry["status"] == "broken" else "", "not claimed": " (not claimed here)"}[entry["expected"]]
    lines = [f"  {entry['id']} under {', '.join(entry['versions'])}: {status} — {entry['statement']} [{entry['adr']}]"]
    if entry["documented"]:
        lines.append(f"    {entry['documented']}")
    if entry["counterexample"]:
        lines += [f"    counterexample: {entry['counterexample']}", command_line(entry["replay"])]
    return lines


def summary_lines(report: dict) -> list[str]:
    count = report["unexpected"]
    if count:
        return ["", f"{count} UNEXPECTED result(s): exit status 1"]
    return ["", "every difference is documented and every claim is as its ADR says: exit status 0"]


def printed(lines: list[str]) -> list[str]:
    """The lines as printed: wrapped at the width, nothing cut; a command is never wrapped, so it runs as printed."""
    return [piece for line in lines for piece in ([line] if line.lstrip().startswith("$ ") else wrapped(line))]
