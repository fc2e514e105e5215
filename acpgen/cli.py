"""The ``acpgen`` command line. Each command is thin: it loads the project and calls a stage."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

import acpgen
from acpgen.errors import EXIT_DRIFT, AcpgenError, InputDriftError
from acpgen.lock import find_project_root
from acpgen.project import Project, load_project

F = TypeVar("F", bound=Callable[..., Any])


def _fail(exc: AcpgenError) -> None:
    if isinstance(exc, InputDriftError):
        for line in exc.lines:
            click.echo(f"acpgen: error: input drift: {line}", err=True)
        click.echo("acpgen: the inputs differ from schema/acp.lock; accept new bytes only "
                   "with `acpgen lock --update`", err=True)
    else:
        click.echo(f"acpgen: error: {exc}", err=True)
    sys.exit(exc.exit_code)


def handle_errors(func: F) -> F:
    """Turn :class:`AcpgenError` into one line on stderr and its exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except AcpgenError as exc:
            _fail(exc)

    return wrapper  # type: ignore[return-value]


def project_options(func: F) -> F:
    func = click.option(
        "--inputs",
        "inputs",
        metavar="DIR",
        help="Inputs directory (default: $ACPGEN_INPUTS, else `inputs` in schema/acp.lock).",
    )(func)
    func = click.option(
        "--project",
        "project_dir",
        metavar="DIR",
        type=click.Path(file_okay=False, path_type=Path),
        help="Project root (the directory with schema/acp.lock; default: search upwards from .).",
    )(func)
    return func


def open_project(project_dir: Path | None, inputs: str | None) -> Project:
    root = project_dir.resolve() if project_dir else find_project_root(Path.cwd())
    return load_project(root, inputs)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(acpgen.__version__, prog_name="acpgen")
def main() -> None:
    """Generate typed ACP v1 bindings from pinned, hash-verified inputs.

    Exit codes: 0 success; 1 drift (check) or compatible changes (diff/bump);
    2 bad input (wrong hash, malformed file, invalid manifest); 3 breaking changes (diff/bump).
    """


@main.command()
@project_options
@handle_errors
def verify(project_dir: Path | None, inputs: str | None) -> None:
    """Check every pinned input's size and SHA-256, and that the inputs are consistent."""
    project = open_project(project_dir, inputs)
    for warning in _verify_warnings(project):
        click.echo(f"acpgen: warning: {warning}", err=True)
    click.echo(
        f"ok: {len(project.lock.files)} inputs match schema/acp.lock "
        f"({len(project.ir.defs)} defs, {len(project.ir.methods)} methods, "
        f"{len(project.roster.requirements)} requirements, roster {project.roster.revision})"
    )


def _verify_warnings(project: Project) -> list[str]:
    hooks: list[Callable[[Project], list[str]]] = []
    for name in VERIFY_WARNING_HOOKS:
        module, _, attr = name.partition(":")
        hooks.append(getattr(__import__(module, fromlist=[attr]), attr))
    return [w for hook in hooks for w in hook(project)]


# Extra checks that warn but do not fail `verify` ("module:function", each -> list[str]).
VERIFY_WARNING_HOOKS: list[str] = [
    "acpgen.gates:uncited_gate_warnings",
    "acpgen.bump:roster_pin_warnings",
]


@main.command()
@click.option("--update", is_flag=True, help="Rewrite the lock from the current input bytes.")
@project_options
@handle_errors
def lock(update: bool, project_dir: Path | None, inputs: str | None) -> None:
    """Show the lock, or (with --update) accept the current input bytes."""
    from acpgen.lock_update import show_lock, update_lock

    root = project_dir.resolve() if project_dir else find_project_root(Path.cwd())
    click.echo(update_lock(root, inputs) if update else show_lock(root))


