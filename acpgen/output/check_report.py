"""Plain-text rendering of a :class:`acpgen.output.check.CheckReport` (``--json`` has the same facts)."""

from __future__ import annotations

from typing import Any

from acpgen.output.check import CheckReport


def _versions(tools: dict[str, dict[str, Any]], now_key: str) -> str:
    return ", ".join(f"{n} {v['recorded']} -> {v[now_key]}" for n, v in sorted(tools.items()))


def _cause_line(cause: dict[str, Any], sources_here: bool = True) -> str:
    kind = cause["kind"]
    if kind == "source_changed" and not sources_here:
        return ("cause: the installed acpgen makes these files otherwise than the acpgen that "
                "generated the tree (acpgen was upgraded or reinstalled; its templates and shipped "
                "code are acpgen's, not files of this project): " + "; ".join(
                    f"{origin} (which makes {', '.join(files)})" if files else origin
                    for origin, files in sorted(cause["sources"].items())))
    if kind == "no_manifest":
        return f"cause: no usable manifest: {cause['detail']}"
    if kind == "generator_drift":
        return ("cause: generator drift: installed versions differ from those MANIFEST.json records "
                f"({_versions(cause['tools'], 'installed')})")
    if kind == "options_changed":
        changed = ", ".join(f"{name} {v['recorded']!r}, checking with {name} {v['current']!r}"
                            for name, v in sorted(cause["options"].items()))
        return ("cause: generate options changed: the tree was generated with " + changed
                + " (--package, or [generate] in schema/acp.lock)")
    if kind == "input_changed":
        changed = ", ".join(f"{name} ({v['path']})" if v.get("path") else name
                            for name, v in sorted(cause["inputs"].items()))
        return ("cause: inputs changed since the last generate: MANIFEST.json records other hashes for "
                f"{changed} (the lock was updated or a manifest edited)")
    if kind == "source_changed":
        return "cause: changed since the last generate: " + "; ".join(
            f"{origin} (which makes {', '.join(files)})" if files else
            f"{origin} (its output is the same; MANIFEST.json records its hash)"
            for origin, files in sorted(cause["sources"].items()))
    if kind == "hand_edited":
        return "cause: hand edits: these files no longer match MANIFEST.json: " + ", ".join(cause["files"])
    if kind == "hand_added":
        return "cause: files added by hand (not in MANIFEST.json): " + ", ".join(cause["files"])
    if kind == "hand_deleted":
        return "cause: files deleted by hand (in MANIFEST.json, not on disk): " + ", ".join(cause["files"])
    return f"cause: stale output: {cause['detail']}"


def _surface_lines(report: CheckReport) -> list[str]:
    """One line per surface when the tree holds more than v1 stable (a v1-only check reads as
    it always did)."""
    if len(report.surfaces) < 2:
        return []
    lines = []
    for name, found in report.by_surface().items():
        counts = [f"{len(found[k])} {k}" for k in ("changed", "missing", "added") if found[k]]
        lines.append(f"  surface {name} ({found['package']}/): " + (", ".join(counts) if counts else "identical"))
    return lines


MAX_LISTED = 20  # file names per kind in the text report (--json lists them all)


def _fix_lines(report: CheckReport) -> list[str]:
    """What to do, for the most fundamental cause first."""
    kinds = [cause["kind"] for cause in report.causes]
    if "options_changed" in kinds:
        recorded = ", ".join(f"--{name.replace('_', '-')} {v['recorded']}"
                             for name, v in sorted(report.options_changed.items()) if v.get("recorded"))
        return [(f"fix: check with the options the tree was generated with ({recorded}), or run "
                "`acpgen generate` with the new ones and commit the result")]
    if "generator_drift" in kinds:
        return [("fix: install the versions MANIFEST.json records (`pip install -e .` installs the pins), "
                "or run `acpgen generate` with the installed ones and commit the result")]
    if {"hand_edited", "hand_added"} & set(kinds):
        lines = [("fix: move hand-written code out of the generated tree (every `acpgen generate` "
                 "rewrites it), then run `acpgen generate` and commit the result")]
        sources = [(rel, report.origins[rel]) for rel in report.hand_edited if rel in report.origins]
        if sources and report.sources_here:
            lines.append("fix: to change what is generated, change the source instead: " + "; ".join(
                f"{rel} is {_source_kind(origin)}" for rel, origin in sources))
        elif sources:
            lines.append(
                "fix: " + ", ".join(rel for rel, _ in sources) + ": made by the installed "
                "acpgen, whose templates are not part of this project; keep your code in modules "
                "of your own that import the generated package; to change what is generated, "
                "change what it is generated from: a new schema release (`acpgen bump --schema "
                "FILE`, docs/schema-bumps.md) or the [generate] options in schema/acp.lock")
        return lines
    if "source_changed" in kinds and not report.sources_here:
        return [("fix: run `acpgen generate` with the installed acpgen and commit the result (a "
                 "new acpgen release: its changelog says what changed), or install the acpgen "
                 "version MANIFEST.json records")]
    return ["fix: run `acpgen generate` and commit the result"]


def _source_kind(origin: str) -> str:
    if origin.startswith("acpgen/shipped/"):
        return f"a copy of acpgen's {origin} (real Python in acpgen, copied as it is)"
    if origin.startswith("templates/"):
        return f"rendered from acpgen's template {origin}"
    return f"written by acpgen's {origin}"


def _listed(label: str, paths: list[str]) -> list[str]:
    lines = [f"  {label}: {p}" for p in paths[:MAX_LISTED]]
    if len(paths) > MAX_LISTED:
        lines.append(f"  ... and {len(paths) - MAX_LISTED} more {label} (--json lists them all)")
    return lines


def render_text(report: CheckReport) -> str:
    """The cause and the fix first, then which files differ, then the diff."""
    if report.clean:
        surfaces = ", ".join(f"{n} ({p})" for n, p in report.surfaces.items()) if len(report.surfaces) > 1 else ""
        return f"ok: {report.out}/ is exactly what the pinned inputs produce" + (
            f"; surfaces: {surfaces}" if surfaces else "")
    counts = ", ".join(f"{len(paths)} {label}" for label, paths in (
        ("changed", report.changed), ("added", report.added), ("missing", report.missing)) if paths)
    lines = [f"drift: {report.out}/ differs from what the pinned inputs produce ({counts})"]
    lines.extend(_cause_line(cause, report.sources_here) for cause in report.causes)
    lines.extend(_fix_lines(report))
    lines.extend(_surface_lines(report))
    for label, paths in (("changed", report.changed), ("added (not generated)", report.added),
                         ("missing", report.missing)):
        lines.extend(_listed(label, paths))
    lines.append("")
    lines.extend(line.rstrip("\n") for line in report.diff)
    if report.diff_truncated:
        lines.append("... (diff truncated; run `acpgen generate` and `git diff` for all of it)")
    return "\n".join(lines)
