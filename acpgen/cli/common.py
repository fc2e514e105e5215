"""What every command shares: one-line errors with exit codes, the project options, JSON output."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from acpgen.cli.options import run_options
from acpgen.emit.render import use_templates
from acpgen.errors import AcpgenError, InputDriftError
from acpgen.inputs.lock import builtin_project_root, find_project_root
from acpgen.load.project import Project, load_project

F = TypeVar("F", bound=Callable[..., Any])


def _fail(exc: AcpgenError) -> None:
    if isinstance(exc, InputDriftError):  # one line whatever the number of drifted files
        hint = (
            "acpgen's built-in lock pins its own inputs; to generate from other bytes, make a "
            "project (`acpgen skeleton`) and accept them there with `acpgen lock --update`"
            if exc.outside_project
            else "accept new bytes only with `acpgen lock --update`"
        )
        click.echo(f"acpgen: error: {exc.where}: input drift: {'; '.join(exc.lines)}; {hint}", err=True)
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


def project_root(project_dir: Path | None, *, builtin: bool = False) -> Path:
    """``--project``, else the nearest project upwards from ``.``.

    With ``builtin`` (commands that only read: verify, roster, inspect, diff, skeleton),
    outside any project acpgen's built-in ACP v1 project is used: its lock, manifests and the
    pinned inputs themselves travel with acpgen (a checkout's root, or ``acpgen/_project``
    in a wheel), so a pip-installed acpgen needs no flag. Commands that write into the
    project never do.
    """
    if project_dir:
        return project_dir.resolve()
    try:
        return find_project_root(Path.cwd())
    except AcpgenError:
        if not builtin:
            raise
        return builtin_project_root()


def open_project(
    project_dir: Path | None, inputs: str | None, *, builtin: bool = False, metaschema: bool = False
) -> Project:
    """Load the project with the run's options (flags and environment: :mod:`acpgen.cli.options`);
    ``metaschema`` runs the JSON Schema 2020-12 pass (where inputs are accepted)."""
    options = run_options(project_dir, inputs)
    use_templates(options.templates)
    root = project_root(options.project_dir, builtin=builtin)
    try:
        return load_project(root, options.inputs, metaschema=metaschema)
    except InputDriftError as exc:
        # `lock --update` needs a project of one's own: outside one, say how to get it.
        exc.outside_project = project_dir is None and root == builtin_project_root() != _nearest(Path.cwd())
        raise


def _nearest(start: Path) -> Path | None:
    try:
        return find_project_root(start)
    except AcpgenError:
        return None


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=False))
