"""The ``acpgen skeleton`` command."""

from __future__ import annotations

from pathlib import Path

import click

from acpgen.cli.common import handle_errors, open_project, project_options
from acpgen.model.package_name import check_package_name
from acpgen.skeleton.create import check_out_dir, create_skeleton, parse_acpgen_requirement


@click.command("skeleton")
@click.option("--package", "package", required=True, metavar="NAME", help="The new SDK's import name.")
@click.option(
    "--out",
    "out",
    required=True,
    metavar="DIR",
    type=click.Path(path_type=Path),
    help="Directory to create (must not exist, or be empty).",
)
@click.option(
    "--vendor-inputs/--reference-inputs",
    default=True,
    show_default=True,
    help="Copy the pinned inputs (with their licence and provenance) into DIR/schema/inputs/, "
    "so the project stands alone; or reference this project's inputs directory by its "
    "absolute path.",
)
@click.option(
    "--acpgen-requirement",
    metavar="SPEC",
    help="Install acpgen in the skeleton's CI from this pip requirement (its dev extra), e.g. "
    "'acpgen==0.1.0' from your index or 'acpgen @ git+https://...', instead of the wheel of "
    "this acpgen that the skeleton carries in vendor/ (the default: no index needed).",
)
@click.option(
    "--surface",
    "surfaces",
    multiple=True,
    metavar="NAME",
    help="Also build this protocol surface (repeatable): v1-unstable, v2, v2-unstable, as the "
    "project's lock pins them; each becomes the package NAME_<surface> (docs/surfaces.md). "
    "v1 stable is always built.",
)
@project_options
@handle_errors
def skeleton(
    package: str,
    out: Path,
    vendor_inputs: bool,
    acpgen_requirement: str | None,
    surfaces: tuple[str, ...],
    project_dir: Path | None,
    inputs: str | None,
) -> None:
    """Create a new, installable ACP SDK project (generated code, runtime, examples, tests, CI)."""
    check_package_name(package)  # cheap refusals first, before loading the project
    if acpgen_requirement is not None:
        parse_acpgen_requirement(acpgen_requirement)
    check_out_dir(out)
    project = open_project(project_dir, inputs, builtin=True)
    files = create_skeleton(
        project, out, package, vendor_inputs=vendor_inputs, acpgen_requirement=acpgen_requirement,
        surfaces=surfaces,
    )
    click.echo(f"created {len(files)} files in {out}/ (package {package}); next: cd {out} && python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && pytest")
