"""``acpgen check``: regenerate in memory and compare byte for byte with the committed tree.

Like Kubernetes' verify-codegen, but the diagnosis says *why* the tree differs: a different
tool version than MANIFEST.json records (generator drift), files edited or added by hand,
or plain staleness (the generator or templates changed since the last ``generate``).
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpgen.generate import MANIFEST_NAME, build_tree, options_for, output_dir, tool_versions
from acpgen.project import Project
from acpgen.writer import read_tree

MAX_DIFF_LINES = 200


@dataclass
class CheckReport:
    out: str
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # on disk, not produced by the generator
    missing: list[str] = field(default_factory=list)  # produced, not on disk
    hand_edited: list[str] = field(default_factory=list)
    hand_added: list[str] = field(default_factory=list)
    tool_drift: dict[str, dict[str, str | None]] = field(default_factory=dict)
    diff: list[str] = field(default_factory=list)
    diff_truncated: bool = False

    @property
    def clean(self) -> bool:
        return not (self.changed or self.added or self.missing)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": "clean" if self.clean else "drift",
            "out": self.out,
            "changed": self.changed,
            "added": self.added,
            "missing": self.missing,
            "hand_edited": self.hand_edited,
            "hand_added": self.hand_added,
            "generator_drift": self.tool_drift,
            "diff": "".join(self.diff),
            "diff_truncated": self.diff_truncated,
        }


def check(project: Project, out: str | None = None, package: str | None = None) -> CheckReport:
    target = output_dir(project, out)
    expected = build_tree(project, options_for(project, package))
    actual = read_tree(target)
    report = CheckReport(out=str(Path(out or project.lock.out)))
    report.changed = sorted(p for p in expected if p in actual and actual[p] != expected[p])
    report.missing = sorted(p for p in expected if p not in actual)
    report.added = sorted(p for p in actual if p not in expected)
    _diagnose(report, actual)
    _diff(report, expected, actual)
    return report


def _diagnose(report: CheckReport, actual: dict[str, bytes]) -> None:
    """Compare the committed tree with its own MANIFEST.json to tell hand edits apart."""
    try:
        recorded = json.loads(actual.get(MANIFEST_NAME, b"{}"))
    except ValueError:
        recorded = {}
    hashes = recorded.get("files", {}) if isinstance(recorded, dict) else {}
    for rel, data in actual.items():
        if rel == MANIFEST_NAME:
            continue
        if rel not in hashes:
            if rel in report.added:
                report.hand_added.append(rel)
        elif hashlib.sha256(data).hexdigest() != hashes[rel]:
            report.hand_edited.append(rel)
    tools = recorded.get("tools", {}) if isinstance(recorded, dict) else {}
    for name, now in tool_versions().items():
        if tools.get(name) != now and tools:
            report.tool_drift[name] = {"recorded": tools.get(name), "installed": now}


def _diff(report: CheckReport, expected: dict[str, bytes], actual: dict[str, bytes]) -> None:
    lines: list[str] = []
    for rel in sorted(set(report.changed) | set(report.missing) | set(report.added)):
        old = actual.get(rel, b"").decode("utf-8", "replace").splitlines(keepends=True)
        new = expected.get(rel, b"").decode("utf-8", "replace").splitlines(keepends=True)
        lines.extend(
            difflib.unified_diff(old, new, f"{report.out}/{rel} (committed)", f"{report.out}/{rel} (generated)")
        )
    report.diff_truncated = len(lines) > MAX_DIFF_LINES
    report.diff = [ln if ln.endswith("\n") else ln + "\n" for ln in lines[:MAX_DIFF_LINES]]
