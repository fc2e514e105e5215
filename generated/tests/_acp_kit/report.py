# Edit acpgen/shipped/conformance/report.py, not this file: acpgen generate writes it.
"""The conformance report: per requirement, what the run showed about the implementation.

Statuses: ``pass``, ``fail`` (with the observed message), ``skipped`` (with the reason),
``not observable`` (classified ``none`` or for the other side), ``not run`` (deselected).
Rendered as terminal text, JSON and a Markdown table.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

STATUSES = ("pass", "fail", "skipped", "not observable", "not run")
KEYWORDS = ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "MAY")


@dataclass(frozen=True)
class Requirement:
    id: str
    keyword: str
    role: str
    observable: str  # agent | client | both | none
    reason: str


@dataclass
class Result:
    status: str
    message: str = ""


def build(
    side: str, command: str, requirements: Mapping[str, Requirement], results: Mapping[str, Result]
) -> dict[str, Any]:
    """The JSON report for one run against ``side`` (agent | client)."""
    entries = []
    for req in requirements.values():
        if req.observable not in (side, "both"):
            result = Result(
                "not observable",
                (
                    req.reason
                    if req.observable == "none"
                    else f"observable only when the implementation under test is a {req.observable}"
                ),
            )
        else:
            result = results.get(req.id, Result("not run"))
        entries.append(
            {
                "id": req.id,
                "keyword": req.keyword,
                "role": req.role,
                "status": result.status,
                "message": result.message,
            }
        )
    counts = Counter(e["status"] for e in entries)
    by_keyword: dict[str, dict[str, int]] = {k: {s: 0 for s in STATUSES} for k in KEYWORDS}
    for e in entries:
        row = by_keyword.setdefault(e["keyword"], {s: 0 for s in STATUSES})
        row[e["status"]] += 1
    return {
        "side": side,
        "command": command,
        "counts": {s: counts.get(s, 0) for s in STATUSES} | {"total": len(entries)},
        "by_keyword": {k: row for k, row in by_keyword.items() if any(row.values())},
        "requirements": entries,
    }


def to_json(report: Mapping[str, Any]) -> str:
    return json.dumps(report, indent=2) + "\n"


def text_lines(report: Mapping[str, Any], verbose: bool = False) -> list[str]:
    c = report["counts"]
    lines = [f"ACP conformance of the {report['side']} {report['command']}"]
    if report.get("error"):
        return [*lines, f"  cannot be run: {report['error']}"]
    lines += [
        (
            f"  pass {c['pass']}, fail {c['fail']}, skipped {c['skipped']}, not observable "
            f"{c['not observable']}, not run {c['not run']} (of {c['total']})"
        ),
    ]
    shown = ("fail", "skipped", "pass") if verbose else ("fail",)
    for e in report["requirements"]:
        if e["status"] in shown:
            lines.append(
                f"  {e['status'].upper():7} {e['id']} ({e['keyword']}): {e['message']}".rstrip(": ")
            )
    return lines


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def to_markdown(report: Mapping[str, Any]) -> str:
    c = report["counts"]
    out = [
        f"**ACP v1 conformance ({report['side']})**: `{_cell(report['command'])}`",
        "",
        *([f"Cannot be run: {_cell(report['error'])}", ""] if report.get("error") else []),
        (
            f"pass {c['pass']} · fail {c['fail']} · skipped {c['skipped']} · not observable "
            f"{c['not observable']} · not run {c['not run']} · total {c['total']}"
        ),
        "",
        "| keyword | pass | fail | skipped | not observable |",
        "|---|---|---|---|---|",
        *(
            f"| {k} | {row['pass']} | {row['fail']} | {row['skipped']} | {row['not observable']} |"
            for k, row in report["by_keyword"].items()
        ),
        "",
        "| requirement | keyword | result | observed / reason |",
        "|---|---|---|---|",
    ]
    for e in report["requirements"]:
        if e["status"] == "not observable":
            continue
        out.append(f"| {e['id']} | {e['keyword']} | {e['status']} | {_cell(e['message'])} |")
    out.append("")
    out.append(
        f"{c['not observable']} requirements are not observable from outside when the "
        f"implementation under test is a {report['side']} (see schema/conformance.toml)."
    )
    return "\n".join(out) + "\n"
