"""The ``acpgen diff`` and ``acpgen bump`` commands (registered through cli.EXTRA_COMMANDS)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from acpgen.cli.common import emit_json, handle_errors, open_project, project_options
from acpgen.errors import AcpgenError
from acpgen.evolve.advice import kind_of
from acpgen.evolve.bump import BumpPlan, analyse, apply_bump, pinned_meta, plan_bump
from acpgen.evolve.changelog import SdkRelease, with_sdk_release
from acpgen.evolve.compat import RULES, explain
from acpgen.evolve.diff import SchemaDiff, SchemaSide, build_side, load_side
from acpgen.evolve.impact import Impact
from acpgen.evolve.migration import migration as migration_of
from acpgen.evolve.migration import render_migration
from acpgen.evolve.release import ReleaseView, release_view
from acpgen.evolve.report import FAIL_ON, exit_status, render_text, to_json
from acpgen.evolve.report_ci import render_github, render_markdown
from acpgen.load.project import Project

_EXIT_HELP = (
    "Exit codes: 0 no change at all (or nothing --fail-on fails on); 1 only compatible "
    "changes (annotation-only changes count as compatible changes); 3 at least one change "
    "breaks a client or an agent generated from OLD (each with a witness: a JSON value "
    "jsonschema confirms); 4 no proven break but a change acpgen cannot decide (unproven); "
    "2 bad input (nothing written). --fail-on breaking keeps only 3 and 4; --fail-on never "
    "(or --exit-zero) exits 0 whatever the verdict; breaking changes of an unstable surface "
    "count as compatible unless --fail-on-unstable."
)
FORMATS = ("text", "json", "github", "markdown")


def _report_options(fail_on_default: str):  # type: ignore[no-untyped-def]
    """The output and exit options diff and bump share."""
    def wrap(f):  # type: ignore[no-untyped-def]
        for option in reversed((
            click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                         help="text (default), json (the full report), github (workflow "
                              "annotations at each change's line) or markdown (a PR comment)."),
            click.option("--json", "as_json", is_flag=True, help="Same as --format json."),
            click.option("--fail-on", type=click.Choice(FAIL_ON), default=fail_on_default,
                         show_default=True, help="Which verdicts exit non-zero."),
            click.option("--exit-zero", is_flag=True,
                         help="Exit 0 whatever the verdict (--fail-on never); bad input is still 2."),
            click.option("--fail-on-unstable", is_flag=True,
                         help="Let breaking changes of an unstable surface fail too."),
        )):
            f = option(f)
        return f
    return wrap


def _emit(diff: SchemaDiff, impact: Impact, release: ReleaseView, fmt: str, verbose: bool,
          status: int, extra: dict[str, object] | None = None, tail: str = "") -> None:
    if fmt == "json":
        data = to_json(diff, impact, release, status)
        if extra:
            data.update(extra)
        emit_json(data)
    elif fmt == "github":
        click.echo(render_github(diff, impact, release))
    elif fmt == "markdown":
        click.echo(render_markdown(diff, impact, release) + (f"\n\n```text\n{tail}\n```" if tail else ""))
    else:
        click.echo(render_text(diff, impact, verbose, release) + (f"\n\n{tail}" if tail else ""))


def _lock_tag(project: Project, arg: str) -> str | None:
    """The release tag the lock records for a surface name or the project's inputs directory."""
    spec = project.lock.surface(arg)
    if spec is not None and not Path(arg).exists():
        key = spec.schema_file
    elif Path(arg).is_dir() and Path(arg).resolve() == project.inputs.directory.resolve():
        key = project.primary.spec.schema_file
    else:
        return None
    return project.lock.files[key].upstream.get("tag")


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
@_report_options("compatible")
@click.option("--verbose", "-v", is_flag=True, help="List every change, not counts and the first 20.")
@click.option("--explain", "explain_kind", metavar="KIND",
              help="Print the policy for one change kind (DEFAULT_CHANGED, 'default changed', "
                   "or 'all'), and exit.")
