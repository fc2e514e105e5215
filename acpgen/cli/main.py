"""The ``acpgen`` command line. Each command is thin: it loads the project and calls a stage."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

import acpgen
from acpgen.cli import roster_filter
from acpgen.cli.common import emit_json, handle_errors, open_project, project_options
from acpgen.cli.options import cache_root, run_options
from acpgen.disk_cache import use_cache
from acpgen.errors import EXIT_BAD_INPUT, EXIT_DRIFT, AcpgenError
from acpgen.inputs.lock import find_project_root
from acpgen.inputs.roster import KEYWORDS, KINDS, RESPONSIBILITIES, ROLES
from acpgen.load.capabilities import uncited_gate_warnings
from acpgen.load.project import Project
from acpgen.output.check import check as run_check
from acpgen.output.check import error_json
from acpgen.output.check_report import render_text
from acpgen.output.generate import generate_report, summary


class _Commands(click.Group):
    """The command group; the commands defined in other modules (evolve, skeleton, conformance) are imported
    when they are run or listed, so ``check`` and ``generate`` do not pay for their imports."""

    ELSEWHERE = ("bump", "conformance", "diff", "skeleton")

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.ELSEWHERE})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.ELSEWHERE and cmd_name not in self.commands:
            self.add_command(_command_elsewhere(cmd_name))
        return super().get_command(ctx, cmd_name)

    def main(  # type: ignore[override]  # click's overloads split on standalone_mode
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's usage errors (an unknown option or command, a missing or bad value) as the
        one line every acpgen error is, ``acpgen: error: <where>: <problem>``, exit 2, instead
        of click's three (usage, hint, error)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as exc:
            click.echo(f"acpgen: error: {usage_line(exc)}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except click.ClickException as exc:
            click.echo(f"acpgen: error: {_one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("acpgen: error: aborted", err=True)
            sys.exit(1)
        # Not standalone, click hands back what --help/--version's exit carried (an int).
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # The reader stopped reading (`acpgen roster | head`): what it wanted was delivered,
            # so this is a normal end, exit 0 and nothing said. Output still buffered goes to
            # /dev/null, or flushing it at exit would fail the same way.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(0)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def usage_line(exc: click.UsageError) -> str:
    """``<command>: <click's message>; see '<command path> --help'``: where it went wrong,
    what was wrong, and where the choices are."""
    names: list[str] = []
    ctx = exc.ctx
    while ctx is not None and ctx.parent is not None:  # the root is "acpgen" however it was run
        names.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    where = " ".join(names)
    path = " ".join(["acpgen", *names])
    message = _one_line(exc.format_message()).rstrip(".")
    prefix = f"{where}: " if where else ""
    return f"{prefix}{message}; see '{path} --help'"


def _command_elsewhere(name: str) -> click.Command:
    if name == "conformance":
        from acpgen.cli.conformance import conformance

        return conformance
    if name == "skeleton":
        from acpgen.cli.skeleton import skeleton

        return skeleton
    from acpgen.cli.evolve import bump_command, diff_command

    return bump_command if name == "bump" else diff_command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(acpgen.__version__, prog_name="acpgen")
def main() -> None:
    """Generate typed ACP v1 bindings from pinned, hash-verified inputs.

    Outside any project, verify, roster, inspect, diff, skeleton and conformance use acpgen's built-in
    ACP v1 project (its lock, manifests and pinned inputs); --inputs or $ACPGEN_INPUTS
    point them at other copies of the same bytes.

    \b
    Exit codes:
      0  success (bump: applied, unless --fail-on says otherwise)
      1  check: the generated tree differs; diff: only compatible changes;
         conformance: not conformant at MUST level
      2  bad input or usage (input drift, malformed file, invalid
         schema/capabilities.toml, bad option value; one line, nothing written)
      3  diff: a breaking change (proved by a witness)
      4  diff: no proven break, but a change acpgen cannot decide (unproven);
         conformance: the implementation under test cannot be started
    diff and bump take --fail-on breaking|compatible|never and --exit-zero.
    A closed standard output (`acpgen roster | head`) ends a command quietly with 0.
    """
    # Where this machine keeps acpgen's memos is read from the environment here, at the edge,
    # once for every command (acpgen.cli.options.cache_root).
    use_cache(cache_root())


@main.command()
@project_options
@handle_errors
def verify(project_dir: Path | None, inputs: str | None) -> None:
    """Check every pinned input's size and SHA-256, and that the inputs are consistent."""
    project = open_project(project_dir, inputs, builtin=True, metaschema=True)
    for warning in _verify_warnings(project):
        click.echo(f"acpgen: warning: {warning}", err=True)
    click.echo(
        f"ok: {len(project.lock.files)} inputs match schema/acp.lock "
        f"({len(project.ir.defs)} defs, {len(project.ir.methods)} methods, "
        f"{len(project.roster.requirements)} requirements, roster {project.roster.revision})"
    )
    for surface in project.others:  # the other surfaces the lock lists, each parsed and checked
        gates = surface.spec.capabilities if surface.capabilities is not None else "no gating manifest"
        click.echo(f"ok: surface {surface.name} ({surface.package}): {len(surface.ir.defs)} defs, "
                   f"{len(surface.ir.methods)} methods, {gates}")


