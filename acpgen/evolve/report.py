"""Render a schema diff (with its roster impact) as plain text or JSON-ready data, and the
exit code it leads to.

Plain text is summarised so each section fits a screen: annotation-only changes are counted
per key, long sections are cut with a "--verbose" hint. Each change is named by its kind (the
vocabulary of ``--explain``), with who it breaks, why, and what the SDK's user changes
(:mod:`acpgen.evolve.advice`). JSON always carries everything; GitHub annotations and a
Markdown PR comment are in :mod:`acpgen.evolve.report_ci`. Output is deterministic: sorted,
no timestamps, paths exactly as the user gave them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from acpgen.evolve.advice import advice, handler_names, where
from acpgen.evolve.changes import Change
from acpgen.evolve.compat import RULES
from acpgen.evolve.diff import SchemaDiff, SchemaSide
from acpgen.evolve.impact import ChangeImpact, Impact
from acpgen.evolve.release import ReleaseView, release_lines

EXIT_NO_CHANGE = 0
EXIT_COMPATIBLE = 1
EXIT_BREAKING = 3
EXIT_UNPROVEN = 4
# --fail-on: which verdicts fail (exit non-zero with their code); "never" is --exit-zero.
FAIL_ON = ("breaking", "compatible", "never")
_SECTION_LIMIT = 20
_REQ_LIMIT = 6

_SECTIONS = (
    ("Unclassified (assumed breaking for both sides)", ("UNCLASSIFIED",)),
    ("Methods", ("METHOD_",)),
    ("Members (properties, types, constraints, enum values, variants, defaults)",
     ("PROPERTY_", "NULLABLE_", "TYPE_", "CONSTRAINT_", "ENUM_", "VARIANT_", "OBJECT_",
      "DEFAULT_")),
    ("Capabilities", ("CAPABILITY_",)),
    ("Source-level only (same wire; the generated code changes)", ("DEF_", "EQUIVALENT_")),
)


def exit_code(diff: SchemaDiff) -> int:
    if not diff.changes:
        return EXIT_NO_CHANGE
    if any(c.breaking for c in diff.changes):
        return EXIT_BREAKING
    return EXIT_UNPROVEN if any(c.unproven for c in diff.changes) else EXIT_COMPATIBLE


def exit_status(diff: SchemaDiff, fail_on: str, release: ReleaseView | None = None) -> int:
    """The exit code under ``--fail-on``: ``compatible`` fails on any change (the verdict's
    code: 1, 3 or 4), ``breaking`` only on a proven break (3) or an unproven change (4),
    ``never`` on nothing (0). Breaking changes of an unstable surface count as compatible
    unless the project opted in (:class:`~acpgen.evolve.release.ReleaseView`)."""
    code = exit_code(diff)
    if code == EXIT_BREAKING and release is not None and not release.gates_breaking:
        code = EXIT_COMPATIBLE
    if fail_on == "never" or code == EXIT_NO_CHANGE:
        return 0
    if fail_on == "breaking":
        return code if code in (EXIT_BREAKING, EXIT_UNPROVEN) else 0
    return code


def verdict(diff: SchemaDiff) -> str:
    return {EXIT_NO_CHANGE: "no change", EXIT_COMPATIBLE: "compatible",
            EXIT_BREAKING: "breaking", EXIT_UNPROVEN: "unproven"}[exit_code(diff)]


def _mark(c: Change) -> str:
    for word, label in (("breaking", "BREAKING"), ("unproven", "UNPROVEN")):
        hit = [r for r in ("client", "agent") if getattr(c, r) == word]
        if hit:
            return f"{label} " + ("both" if len(hit) == 2 else hit[0])
    return "compatible"


_where = where


def advice_for(diff: SchemaDiff, impact: Impact) -> dict[int, str]:
    """id(change) -> its "do" line."""
    handlers = {**handler_names(diff.new.meta), **handler_names(diff.old.meta)}
    by_change: dict[int, ChangeImpact] = {id(ci.change): ci for ci in impact.changes}
    out = {}
    for c in diff.semantic:
        ci = by_change.get(id(c))
        out[id(c)] = advice(c, ci.carriers if ci else (), handlers)
    return out


def _annotation_groups(changes: tuple[Change, ...]) -> list[tuple[str, int, int]]:
    """(key + how, count, number of defs) for annotation-only changes."""
    counts: Counter[str] = Counter()
    defs: dict[str, set[str]] = defaultdict(set)
    for c in changes:
        label = c.detail.split(" at ", 1)[0]  # e.g. "description changed"
        counts[label] += 1
        defs[label].add(c.subject)
    return [(label, counts[label], len(defs[label])) for label in sorted(counts)]


def section_of(kind: str) -> str | None:
    """The text report's section for a semantic change kind (None: not listed in text)."""
    return next((title for title, prefixes in _SECTIONS if kind.startswith(prefixes)), None)


def _meta_source(side: SchemaSide) -> str:
    """Which meta.json a side's methods were read from, and why when it is not its own."""
    if side.meta_is_own:
        return f"from {side.meta_label}"
    pinned = side.meta_label.removesuffix(" (pinned)")
    return f"from {pinned} (pinned: no meta.json beside {Path(side.label).name})"


