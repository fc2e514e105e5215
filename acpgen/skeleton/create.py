"""``acpgen skeleton``: a new, installable SDK project that keeps regenerating itself.

The skeleton is an acpgen project of its own: ``schema/acp.lock`` pins the same input bytes
as this project (the inputs referenced by a relative path, or vendored under
``schema/inputs/`` with ``--vendor-inputs``), ``[generate]`` puts the package ``NAME`` and its
tests under ``generated/``, and ``schema/capabilities.toml`` is this project's gating
manifest. Its ``generated/`` tree is built by the same :func:`~acpgen.output.generate.build_tree`
that ``acpgen check`` runs inside the skeleton, so the skeleton's CI starts clean.

Around it, from ``templates/skeleton/``: ``pyproject.toml`` (setuptools; the package is found
under ``generated/``), ``README.md``, ``.github/workflows/ci.yml`` (``acpgen check`` + pytest),
``.gitignore`` and ``tests/`` for the author's own tests.

Nothing is written unless everything was built: the tree is staged beside ``--out`` and
renamed into place; an existing non-empty ``--out`` is refused.
"""

from __future__ import annotations

import keyword
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import acpgen
from acpgen.emit.render import render
from acpgen.emit.runtime import RUNTIME_TESTS_DIR
from acpgen.errors import AcpgenError
from acpgen.inputs.lock import LOCK_RELPATH, Lock, dump_lock
from acpgen.model import conformance
from acpgen.model.capabilities import MANIFEST_RELPATH
from acpgen.model.project import Project, load_project
from acpgen.output.generate import build_tree, options_for
from acpgen.output.writer import stage

GENERATED_DIR = "generated"
TESTS_DIR = "tests"  # relative to GENERATED_DIR, beside the package: never a package name
VENDORED_INPUTS = "schema/inputs"
_PACKAGE_RE = re.compile(r"^[a-z_][a-z0-9_]*$")

# Skeleton file -> template (paths relative to the skeleton root).
SKELETON_TEMPLATES = {
    "pyproject.toml": "skeleton/pyproject.toml.jinja",
    "README.md": "skeleton/README.md.jinja",
    ".gitignore": "skeleton/gitignore.jinja",
    ".github/workflows/ci.yml": "skeleton/ci.yml.jinja",
    "tests/test_generated_is_current.py": "skeleton/tests/test_generated_is_current.py.jinja",
}


def check_package_name(package: str) -> None:
    if not _PACKAGE_RE.match(package) or keyword.iskeyword(package):
        raise AcpgenError(
            "--package", f"{package!r} is not a valid package name (lowercase letters, digits, _)"
        )
    if package == TESTS_DIR:
        raise AcpgenError("--package", f"{package!r} is the generated tests directory's name")


def skeleton_lock(project: Project, root: Path, package: str, vendor_inputs: bool) -> Lock:
    """The skeleton's lock: the same pins, its own package and output directory."""
    if vendor_inputs:
        inputs = VENDORED_INPUTS
    else:
        try:
            inputs = Path(os.path.relpath(project.inputs.directory, root.resolve())).as_posix()
        except ValueError:  # another drive (Windows): no relative path exists
            raise AcpgenError(
                str(root), "the inputs are on another drive: use --vendor-inputs"
            ) from None
    return replace(
        project.lock,
        project_root=root,
        inputs=inputs,
        package=package,
        out=GENERATED_DIR,
        tests_dir=TESTS_DIR,
    )


