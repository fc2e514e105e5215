"""The ``acpgen diff`` and ``acpgen bump`` commands (registered through cli.EXTRA_COMMANDS)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from acpgen.cli.common import emit_json, handle_errors, open_project, project_options
from acpgen.errors import AcpgenError
from acpgen.evolve.bump import BumpPlan, analyse, apply_bump, pinned_meta, plan_bump
from acpgen.evolve.compat import RULES, explain
from acpgen.evolve.diff import SchemaSide, build_side, load_side
from acpgen.evolve.report import exit_code, render_text, to_json
from acpgen.load.project import Project

_EXIT_HELP = (
    "Exit codes: 0 no change at all; 1 only compatible changes (annotation-only changes "
    "count as compatible changes); 3 at least one change breaks a client or an agent "
    "generated from OLD (each with a witness: a JSON value jsonschema confirms); 4 no proven "
    "break but a change acpgen cannot decide (unproven); 2 bad input (nothing written)."
)


@click.command("diff", help=(
    "Compare two schemas: OLD and NEW are schema files (with their meta.json beside them: "
    "meta.unstable.json for schema.unstable.json; else the pinned meta), inputs directories "
    "(schema/v1/schema.json + meta.json) or the names of surfaces the project pins (v1, "
    "v1-unstable, v2, v2-unstable: `acpgen diff v1 v2` shows the migration). Reports added, "
    "removed and changed defs, members, methods and capabilities, classified compatible or "
    "breaking for a client and for an agent generated from OLD, their roster impact, and the "
    "derived claims that no longer hold against NEW.\n\n" + _EXIT_HELP
))
@click.argument("old", required=False)
@click.argument("new", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the full report as JSON (for CI).")
@click.option("--verbose", "-v", is_flag=True, help="List every change, not counts and the first 20.")
@click.option("--explain", "explain_kind", metavar="KIND",
              help="Print the policy for one change kind (e.g. DEFAULT_CHANGED, or 'all'), and exit.")
@project_options
@handle_errors
def diff_command(old: str | None, new: str | None, as_json: bool, verbose: bool,
                 explain_kind: str | None, project_dir: Path | None, inputs: str | None) -> None:
    if explain_kind is not None:
        click.echo(_explain(explain_kind))
        return
    if old is None or new is None:
        raise click.UsageError("OLD and NEW are required (or --explain KIND)")
    project = open_project(project_dir, inputs, builtin=True)
    meta = pinned_meta(project)
    old_side = _side(project, old, meta)
    result, impact = analyse(project, old_side, _side(project, new, meta, trusted=old_side))
    if as_json:
        emit_json(to_json(result, impact))
    else:
        click.echo(render_text(result, impact, verbose))
    sys.exit(exit_code(result))


def _side(project: Project, arg: str, meta: tuple[str, bytes] | None,
          trusted: SchemaSide | None = None) -> SchemaSide:
    """OLD or NEW: a schema file or inputs directory, or the name of a surface the project
    pins (``v1``, ``v1-unstable``, ``v2``, ...: its pinned schema and method table) when no
    file of that name exists."""
    spec = next((s for s in project.lock.surface_table if s.name == arg), None)
    if spec is None or Path(arg).exists():
        return load_side(arg, meta, trusted=trusted)
    schema, table = project.lock.files[spec.schema_file], project.lock.files[spec.meta_file]
    directory = project.inputs.directory
    return build_side(schema.path, directory / schema.path, project.inputs.data[spec.schema_file],
                      table.path, project.inputs.data[spec.meta_file], trusted)


def _explain(kind: str) -> str:
    if kind.lower() == "all":
        return "\n\n".join(filter(None, (explain(k) for k in RULES)))
    text = explain(kind)
    if text is None:
        raise AcpgenError("--explain", f"unknown change kind {kind!r}; one of: {', '.join(RULES)}")
    return text


@click.command("bump", help=(
    "Move the project to a new schema: show the diff against the pinned schema, update "
    "schema/acp.lock and regenerate, all or nothing. NEW files must be inside the inputs "
    "directory (the lock records paths relative to it; inputs are never copied). The roster "
    "header pins the schema hash: give --roster with a roster for NEW, or "
    "--accept-roster-mismatch to keep the pinned one (recorded in the lock, warned by verify). "
    "With --dry-run nothing is written.\n\n" + _EXIT_HELP + " The exit code is that of the "
    "diff; the bump is applied whatever it is (unless --dry-run)."
))
@click.option("--schema", "schema", required=True, metavar="FILE", help="The new schema.json.")
@click.option("--meta", "meta", metavar="FILE", help="The new meta.json (default: beside the schema, else keep).")
@click.option("--roster", "roster", metavar="FILE", help="A roster whose header pins the new schema.")
@click.option("--accept-roster-mismatch", is_flag=True,
              help="Keep the pinned roster although it pins another schema.")
@click.option("--dry-run", is_flag=True, help="Validate and report; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (for CI).")
@click.option("--verbose", "-v", is_flag=True, help="List every change and every generated file.")
@project_options
@handle_errors
def bump_command(schema: str, meta: str | None, roster: str | None, accept_roster_mismatch: bool,
                 dry_run: bool, as_json: bool, verbose: bool,
                 project_dir: Path | None, inputs: str | None) -> None:
    project = open_project(project_dir, inputs)
    try:
        plan = plan_bump(project, schema, meta, roster, accept_roster_mismatch)
        if not dry_run:
            apply_bump(plan)
    except OSError as exc:  # whatever the file system says, one line and exit 2
        raise AcpgenError(str(exc.filename or schema), f"file-system error: {exc.strerror or exc}") from None
    out_dir = plan.project.lock.out.rstrip("/")
    if as_json:
        data = to_json(plan.diff, plan.impact)
        data["bump"] = {
            "dry_run": dry_run,
            "applied": not dry_run and not plan.no_op,
            "lock": list(plan.lock_changes),
            "roster_note": plan.roster_note,
            "generated": {"dir": out_dir, "added": list(plan.tree.added),
                          "removed": list(plan.tree.removed), "changed": list(plan.tree.changed)},
        }
        emit_json(data)
    else:
        click.echo(render_text(plan.diff, plan.impact, verbose))
        click.echo("")
        click.echo(_bump_text(plan, dry_run, out_dir, verbose))
    sys.exit(exit_code(plan.diff))


def _bump_text(plan: object, dry_run: bool, out_dir: str, verbose: bool) -> str:
    assert isinstance(plan, BumpPlan)
    lines = ["Lock (schema/acp.lock):"]
    lines += [f"  {c}" for c in plan.lock_changes] or ["  unchanged"]
    if plan.roster_note:
        lines.append(f"  note: {plan.roster_note}")
    t = plan.tree
    lines.append(f"Generated ({out_dir}/): {len(t.changed)} changed, {len(t.added)} added, "
                 f"{len(t.removed)} removed")
    limit = None if verbose else 20
    for mark, paths in (("M", t.changed), ("A", t.added), ("D", t.removed)):
        for rel in paths[:limit]:
            lines.append(f"  {mark} {out_dir}/{rel}")
        if limit is not None and len(paths) > limit:
            lines.append(f"  {mark} ... {len(paths) - limit} more (--verbose lists all)")
    if dry_run:
        lines.append("dry run: nothing written")
    elif plan.no_op:
        lines.append("already up to date: nothing written")
    else:
        lines.append("bump applied: lock updated and output regenerated")
    return "\n".join(lines)