def _verify_warnings(project: Project) -> list[str]:
    """Checks that warn but do not fail `verify`."""
    from acpgen.evolve.bump import roster_pin_warnings

    return uncited_gate_warnings(project.roster, project.capabilities) + roster_pin_warnings(project)


@main.command()
@click.option("--update", is_flag=True, help="Rewrite the lock from the current input bytes.")
@click.option("--upstream", "upstream", multiple=True, metavar="ENTRY:KEY=VALUE",
              help="With --update: the upstream coordinates of new bytes, KEY commit (or unknown), tag or "
              "source, e.g. schema-v1-unstable:commit=SHA (repeatable; a commit given without a tag or "
              "source drops the old ones).")
@project_options
@handle_errors
def lock(update: bool, upstream: tuple[str, ...], project_dir: Path | None, inputs: str | None) -> None:
    """Show the lock (after verifying the inputs against it), or (with --update) accept the
    current input bytes."""
    from acpgen.load.lock_update import parse_upstream, show_lock, update_lock

    root = project_dir.resolve() if project_dir else find_project_root(Path.cwd())
    if upstream and not update:
        raise AcpgenError("--upstream", "only with --update")
    if update:
        click.echo(update_lock(root, run_options(project_dir, inputs).inputs, parse_upstream(upstream)))
        return
    open_project(root, inputs)  # drifted inputs: the drift, exit 2 (only --update accepts them)
    click.echo(show_lock(root))


@main.command()
@click.argument("ids", nargs=-1, metavar="[ID...]")
@click.option("--keyword", multiple=True, metavar="K", help="MUST, MUST NOT, SHOULD, SHOULD NOT or MAY (any case; repeatable).")
@click.option("--role", multiple=True, metavar="R", help="agent, client or both (any case; repeatable).")
@click.option("--responsibility", multiple=True, metavar="R", help="sdk, shared or application (any case; repeatable).")
@click.option("--kind", multiple=True, metavar="K", help="imported, derived, incorporated or prose-imported (any case; repeatable).")
@click.option("--section", multiple=True, metavar="S", help="The ID's third segment, e.g. SETUP (any case; repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the selected requirements as JSON.")
@project_options
@handle_errors
def roster(
    ids: tuple[str, ...],
    keyword: tuple[str, ...],
    role: tuple[str, ...],
    responsibility: tuple[str, ...],
    kind: tuple[str, ...],
    section: tuple[str, ...],
    as_json: bool,
    project_dir: Path | None,
    inputs: str | None,
) -> None:
    """List roster requirements, optionally filtered (unknown filter values are refused).

    With IDs (with or without the ACP-V1- prefix, any case) print those requirements' text;
    an unknown ID is refused (exit 2)."""
    # The fixed vocabularies are checked before loading anything; sections come from the roster.
    filters = {
        "keyword": roster_filter.choose("--keyword", keyword, KEYWORDS),
        "role": roster_filter.choose("--role", role, ROLES),
        "responsibility": roster_filter.choose("--responsibility", responsibility, RESPONSIBILITIES),
        "kind": roster_filter.choose("--kind", kind, KINDS),
    }
    project = open_project(project_dir, inputs, builtin=True)
    sections = tuple(dict.fromkeys(r.section for r in project.roster.requirements))
    filters["section"] = roster_filter.choose("--section", section, sections)
    selected = [
        r
        for r in project.roster.requirements
        if all(not allowed or getattr(r, field) in allowed for field, allowed in filters.items())
    ]
    if ids:
        wanted = roster_filter.requirements_by_id(ids, project.roster.requirements)
        selected = [r for r in wanted if r in selected]
    if ids and not as_json:
        for r in selected:
            click.echo(roster_filter.wording(r))
        return
    if as_json:
        emit_json([r.to_json() for r in selected])
        return
    for r in selected:
        click.echo(f"{r.number:>3}  {r.id:<55} {r.keyword:<10} {r.role:<6} {r.responsibility:<11} {r.kind}")
    click.echo(f"{len(selected)} of {len(project.roster.requirements)} requirements", err=True)