def build_skeleton(
    project: Project,
    root: Path,
    package: str,
    *,
    vendor_inputs: bool = False,
    acpgen_requirement: str | None = None,
) -> dict[str, bytes]:
    """Every file of the skeleton (relative POSIX path -> bytes), in memory."""
    check_package_name(package)
    lock = skeleton_lock(project, root, package, vendor_inputs)
    # Built with this project's root: the emitters read schema/capabilities.toml from there,
    # and the skeleton gets a byte copy of it, so `acpgen check` in the skeleton agrees.
    inner = replace(project, lock=replace(lock, project_root=project.root))
    files: dict[str, bytes] = {
        f"{GENERATED_DIR}/{rel}": data for rel, data in build_tree(inner, options_for(inner)).items()
    }
    files[LOCK_RELPATH.as_posix()] = dump_lock(lock).encode("utf-8")
    manifest = project.root / MANIFEST_RELPATH
    if manifest.is_file():  # a project without one has no gates; neither has its skeleton
        try:
            files[MANIFEST_RELPATH] = manifest.read_bytes()
        except OSError as exc:
            raise AcpgenError(MANIFEST_RELPATH, f"cannot read the gating manifest: {exc.strerror}") from None
    kit_manifest = project.root / conformance.MANIFEST_RELPATH
    if kit_manifest.is_file():  # the conformance kit: SDK authors run it on their own agent
        try:
            files[conformance.MANIFEST_RELPATH] = kit_manifest.read_bytes()
        except OSError as exc:
            raise AcpgenError(conformance.MANIFEST_RELPATH, f"cannot read: {exc.strerror}") from None
    if vendor_inputs:
        for name, pinned in sorted(project.lock.files.items()):
            files[f"{VENDORED_INPUTS}/{pinned.path}"] = project.inputs.data[name]
    ctx: dict[str, Any] = {
        "package": package,
        "dist_name": package.replace("_", "-"),
        "protocol_version": project.ir.protocol_version,
        "roster_revision": project.roster.revision,
        "acpgen_version": acpgen.__version__,
        "acpgen_requirement": acpgen_requirement or f"acpgen=={acpgen.__version__}",
        "vendored": vendor_inputs,
        "inputs": lock.inputs,
        "generated_dir": GENERATED_DIR,
        "tests_dir": TESTS_DIR,
        "runtime_tests_dir": RUNTIME_TESTS_DIR,
        "pins": {name: f.sha256 for name, f in sorted(project.lock.files.items())},
        "method_count": len(project.ir.methods),
        "def_count": len(project.ir.defs),
    }
    for rel, template in SKELETON_TEMPLATES.items():
        files[rel] = render(template, **ctx).encode("utf-8")
    return dict(sorted(files.items()))


def check_out_dir(out: Path) -> None:
    """Refuse an ``--out`` that exists and is not an empty directory."""
    _refuse_existing(out.absolute())


def _refuse_existing(out: Path) -> None:
    if out.is_file() or out.is_symlink():
        raise AcpgenError(str(out), "exists and is not a directory")
    if out.is_dir() and any(out.iterdir()):
        raise AcpgenError(str(out), "exists and is not empty; refusing to write a skeleton over it")


def write_skeleton(out: Path, files: dict[str, bytes], verify: Callable[[Path], object] | None = None) -> None:
    """Stage every file beside ``out``, ``verify`` the staged tree, rename it into place."""
    out = out.absolute()
    _refuse_existing(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AcpgenError(str(out.parent), f"cannot create the skeleton: {exc.strerror}") from None
    staging = stage(out.parent, out, files)  # the generator's own staging: fixed modes
    try:
        if verify is not None:
            verify(staging)  # a sibling of ``out``: relative input paths resolve the same
        _refuse_existing(out)  # again: something may have appeared meanwhile
        if out.is_dir():
            out.rmdir()
        os.replace(staging, out)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise AcpgenError(str(out), f"cannot write the skeleton: {exc.strerror}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def create_skeleton(
    project: Project,
    out: Path,
    package: str,
    *,
    vendor_inputs: bool = False,
    acpgen_requirement: str | None = None,
) -> dict[str, bytes]:
    """Build, write, and prove the result is an acpgen project whose inputs verify."""
    _refuse_existing(out.absolute())
    files = build_skeleton(
        project, out.absolute(), package, vendor_inputs=vendor_inputs, acpgen_requirement=acpgen_requirement
    )
    # The staged skeleton must load as a project: its lock finds the inputs and they verify.
    write_skeleton(out, files, verify=load_project)
    return files
