"""Plain-text rendering of a :class:`acpgen.check.CheckReport`."""

from __future__ import annotations

from acpgen.check import CheckReport


def render_text(report: CheckReport) -> str:
    if report.clean:
        return f"ok: {report.out}/ is exactly what the pinned inputs produce"
    lines = [f"drift: {report.out}/ differs from what the pinned inputs produce"]
    for label, paths in (("changed", report.changed), ("added (not generated)", report.added),
                         ("missing", report.missing)):
        lines.extend(f"  {label}: {p}" for p in paths)
    if report.tool_drift:
        tools = ", ".join(f"{n} {v['recorded']} -> {v['installed']}" for n, v in report.tool_drift.items())
        lines.append(f"cause: generator drift: tool versions differ from MANIFEST.json ({tools}); "
                     "install the pinned versions (pip install -e .)")
    if report.hand_edited:
        lines.append("cause: hand edits: these files no longer match MANIFEST.json: "
                     + ", ".join(report.hand_edited))
    if report.hand_added:
        lines.append("cause: files added by hand: " + ", ".join(report.hand_added))
    if not (report.tool_drift or report.hand_edited or report.hand_added):
        lines.append("cause: stale output: the generator or its templates changed since the last "
                     "`acpgen generate`")
    lines.append("fix: run `acpgen generate` and commit the result")
    lines.append("")
    lines.extend(line.rstrip("\n") for line in report.diff)
    if report.diff_truncated:
        lines.append("... (diff truncated; run `acpgen generate` and `git diff` for all of it)")
    return "\n".join(lines)
