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
    text: str = ""  # the roster's wording


@dataclass
class Result:
    status: str
    message: str = ""
    baseline: bool = False  # a failure the run's baseline lists as a known deviation


MUST_LEVEL = ("MUST", "MUST NOT")  # what "conformant" is judged on
SHOULD_LEVEL = ("SHOULD", "SHOULD NOT")  # the score beside it


def build(
    side: str,
    command: str,
    requirements: Mapping[str, Requirement],
    results: Mapping[str, Result],
    run: Mapping[str, Any] | None = None,
    advisories: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """The JSON report for one run against ``side`` (agent | client). The strength of every
    entry is the roster's keyword (the conformance manifest says only whether and how a
    requirement is observed: it can narrow a check, never strengthen it). ``run`` records the
    command's environment and the kit's options; ``advisories`` what the kit judged beside
    the roster (JSON-RPC batches, a profile's own rules)."""
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
        entry: dict[str, Any] = {
            "id": req.id,
            "keyword": req.keyword,
            "role": req.role,
            "status": result.status,
            "message": result.message,
            "text": req.text,
        }
        if result.baseline:
            entry["baseline"] = True
        entries.append(entry)
    counts = Counter(e["status"] for e in entries)
    by_keyword: dict[str, dict[str, int]] = {k: {s: 0 for s in STATUSES} for k in KEYWORDS}
    for e in entries:
        row = by_keyword.setdefault(e["keyword"], {s: 0 for s in STATUSES})
        row[e["status"]] += 1
    return {
        "side": side,
        "command": command,
        "run": dict(run or {}),
        "verdict": verdict(entries),
        "counts": {s: counts.get(s, 0) for s in STATUSES} | {"total": len(entries)},
        "by_keyword": {k: row for k, row in by_keyword.items() if any(row.values())},
        "advisories": list(advisories or []),
        "requirements": entries,
    }


def verdict(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Conformant at MUST level (no MUST / MUST NOT failed, at least one judged) or not, and
    the SHOULD score (passed of judged). MAY failures count in neither."""
    must = [e for e in entries if e["keyword"] in MUST_LEVEL and e["status"] in ("pass", "fail")]
    failed = [e["id"] for e in must if e["status"] == "fail"]
    should = [
        e for e in entries if e["keyword"] in SHOULD_LEVEL and e["status"] in ("pass", "fail")
    ]
    passed = sum(e["status"] == "pass" for e in should)
    if not must:
        line = "verdict: not judged at MUST level (no MUST requirement was judged)"
    elif failed:
        line = f"verdict: NOT conformant at MUST level ({len(failed)} of {len(must)} MUST failed)"
    else:
        line = f"verdict: conformant at MUST level (all {len(must)} judged MUST passed)"
    line += f"; SHOULD score {passed}/{len(should)}"
    return {
        "must_conformant": bool(must) and not failed,
        "must_judged": len(must),
        "must_failed": failed,
        "should_passed": passed,
        "should_judged": len(should),
        "line": line,
    }


def to_json(report: Mapping[str, Any]) -> str:
    return json.dumps(report, indent=2) + "\n"


def text_lines(report: Mapping[str, Any], verbose: bool = False) -> list[str]:
    c = report["counts"]
    lines = [f"ACP conformance of the {report['side']} {report['command']}"]
    if report.get("error"):
        return [*lines, f"  cannot be run: {report['error']}"]
    lines += [
        f"  {report['verdict']['line']}",
        (
            f"  pass {c['pass']}, fail {c['fail']}, skipped {c['skipped']}, not observable "
            f"{c['not observable']}, not run {c['not run']} (of {c['total']})"
        ),
    ]
    shown = ("fail", "skipped", "pass") if verbose else ("fail",)
    for e in report["requirements"]:
        if e["status"] in shown:
            known = " [known: baseline]" if e.get("baseline") else ""
            lines.append(
                f"  {e['status'].upper():7} {e['id']} ({e['keyword']}){known}: {e['message']}".rstrip(
                    ": "
                )
            )
            if e["status"] == "fail" and e.get("text"):
                lines.append(f"          the roster: {e['text']}")
    for a in report.get("advisories", []):
        lines.append(f"  {a['status'].upper():7} {a['name']} ({a['strength']}): {a['message']}")
    run = report.get("run") or {}
    if run:
        lines.append(f"  kit {run.get('kit')}, options {run.get('options')}")
        lines.append(f"  environment {run.get('environment')}")
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
        f"**{_cell(report['verdict']['line'])}**",
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
        message = e["message"] + (
            f" (the roster: {e['text']})" if e["status"] == "fail" and e.get("text") else ""
        )
        out.append(f"| {e['id']} | {e['keyword']} | {e['status']} | {_cell(message)} |")
    for a in report.get("advisories", []):
        out.append(
            f"| {_cell(a['name'])} | {a['strength']} | {a['status']} | {_cell(a['message'])} |"
        )
    out.append("")
    out.append(
        f"{c['not observable']} requirements are not observable from outside when the "
        f"implementation under test is a {report['side']} (see schema/conformance.toml)."
    )
    return "\n".join(out) + "\n"
