"""Requirement coverage for the pytest plugin: per-test outcomes -> per-ID status -> report.

A requirement's status is the worst news any of its tests gives: ``failing`` if one failed
(in setup, call or teardown), else ``passing`` if one passed, else ``skipped`` if one was
skipped (the generated stubs skip with ``not implemented: <ID>``), else ``no_test``.
An expected failure (xfail, xpass) is not a pass: it counts as skipped.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .roster_table import Roster

STATUSES = ("passing", "failing", "skipped", "no_test")
STATUS_LABELS = {"passing": "passing", "failing": "failing", "skipped": "skipped stub", "no_test": "no test"}
STUB_REASON_PREFIX = "not implemented: "
# --acp-require=LEVEL: which keywords must have a passing test (responsibility sdk only).
REQUIRE_LEVELS = {
    "MUST": ("MUST", "MUST NOT"),
    "SHOULD": ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT"),
    "MAY": ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "MAY"),
}
KEYWORD_ORDER = ("MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "MAY")
RESPONSIBILITY_ORDER = ("sdk", "shared", "application")


@dataclass
class RunOutcome:
    nodeid: str
    outcome: str = "not_run"  # passed | failed | skipped | not_run
    reason: str | None = None

    def record(self, when: str, outcome: str, xfail: bool, reason: str | None) -> None:
        if outcome == "failed" and not xfail:
            self.outcome, self.reason = "failed", None
        elif self.outcome == "failed":
            return
        elif outcome == "skipped" or xfail:
            self.outcome, self.reason = "skipped", reason
        elif when == "call" and outcome == "passed":
            self.outcome = "passed"


@dataclass
class Tracker:
    """Which tests carry which IDs, and how each test ended."""

    ids_by_test: dict[str, tuple[str, ...]] = field(default_factory=dict)
    outcomes: dict[str, RunOutcome] = field(default_factory=dict)

    def add_test(self, nodeid: str, ids: tuple[str, ...]) -> None:
        self.ids_by_test[nodeid] = ids
        self.outcomes[nodeid] = RunOutcome(nodeid)

    def record(self, nodeid: str, when: str, outcome: str, xfail: bool, reason: str | None) -> None:
        if nodeid in self.outcomes:
            self.outcomes[nodeid].record(when, outcome, xfail, reason)


def skip_reason(longrepr: Any) -> str | None:
    """The text of a skip: pytest stores ``(path, line, "Skipped: <reason>")``."""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        text = str(longrepr[2])
        return text.removeprefix("Skipped: ")
    return None


def requirement_status(outcomes: list[RunOutcome]) -> str:
    kinds = {o.outcome for o in outcomes}
    if "failed" in kinds:
        return "failing"
    if "passed" in kinds:
        return "passing"
    if "skipped" in kinds:
        return "skipped"
    return "no_test"


def build_report(roster: Roster, tracker: Tracker, require: str | None, roster_path: str) -> dict[str, Any]:
    tests_by_id: dict[str, list[RunOutcome]] = {r.id: [] for r in roster.requirements}
    for nodeid, ids in sorted(tracker.ids_by_test.items()):
        for req_id in ids:
            if req_id in tests_by_id:  # unknown IDs never get here: collection refused them
                tests_by_id[req_id].append(tracker.outcomes[nodeid])
    entries = []
    for req in roster.requirements:
        tests = tests_by_id[req.id]
        entries.append(
            {
                "id": req.id,
                "keyword": req.keyword,
                "role": req.role,
                "responsibility": req.responsibility,
                "kind": req.kind,
                "status": requirement_status(tests),
                "tests": [
                    {
                        "nodeid": t.nodeid,
                        "outcome": t.outcome,
                        "reason": t.reason,
                        "stub": t.outcome == "skipped"
                        and (t.reason or "").startswith(STUB_REASON_PREFIX),
                    }
                    for t in tests
                ],
            }
        )
    counts = Counter(e["status"] for e in entries)
    table = []
    for keyword in KEYWORD_ORDER:
        for responsibility in RESPONSIBILITY_ORDER:
            rows = [e for e in entries if e["keyword"] == keyword and e["responsibility"] == responsibility]
            if rows:
                row_counts = Counter(e["status"] for e in rows)
                table.append(
                    {
                        "keyword": keyword,
                        "responsibility": responsibility,
                        **{s: row_counts.get(s, 0) for s in STATUSES},
                        "total": len(rows),
                    }
                )
    report: dict[str, Any] = {
        "roster": {"path": roster_path, "revision": roster.revision},
        "counts": {**{s: counts.get(s, 0) for s in STATUSES}, "total": len(entries)},
        "by_keyword_responsibility": table,
        "requirements": entries,
        "require": None,
    }
    if require:
        keywords = REQUIRE_LEVELS[require]
        missing = [
            e["id"]
            for e in entries
            if e["responsibility"] == "sdk" and e["keyword"] in keywords and e["status"] != "passing"
        ]
        report["require"] = {
            "level": require,
            "keywords": list(keywords),
            "responsibility": "sdk",
            "missing": missing,
            "ok": not missing,
        }
    return report


def format_table(report: dict[str, Any]) -> list[str]:
    """The coverage table as terminal lines (same numbers as the JSON)."""
    headers = ["keyword", "responsibility", *(STATUS_LABELS[s] for s in STATUSES), "total"]
    rows = [
        [r["keyword"], r["responsibility"], *(str(r[s]) for s in STATUSES), str(r["total"])]
        for r in report["by_keyword_responsibility"]
    ]
    counts = report["counts"]
    rows.append(["total", "", *(str(counts[s]) for s in STATUSES), str(counts["total"])])
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def fmt(row: list[str]) -> str:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        return "  ".join(cells)

    lines = [fmt(headers), "  ".join("-" * w for w in widths)]
    lines += [fmt(row) for row in rows[:-1]]
    lines += ["  ".join("-" * w for w in widths), fmt(rows[-1])]
    return lines