@main.command()
@click.option("--keyword", multiple=True, help="MUST, MUST NOT, SHOULD, SHOULD NOT or MAY.")
@click.option("--role", multiple=True, help="agent, client or both.")
@click.option("--responsibility", multiple=True, help="sdk, shared or application.")
@click.option("--kind", multiple=True, help="imported, derived, incorporated or prose-imported.")
@click.option("--section", multiple=True, help="The ID's third segment, e.g. SETUP.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array.")
@project_options
@handle_errors
def roster(
    keyword: tuple[str, ...],
    role: tuple[str, ...],
    responsibility: tuple[str, ...],
    kind: tuple[str, ...],
    section: tuple[str, ...],
    as_json: bool,
    project_dir: Path | None,
    inputs: str | None,
) -> None:
    """List roster requirements, optionally filtered."""
    project = open_project(project_dir, inputs)
    filters = {
        "keyword": {k.upper() for k in keyword},
        "role": set(role),
        "responsibility": set(responsibility),
        "kind": set(kind),
        "section": {s.upper() for s in section},
    }
    selected = [
        r
        for r in project.roster.requirements
        if all(not allowed or getattr(r, field) in allowed for field, allowed in filters.items())
    ]
    if as_json:
        emit_json([r.to_json() for r in selected])
        return
    for r in selected:
        click.echo(f"{r.number:>3}  {r.id:<55} {r.keyword:<10} {r.role:<6} {r.responsibility:<11} {r.kind}")
    click.echo(f"{len(selected)} of {len(project.roster.requirements)} requirements", err=True)


@main.command()
@click.argument("type_name", required=False)
@click.option("--methods", is_flag=True, help="The method table.")
@click.option("--capabilities", is_flag=True, help="The capability tree as dotted paths.")
@click.option("--gates", is_flag=True, help="The capability gates of schema/capabilities.toml.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@project_options
@handle_errors
def inspect(
    type_name: str | None,
    methods: bool,
    capabilities: bool,
    gates: bool,
    as_json: bool,
    project_dir: Path | None,
    inputs: str | None,
) -> None:
    """Show the IR: one def (TYPE), the methods, the capability tree or the gates."""
    from acpgen import inspect_view

    project = open_project(project_dir, inputs)
    if sum([bool(type_name), methods, capabilities, gates]) != 1:
        raise AcpgenError("acpgen inspect", "give exactly one of TYPE, --methods, --capabilities, --gates")
    if methods:
        data: Any = [m.to_json() for m in project.ir.methods]
    elif capabilities:
        data = [c.to_json() for c in project.ir.capabilities]
    elif gates:
        data = inspect_view.gates(project)
    else:
        data = inspect_view.definition(project, type_name or "")
    if as_json:
        emit_json(data)
    else:
        click.echo(inspect_view.as_text(data))


@main.command()
@click.option("--out", metavar="DIR", help="Output directory (default: `out` in schema/acp.lock).")
@click.option("--package", metavar="NAME", help="Package name (default: `package` in schema/acp.lock).")
@click.option("--quiet", "-q", is_flag=True, help="Print nothing on success.")
@project_options
@handle_errors
def generate(
    out: str | None, package: str | None, quiet: bool, project_dir: Path | None, inputs: str | None
) -> None:
    """Generate the bindings, atomically replacing the output directory."""
    from acpgen.generate import generate_report, summary

    project = open_project(project_dir, inputs)
    files, result = generate_report(project, out, package)
    if not quiet:
        click.echo(summary(files, result, out or project.lock.out))


@main.command()
@click.option("--out", metavar="DIR", help="Output directory (default: `out` in schema/acp.lock).")
@click.option("--package", metavar="NAME", help="Package name (default: `package` in schema/acp.lock).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@project_options
@handle_errors
def check(out: str | None, package: str | None, as_json: bool, project_dir: Path | None, inputs: str | None) -> None:
    """Prove the committed output is exactly what the pinned inputs produce (exit 1 if not)."""
    from acpgen.check import check as run
    from acpgen.check import error_json
    from acpgen.check_report import render_text

    try:
        project = open_project(project_dir, inputs)
        report = run(project, out, package)
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


# Commands contributed by later modules register themselves here ("module:command").
EXTRA_COMMANDS: list[str] = [
    "acpgen.diff_cli:diff_command",
    "acpgen.diff_cli:bump_command",
    "acpgen.skeleton_cli:skeleton",
]


def _register_extra_commands() -> None:
    for name in EXTRA_COMMANDS:
        module, _, attr = name.partition(":")
        main.add_command(getattr(__import__(module, fromlist=[attr]), attr))


_register_extra_commands()