@click.option("--old-version", metavar="VERSION", help="OLD's release version or tag (v0.6.1).")
@click.option("--new-version", metavar="VERSION", help="NEW's release version or tag.")
@click.option("--migration", is_flag=True,
              help="Instead of the report: per handler of OLD's Agent and Client interfaces, "
                   "what its author changes for NEW, each step naming the changes it comes "
                   "from (text, or --format json). `acpgen diff v1 v2 --migration`.")
@project_options
@handle_errors
def diff_command(old: str | None, new: str | None, fmt: str | None, as_json: bool, fail_on: str,
                 exit_zero: bool, fail_on_unstable: bool, verbose: bool, explain_kind: str | None,
                 old_version: str | None, new_version: str | None, migration: bool,
                 project_dir: Path | None, inputs: str | None) -> None:
    if explain_kind is not None:
        click.echo(_explain(explain_kind))
        return
    if old is None or new is None:
        raise click.UsageError("OLD and NEW are required (or --explain KIND)")
    project = open_project(project_dir, inputs, builtin=True)
    meta = pinned_meta(project)
    old_side = _side(project, old, meta)
    result, impact = analyse(project, old_side, _side(project, new, meta, trusted=old_side))
    versions = [(v, option) if v else (_lock_tag(project, a), "lock tag")
                for v, a, option in ((old_version, old, "--old-version"),
                                     (new_version, new, "--new-version"))]
    release = release_view(result, versions[0][0], versions[1][0], versions[0][1], versions[1][1],
                           fail_on_unstable)
    status = exit_status(result, "never" if exit_zero else fail_on, release)
    if migration:
        _emit_migration(result, impact, "json" if as_json else fmt or "text")
    else:
        _emit(result, impact, release, "json" if as_json else fmt or "text", verbose, status)
    sys.exit(status)


def _emit_migration(diff: SchemaDiff, impact: Impact, fmt: str) -> None:
    steps = migration_of(diff, impact)
    if fmt == "json":
        emit_json({"old": diff.old.label, "new": diff.new.label, **steps.to_json()})
    elif fmt == "text":
        click.echo(render_migration(diff, steps))
    else:
        raise click.UsageError(f"--migration prints text or json, not {fmt}")


def _side(project: Project, arg: str, meta: tuple[str, bytes] | None,
          trusted: SchemaSide | None = None) -> SchemaSide:
    """OLD or NEW: a schema file or inputs directory, or the name of a surface the project
    pins (``v1``, ``v1-unstable``, ``v2``, ...: its pinned schema and method table) when no
    file of that name exists."""
    spec = project.lock.surface(arg)
    if spec is None or Path(arg).exists():
        return load_side(arg, meta, trusted=trusted)
    schema, table = project.lock.files[spec.schema_file], project.lock.files[spec.meta_file]
    directory = project.inputs.directory
    return build_side(schema.path, directory / schema.path, project.inputs.data[spec.schema_file],
                      table.path, project.inputs.data[spec.meta_file], trusted)


def _explain(kind: str) -> str:
    if kind.lower() == "all":
        return "\n\n".join(filter(None, (explain(k) for k in RULES)))
    found = kind_of(kind)
    text = explain(found) if found else None
    if text is None:
        raise AcpgenError("--explain", f"unknown change kind {kind!r}; one of: {', '.join(RULES)}")
    return text


@click.command("bump", help=(
    "Move the project to a new schema: show the diff against the pinned schema, update "
    "schema/acp.lock and regenerate, all or nothing. NEW files must be inside the inputs "
    "directory (the lock records paths relative to it). The roster "
    "header pins the schema hash: give --roster with a roster for NEW, or "
    "--accept-roster-mismatch to keep the pinned one (recorded in the lock, warned by verify). "
    "The new files take the pinned names (the replaced ones are gone); PROVENANCE.md and the "
    "lock's upstream coordinates describe the new bytes (--upstream-commit/--upstream-tag, else "
    "unknown). In a project whose pyproject.toml has [tool.acpgen] bump-sdk-version = true (a "
    "skeleton), the SDK's version is raised by the release the change needs and CHANGELOG.md "
    "gets an entry. With --dry-run nothing is written.\n\n" + _EXIT_HELP + " bump defaults to "
    "--fail-on never: 0 once applied; the bump is applied whatever the verdict (unless --dry-run)."
))
@click.option("--schema", "schema", required=True, metavar="FILE", help="The new schema.json.")
@click.option("--meta", "meta", metavar="FILE", help="The new meta.json (default: beside the schema, else keep).")
@click.option("--roster", "roster", metavar="FILE", help="A roster whose header pins the new schema.")
@click.option("--accept-roster-mismatch", is_flag=True,
              help="Keep the pinned roster although it pins another schema.")
