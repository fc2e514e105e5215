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
    scenarios: tuple[str, ...] = ()  # the scenarios the check read (its evidence's frames)
    stale: bool = False  # the baseline lists it as failing, but it passed (the run fails)


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
        if result.stale:
            entry["stale_baseline"] = True
        if result.scenarios:
            entry["scenarios"] = list(result.scenarios)
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
        line = f"  {a['status'].upper():7} {a['name']} ({a['strength']})"
        lines.append(f"{line}: {a['message']}" if a["message"] else line)
    run = report.get("run") or {}
    if run:
        lines.extend(f"  {line}" for line in run_words(run))
    return lines


# How the report says each recorded option (plugin.RECORDED_OPTIONS): given, and not given.
OPTION_WORDS = {
    "acp_timeout": ("{} s for each answer", "no answer timeout"),
    "acp_turn_timeout": ("{} s for a turn (a client: for a run)", "no turn timeout"),
    "acp_cancel_grace": ("{} s for a cancelled turn to stop", "no cancel grace"),
    "acp_prompt": ("prompt {!r}", "prompt"),
    "acp_slow_prompt": ("slow prompt {!r}", "slow prompt"),
    "acp_permission_prompt": ("permission prompt {!r}", "permission prompt"),
    "acp_fs_prompt": ("fs prompt {!r}", "fs prompt"),
    "acp_elicitation_prompt": ("elicitation prompt {!r}", "elicitation prompt"),
    "acp_auth_method": ("authenticate with {!r}", "auth method"),
    "acp_logout": ("logout at the end", "logout"),
    "acp_client_input": ("client input {!r}", "client input"),
    "acp_profile": ("profile {}", "profile"),
    "acp_baseline": ("baseline {}", "baseline"),
}


def _value(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def option_words(options: Mapping[str, Any]) -> str:
    """``10 s for each answer, slow prompt '/wait'; not given: fs prompt, logout``."""
    given, missing = [], []
    for name, value in options.items():
        plain = name.removeprefix("acp_").replace("_", " ")
        said, absent = OPTION_WORDS.get(name, (plain + " {!r}", plain))
        if value is None or value is False or value == "":
            missing.append(absent)
        else:
            given.append(said.format(_value(value)))
    text = ", ".join(given) or "none"
    return text + (f"; not given: {', '.join(missing)}" if missing else "")


def environment_words(env: Mapping[str, Any]) -> str:
    """What the command's environment held of the variables that change agents, in words."""
    changed = [f"set {k}={v}" for k, v in env.get("set_by_kit", {}).items()]
    changed += [f"removed {k}" for k in env.get("removed_by_kit", [])]
    how = "; ".join(changed) if changed else "passed on unchanged (the kit set and removed nothing)"
    observed = ", ".join(f"{k}={v}" for k, v in env.get("observed", {}).items()) or "none of them"
    absent = ", ".join(env.get("absent", [])) or "none"
    return f"environment: {how}; of the variables known to change agents, set: {observed}; not set: {absent}"


def run_words(run: Mapping[str, Any]) -> list[str]:
    """What ran where, as sentences: the directory, the kit, its options, the environment."""
    lines = []
    if run.get("cwd"):
        lines.append(f"ran in {run['cwd']}")
    kit = run.get("kit") or {}
    if kit:
        lines.append(
            f"kit: sources sha256 {kit.get('sha256', '?')}, roster {kit.get('roster', '?')}"
        )
    if "options" in run:
        lines.append(f"options: {option_words(run['options'])}")
    if "environment" in run:
        lines.append(environment_words(run["environment"]))
    return lines


def run_failures(report: Mapping[str, Any]) -> list[str]:
    """Why the run fails at MUST level, one line each (empty: it passes): a MUST / MUST NOT
    failure the baseline does not list, a listed requirement that passes now (the baseline
    must stay true), a failing profile rule, or nothing judged at MUST level at all."""
    if report.get("error"):
        return [f"the {report['side']} cannot be run: {report['error']}"]
    found = []
    for e in report["requirements"]:
        if e["status"] != "fail" or e.get("baseline"):
            continue
        if e["keyword"] in MUST_LEVEL or e.get("stale_baseline"):
            found.append(f"{e['id']} ({e['keyword']}): {e['message']}")
    for a in report.get("advisories", []):
        if a["status"] == "fail" and a["strength"] not in KEYWORDS:  # a profile's own rule
            found.append(f"{a['name']}: {a['message']}")
    if not found and not report["verdict"]["must_judged"]:
        found.append("no MUST requirement was judged")
    return found


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
    out.extend(f"{_cell(line)}  " for line in run_words(report.get("run") or {}))
    out.append("")
    out.append(
        f"{c['not observable']} requirements are not observable from outside when the "
        f"implementation under test is a {report['side']} (see schema/conformance.toml)."
    )
    return "\n".join(out) + "\n"