@main.command()
@click.argument("name", required=False, metavar="[NAME]")
@click.option("--methods", is_flag=True, help="The method table (one method per line).")
@click.option("--capabilities", is_flag=True,
              help="The capability tree (one dotted path and its kind per line, e.g. clientCapabilities.fs.readTextFile).")
@click.option("--gates", is_flag=True, help="The capability gates of the surface's gating manifest (schema/capabilities.toml for v1).")
@click.option("--surface", metavar="SURFACE", help="The protocol surface to show: v1 (default), v1-unstable, v2, v2-unstable (docs/surfaces.md).")
@click.option("--full", is_flag=True, help="Show every description whole (the text view summarises each to about a line).")
@click.option("--json", "as_json", is_flag=True, help="Print the same selection as JSON (objects, every field).")
@project_options
@handle_errors
def inspect(
    name: str | None,
    methods: bool,
    capabilities: bool,
    gates: bool,
    surface: str | None,
    full: bool,
    as_json: bool,
    project_dir: Path | None,
    inputs: str | None,
) -> None:
    """Show the IR of one surface: what NAME names (a $def such as ToolCall, a Python class
    such as ContentBlockText, a method such as session/prompt or session_prompt; any case),
    the methods, the capability tree or the gates."""
    from acpgen.cli import inspect_view

    if sum([bool(name), methods, capabilities, gates]) != 1:
        raise AcpgenError("acpgen inspect", "give exactly one of NAME, --methods, --capabilities, --gates")
    project = open_project(project_dir, inputs, builtin=True)
    scope = inspect_view.choose_scope(project, surface)
    if methods:
        data: Any = [{**m.to_json(), "py_name": m.py_name} for m in scope.ir.methods]
        text = inspect_view.methods_text(data)
    elif capabilities:
        data = [c.to_json() for c in scope.ir.capabilities]
        text = inspect_view.capabilities_text(data)
    elif gates:
        data = inspect_view.gates(scope)
        text = inspect_view.gates_text(data, scope.manifest_where)
    else:
        others = [s for s in inspect_view.scopes(project).values() if s.name != scope.name]
        data = inspect_view.lookup(scope, others, name or "")
        text = inspect_view.definition_text(data, full)
    if as_json:
        emit_json(data)
    else:
        click.echo(text)


_PROFILE_HELP = ("An output profile: python-sdk writes the modules that replace the official Python "
                 "SDK's generated acp/schema.py and acp/meta.py (docs/python-sdk-drop-in.md); needs --out.")


def _profile_out(profile: str | None, out: str | None) -> None:
    if profile is not None and out is None:
        raise AcpgenError("--profile", "needs --out DIR (a profile's tree is not the lock's output)")


@main.command()
@click.option("--out", metavar="DIR", help="Output directory (default: `out` in schema/acp.lock).")
@click.option("--package", metavar="NAME", help="Package name (default: `package` in schema/acp.lock).")
@click.option("--profile", metavar="NAME", help=_PROFILE_HELP)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
@project_options
@handle_errors
def generate(
    out: str | None, package: str | None, profile: str | None, quiet: bool, project_dir: Path | None,
    inputs: str | None,
) -> None:
    """Generate the bindings, atomically replacing the output directory."""
    _profile_out(profile, out)
    project = open_project(project_dir, inputs)
    files, result = generate_report(project, out, package, profile=profile)
    if not quiet:
        click.echo(summary(files, result, out or project.lock.out))


@main.command()
@click.option("--out", metavar="DIR", help="Output directory (default: `out` in schema/acp.lock).")
@click.option("--package", metavar="NAME", help="Package name (default: `package` in schema/acp.lock).")
@click.option("--profile", metavar="NAME", help=_PROFILE_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@project_options
@handle_errors
def check(
    out: str | None, package: str | None, profile: str | None, as_json: bool, project_dir: Path | None,
    inputs: str | None,
) -> None:
    """Prove the committed output is exactly what the pinned inputs produce (exit 1 if not)."""
    try:
        _profile_out(profile, out)
        project = open_project(project_dir, inputs)
        report = run_check(project, out, package, profile=profile)
    except AcpgenError as exc:
        if as_json:  # machines get a report for input drift and bad input too (exit 2)
            emit_json(error_json(exc))
        raise
    if as_json:
        emit_json(report.to_json())
    else:
        click.echo(render_text(report), err=not report.clean)
    if not report.clean:
        sys.exit(EXIT_DRIFT)