def render_text(diff: SchemaDiff, impact: Impact, verbose: bool = False,
                release: ReleaseView | None = None) -> str:
    lines: list[str] = []
    sem = diff.semantic
    bc = sum(c.client == "breaking" for c in sem)
    ba = sum(c.agent == "breaking" for c in sem)
    lines.append(f"schema diff: {diff.old.label} ({diff.old.sha256[:12]}) -> "
                 f"{diff.new.label} ({diff.new.sha256[:12]})")
    lines.append(f"method tables: OLD {_meta_source(diff.old)}; NEW {_meta_source(diff.new)}")
    lines.append(f"{len(sem)} semantic change(s): {bc} breaking for a client, {ba} breaking for an "
                 f"agent (generated from OLD); {len(diff.annotations)} annotation-only change(s)")
    lines.append(f"verdict: {verdict(diff)}")
    if release is not None:
        lines += release_lines(release)
    by_change = {id(ci.change): ci for ci in impact.changes}
    todo = advice_for(diff, impact)
    for title, _ in _SECTIONS:
        section = [c for c in sem if section_of(c.kind) == title]
        if not section:
            continue
        lines += ["", f"{title}: {len(section)}"]
        shown = section if verbose else section[:_SECTION_LIMIT]
        for c in shown:
            lines.append(f"  {_mark(c):<16} {c.kind} {c.describe()}")
            for w in c.witnesses:
                lines.append(f"  {'':<16}   {w.short()}")
            if c.unproven:
                lines.append(f"  {'':<16}   {c.reason.split(';')[0]}")
            if c.breaking or c.unproven:
                lines.append(f"  {'':<16}   why: {RULES[c.kind].why}")
            lines.append(f"  {'':<16}   do: {todo[id(c)]}")
        if len(shown) < len(section):
            lines.append(f"  ... {len(section) - len(shown)} more (--verbose lists all)")
    if diff.annotations:
        lines += ["", f"Annotation-only (non-semantic, compatible): {len(diff.annotations)}"]
        for label, n, ndefs in _annotation_groups(diff.annotations):
            lines.append(f"  {n:>4} x {label} (in {ndefs} def(s))")
        if verbose:
            lines += [f"       {c.subject}: {c.detail}" for c in diff.annotations]
        else:
            lines.append("  (--verbose lists every one)")
    if sem:
        lines += ["", f"Roster impact: {len(impact.requirement_ids)} requirement(s) concern these changes"]
        rows = [ci for ci in (by_change.get(id(c)) for c in sem) if ci and (ci.requirements or ci.carriers)]
        shown_rows = rows if verbose else rows[:_SECTION_LIMIT]
        for ci in shown_rows:
            ids = sorted(ci.requirements)
            carried = f"carried by: {', '.join(ci.carriers)}" if ci.carriers else ""
            if not ids:
                lines.append(f"  {_where(ci.change)} -> no requirement" + (f"; {carried}" if carried else ""))
                continue
            cut = ids if verbose else ids[:_REQ_LIMIT]
            text = ", ".join(f"{rid} ({'+'.join(ci.requirements[rid])})" for rid in cut)
            more = f", +{len(ids) - len(cut)} more" if len(cut) < len(ids) else ""
            lines.append(f"  {_where(ci.change)} -> {text}{more}")
            if carried:
                lines.append(f"      {carried}")
        if len(shown_rows) < len(rows):
            lines.append(f"  ... {len(rows) - len(shown_rows)} more (--verbose lists all)")
        if impact.gates_source is None:
            lines.append("  (no capability gating manifest: gates not consulted)")
    for note in (*diff.notes, *impact.notes):
        lines.append(f"  note: {note}")
    lines += ["", (f"Derived claims: {impact.claims_checked} claims of {impact.requirements_checked} "
                   "derived requirements re-checked against NEW")]
    if impact.broken_claims:
        lines.append(f"  {len(impact.broken_claims)} no longer hold:")
        lines += [f"  {b.requirement}: {b.problem}" for b in impact.broken_claims]
    else:
        lines.append("  all hold")
    return "\n".join(lines)


def to_json(diff: SchemaDiff, impact: Impact, release: ReleaseView | None = None,
            status: int | None = None) -> dict[str, Any]:
    """The full report; ``exit_code`` is the process's (``status``, under --fail-on), the
    verdict's own code is ``verdict_code``."""
    by_change = {id(ci.change): ci for ci in impact.changes}
    todo = advice_for(diff, impact)
    return {
        "old": {"schema": diff.old.label, "meta": diff.old.meta_label,
                "meta_beside_schema": diff.old.meta_is_own, "sha256": diff.old.sha256},
        "new": {"schema": diff.new.label, "meta": diff.new.meta_label,
                "meta_beside_schema": diff.new.meta_is_own, "sha256": diff.new.sha256},
        "verdict": verdict(diff),
        "exit_code": exit_code(diff) if status is None else status,
        "verdict_code": exit_code(diff),
        "summary": {
            "semantic": len(diff.semantic),
            "annotation_only": len(diff.annotations),
            "breaking_for_client": sum(c.client == "breaking" for c in diff.semantic),
            "breaking_for_agent": sum(c.agent == "breaking" for c in diff.semantic),
            "unproven": sum(c.unproven for c in diff.semantic),
        },
        "release": release.to_json() if release is not None else None,
        "changes": [
            {**c.to_json(), "do": todo[id(c)],
             "impact": by_change[id(c)].to_json() if id(c) in by_change else None}
            for c in diff.semantic
        ],
        "annotations": [c.to_json() for c in diff.annotations],
        "roster": {
            "requirements": impact.requirement_ids,
            "claims_checked": impact.claims_checked,
            "derived_requirements_checked": impact.requirements_checked,
            "broken_claims": [b.to_json() for b in impact.broken_claims],
            "gates": impact.gates_source,
            "notes": [*diff.notes, *impact.notes],
        },
    }
