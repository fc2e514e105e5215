"""A schema diff for CI: GitHub workflow annotations and a Markdown pull-request comment.

``--format github`` prints one workflow command per semantic change, at the line of its JSON
pointer in the schema file the change is in (NEW for an addition, OLD otherwise):
``::error`` for a break, ``::warning`` for an unproven change, ``::notice`` for a compatible
one, then the verdict. Every string from the schemas (def names, members, values) is escaped
as GitHub's workflow-command syntax wants (``%``, CR, LF; and ``:`` and ``,`` in properties),
so a name cannot end the command early or start another.

``--format markdown`` is a comment to paste or post: the verdict, the release it needs, and a
table of the changes (kind, where, client, agent, what to do), every cell escaped so a name
cannot close the table, open HTML or a link.
"""

from __future__ import annotations

import os
from pathlib import Path

from acpgen.evolve.changes import Change
from acpgen.evolve.compat import RULES
from acpgen.evolve.diff import SchemaDiff, SchemaSide
from acpgen.evolve.impact import Impact
from acpgen.evolve.locate import line_of, pointer_lines
from acpgen.evolve.release import ReleaseView
from acpgen.evolve.report import advice_for, verdict, where


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _file_of(side: SchemaSide) -> str:
    """The schema file as a path a workflow can annotate (relative to the working directory
    when it is inside it)."""
    path = side.schema_path
    try:
        return os.path.relpath(path) if path.is_absolute() else str(path)
    except ValueError:
        return str(path)


def _lines(side: SchemaSide, cache: dict[str, dict[str, int]]) -> dict[str, int]:
    key = str(side.schema_path)
    if key not in cache:
        try:
            cache[key] = pointer_lines(Path(side.schema_path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            cache[key] = {"": 1}
    return cache[key]


def _side_of(c: Change, diff: SchemaDiff) -> SchemaSide:
    added = c.kind.endswith("_ADDED") or c.old is None and c.new is not None
    return diff.new if added else diff.old


def _level(c: Change) -> str:
    return "error" if c.breaking else "warning" if c.unproven else "notice"


def _who(c: Change) -> str:
    broken = [s for s in ("client", "agent") if getattr(c, s) in ("breaking", "unproven")]
    return ("breaks the " + " and the ".join(broken)) if broken else "compatible"


def render_github(diff: SchemaDiff, impact: Impact, release: ReleaseView | None = None) -> str:
    todo = advice_for(diff, impact)
    cache: dict[str, dict[str, int]] = {}
    out = []
    for c in diff.semantic:
        side = _side_of(c, diff)
        line = line_of(_lines(side, cache), c.pointer)
        title = f"{c.kind} {where(c)}: {_who(c)}"
        message = f"{c.describe()}. {RULES[c.kind].why} Do: {todo[id(c)]}."
        if c.witnesses:
            message += f" Witness: {c.witnesses[0].short()}"
        out.append(f"::{_level(c)} file={_prop(_file_of(side))},line={line},"
                   f"title={_prop(title)}::{_data(message)}")
    summary = f"acpgen diff: {verdict(diff)}, {len(diff.semantic)} semantic change(s)"
    if release is not None:
        summary += f"; {release.direction}; needs a {release.required} release"
        if release.missing:
            summary += f"; MISSING BUMP: {release.missing}"
    out.append(f"::notice title=acpgen diff::{_data(summary)}")
    return "\n".join(out)


def _cell(text: str) -> str:
    """Untrusted text as one Markdown table cell: no pipe, newline, HTML or link syntax."""
    text = " ".join(text.split())
    for ch in "\\`*_[]<>|!#":
        text = text.replace(ch, "\\" + ch)
    return text


def render_markdown(diff: SchemaDiff, impact: Impact, release: ReleaseView | None = None) -> str:
    todo = advice_for(diff, impact)
    sem = diff.semantic
    lines = [f"### acpgen diff: {verdict(diff)}", "",
             (f"{_cell(diff.old.label)} ({diff.old.sha256[:12]}) -> {_cell(diff.new.label)} "
             f"({diff.new.sha256[:12]}): {len(sem)} semantic change(s), "
             f"{sum(c.client == 'breaking' for c in sem)} breaking for a client, "
             f"{sum(c.agent == 'breaking' for c in sem)} for an agent; "
             f"{len(diff.annotations)} annotation-only.")]
    if release is not None:
        lines += ["", (f"**Release:** {release.direction}; the change is {release.level} and needs "
                      f"a **{release.required}** release.")]
        if release.missing:
            lines.append(f"**Missing bump:** {_cell(release.missing)}")
    if sem:
        lines += ["", "| kind | where | client | agent | what to do |", "|---|---|---|---|---|"]
        for c in sem:
            lines.append(f"| `{c.kind}` | {_cell(c.describe())} | {c.client} | {c.agent} | "
                         f"{_cell(todo[id(c)])} |")
    if impact.broken_claims:
        lines += ["", "Derived claims that no longer hold: "
                  + ", ".join(_cell(b.requirement) for b in impact.broken_claims)]
    return "\n".join(lines)