@click.option("--upstream-commit", metavar="SHA", help="The upstream commit of the new bytes (recorded in the lock).")
@click.option("--upstream-tag", metavar="TAG", help="The upstream release tag of the new bytes (schema-v1.25.0).")
@click.option("--dry-run", is_flag=True, help="Validate and report; write nothing.")
@_report_options("never")
@click.option("--verbose", "-v", is_flag=True, help="List every change and every generated file.")
@project_options
@handle_errors
def bump_command(schema: str, meta: str | None, roster: str | None, accept_roster_mismatch: bool,
                 upstream_commit: str | None, upstream_tag: str | None, dry_run: bool,
                 fmt: str | None, as_json: bool, fail_on: str, exit_zero: bool,
                 fail_on_unstable: bool, verbose: bool,
                 project_dir: Path | None, inputs: str | None) -> None:
    project = open_project(project_dir, inputs)
    given = {k: v for k, v in (("commit", upstream_commit), ("tag", upstream_tag)) if v}
    for key, value in given.items():
        if not value.strip() or any(ord(ch) < 32 for ch in value):
            raise AcpgenError(f"--upstream-{key}", f"{value!r} is empty or has a control character")
    try:
        plan = plan_bump(project, schema, meta, roster, accept_roster_mismatch, given or None)
        old_tag = project.lock.files["schema"].upstream.get("tag")
        release = release_view(plan.diff, old_tag, upstream_tag, "lock tag", "--upstream-tag",
                               fail_on_unstable)
        plan, sdk = with_sdk_release(plan, release)
        if not dry_run:
            apply_bump(plan)
    except OSError as exc:  # whatever the file system says, one line and exit 2
        raise AcpgenError(str(exc.filename or schema), f"file-system error: {exc.strerror or exc}") from None
    out_dir = plan.project.lock.out.rstrip("/")
    extra: dict[str, object] = {"bump": {
        "dry_run": dry_run,
        "applied": not dry_run and not plan.no_op,
        "lock": list(plan.lock_changes),
        "moved": [[str(a), str(b)] for a, b in plan.moves],
        "rewritten": sorted(str(p) for p in plan.texts),
        "notes": list(plan.notes),
        "sdk_version": ({"old": str(sdk.old), "new": str(sdk.new), "bump": sdk.bump}
                        if sdk is not None else None),
        "roster_note": plan.roster_note,
        "generated": {"dir": out_dir, "added": list(plan.tree.added),
                      "removed": list(plan.tree.removed), "changed": list(plan.tree.changed)},
    }}
    tail = _bump_text(plan, sdk, dry_run, out_dir, verbose)
    status = exit_status(plan.diff, "never" if exit_zero else fail_on, release)
    _emit(plan.diff, plan.impact, release, "json" if as_json else fmt or "text", verbose,
          status, extra, "" if fmt == "github" else tail)
    sys.exit(status)


def _bump_text(plan: BumpPlan, sdk: SdkRelease | None, dry_run: bool, out_dir: str,
               verbose: bool) -> str:
    root = plan.project.root
    lines = ["Lock (schema/acp.lock):"]
    lines += [f"  {c}" for c in plan.lock_changes] or ["  unchanged"]
    if plan.roster_note:
        lines.append(f"  note: {plan.roster_note}")
    for source, dest in plan.moves:
        lines.append(f"  moved {_rel(source, root)} -> {_rel(dest, root)} (replacing the pinned file)")
    for path in plan.texts:
        lines.append(f"  rewritten {_rel(path, root)}")
    lines += [f"  note: {n}" for n in plan.notes]
    if sdk is not None:
        lines.append(f"SDK version: {sdk.old} -> {sdk.new} ({sdk.bump})" if sdk.bump != "none"
                     else f"SDK version: {sdk.old} (no release needed)")
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


def _rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
