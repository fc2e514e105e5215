"""``acpgen skeleton``: a new, installable SDK project that stands alone.

The skeleton is an acpgen project of its own: ``schema/acp.lock`` pins the same input bytes
as this project, ``[generate]`` puts the package ``NAME`` and its tests under ``generated/``,
and ``schema/capabilities.toml`` is this project's gating manifest. Its ``generated/`` tree
is built by the same :func:`~acpgen.output.generate.build_tree` that ``acpgen check`` runs
inside the skeleton, so the skeleton's CI starts clean.

It needs no acpgen to install and test: by default the pinned inputs are vendored under
``schema/inputs/`` (with their licence and a provenance note; the lock's ``inputs`` is that
relative path, so a copy of the directory keeps working), and acpgen's pytest plugin (the
``acp_requirement`` marker, its validation against the roster, ``--acp-coverage``) is copied
verbatim into ``acp_requirements/`` and loaded by the root ``conftest.py``. acpgen is a
development tool there, needed for ``acpgen generate``, ``check`` and ``bump``: the skeleton
carries the acpgen that made it as a wheel (``vendor/``, :mod:`acpgen.skeleton.wheel`), which
its CI and README install by path, so no package index has to know acpgen; or, with
``--acpgen-requirement``, a ``dev`` extra names where to get it instead.

Around it, from ``templates/skeleton/``: ``pyproject.toml`` (hatchling; the package is found
under ``generated/``), ``README.md``, ``.github/workflows/ci.yml`` (``acpgen check`` + pytest),
``conftest.py``, ``.gitignore`` and ``tests/`` for the author's own tests.

Nothing is written unless everything was built: the tree is staged beside ``--out`` and
renamed into place; an existing non-empty ``--out`` is refused.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

import acpgen
from acpgen.emit.render import render_plan
from acpgen.emit.shipped import RUNTIME_TESTS_DIR, skeleton_files
from acpgen.errors import AcpgenError
from acpgen.inputs.lock import (
    DEFAULT_INPUTS,
    DEFAULT_OUT,
    DEFAULT_TESTS_DIR,
    LOCK_RELPATH,
    dump_lock,
)
from acpgen.inputs.provenance_note import ProvenanceRow, provenance_row
from acpgen.load import conformance
from acpgen.load.project import Project, load_project
from acpgen.model.package_name import check_package_name
from acpgen.output.generate import build_tree, options_for
from acpgen.output.writer import discarded_on_error, stage
from acpgen.skeleton.wheel import build_wheel, wheel_name

GENERATED_DIR = DEFAULT_OUT  # a skeleton keeps the lock's defaults
VENDOR_DIR = "vendor"  # the acpgen wheel the skeleton installs (no package index needed)
TESTS_DIR = DEFAULT_TESTS_DIR  # relative to GENERATED_DIR, beside the package: never a package name
VENDORED_INPUTS = DEFAULT_INPUTS
LICENCE_PREFIXES = ("LICENSE", "LICENCE", "COPYING", "NOTICE")
# The vendored pytest plugin's directory (what goes into it: acpgen.emit.shipped.SHIPMENTS).
PLUGIN_DIR = "acp_requirements"

# Skeleton file -> template (paths relative to the skeleton root).
SKELETON_TEMPLATES = {
    "pyproject.toml": "skeleton/pyproject.toml.jinja",
    "README.md": "skeleton/README.md.jinja",
    ".github/workflows/ci.yml": "skeleton/ci.yml.jinja",
    "conftest.py": "skeleton/conftest.py.jinja",
    f"{PLUGIN_DIR}/__init__.py": "skeleton/plugin_init.py.jinja",
    "tests/test_generated_is_current.py": "skeleton/tests/test_generated_is_current.py.jinja",
}
# Fixed files of every skeleton, copied as they are (skeleton file -> file beside this module).
SKELETON_FILES = {".gitignore": "gitignore.txt"}
VENDORED_TEMPLATES = {f"{VENDORED_INPUTS}/PROVENANCE.md": "skeleton/inputs_provenance.md.jinja"}


@dataclass(frozen=True)
class AcpgenRequirement:
    """How the skeleton's ``dev`` extra (and so its CI) installs acpgen, when it does not
    carry acpgen's wheel (``--acpgen-requirement``)."""

    spec: str
    direct: bool  # a direct reference (``acpgen @ URL``): hatchling must allow it


def parse_acpgen_requirement(spec: str) -> AcpgenRequirement:
    """Validate ``--acpgen-requirement``."""
    where = "--acpgen-requirement"
    if any(ord(c) < 32 or c in "\"'" for c in spec):
        raise AcpgenError(where, f"{spec!r} contains a quote, backslash or control character")
    try:
        req = Requirement(spec)
    except InvalidRequirement as exc:
        raise AcpgenError(where, f"{spec!r} is not a pip requirement: {exc}") from None
    if canonicalize_name(req.name) != "acpgen":
        raise AcpgenError(where, f"{spec!r} names {req.name!r}, not acpgen")
    return AcpgenRequirement(spec.strip(), direct=req.url is not None)


def skeleton_project(
    project: Project, root: Path, package: str, vendor_inputs: bool, surfaces: Sequence[str] = ()
) -> Project:
    """The skeleton as a project, in memory: rooted at ``root``, its lock pinning the same
    bytes (of the surfaces it builds), its own package and output directory; the roster's
    surface always, and each surface named by ``--surface`` as ``PACKAGE_<surface>``
    (``mysdk_v1_unstable``), in the project's order whatever the order of the options (the
    same skeleton bytes). Only surfaces this project pins.

    Vendored inputs are found by a path inside the skeleton; referenced ones by the absolute
    path of this project's inputs directory (a relative path between two resolved trees is
    a chain of ``..`` that breaks as soon as the skeleton moves).
    """
    known = [s.name for s in project.surfaces]
    for name in surfaces:
        if name not in known:
            raise AcpgenError("--surface", f"{name!r} is not a surface this project pins (choose from {', '.join(known)})")
    chosen = tuple(
        replace(s, spec=replace(s.spec, package=f"{package}_{s.name.replace('-', '_')}"))
        for s in project.others if s.name in surfaces
    )
    pinned = {name for s in (project.primary, *chosen) for name in s.spec.pinned()}
    lock = replace(
        project.lock,
        project_root=root,
        inputs=VENDORED_INPUTS if vendor_inputs else project.inputs.directory.as_posix(),
        package=package,
        out=GENERATED_DIR,
        tests_dir=TESTS_DIR,
        files={name: f for name, f in project.lock.files.items() if name in pinned},
        surfaces={s.name: s.package for s in chosen},
    )
    primary = replace(project.primary, spec=replace(project.primary.spec, package=package))
    return replace(project, lock=lock, surfaces=(primary, *chosen))


def _licences(directory: Path) -> dict[str, bytes]:
    """The licence files at the top of the inputs directory (vendored with the inputs)."""
    found: dict[str, bytes] = {}
    try:
        entries = sorted(directory.iterdir())
    except OSError as exc:
        raise AcpgenError(str(directory), f"cannot list the inputs directory: {exc.strerror}") from None
    for entry in entries:
        if entry.is_file() and entry.name.upper().startswith(LICENCE_PREFIXES):
            try:
                found[entry.name] = entry.read_bytes()
            except OSError as exc:
                raise AcpgenError(str(entry), f"cannot read the licence: {exc.strerror}") from None
    if not found:
        raise AcpgenError(
            str(directory),
            "no licence file (LICENSE*) beside the inputs, so they cannot be vendored; "
            "add it, or pass --reference-inputs",
        )
    return found


@dataclass(frozen=True)
class SkeletonPlan:
    """What the skeleton's templates (``templates/skeleton/``) write."""

    package: str
    surface_packages: tuple[str, ...]  # the other surfaces' packages (--surface), installed beside it
    dist_name: str
    protocol_version: int
    roster_revision: str
    acpgen_version: str
    acpgen_wheel: str | None  # the vendored wheel's path, unless --acpgen-requirement
    acpgen_install: str
    acpgen_requirement: str | None
    acpgen_requirement_toml: str | None
    acpgen_direct_reference: bool
    vendored: bool
    inputs: str
    licences: tuple[str, ...]
    provenance: tuple[ProvenanceRow, ...]
    generated_dir: str
    tests_dir: str
    runtime_tests_dir: str
    plugin_dir: str
    pins: dict[str, str]
    method_count: int
    def_count: int


def build_skeleton(
    project: Project,
    root: Path,
    package: str,
    *,
    vendor_inputs: bool = True,
    acpgen_requirement: str | None = None,
    surfaces: Sequence[str] = (),
) -> dict[str, bytes]:
    """Every file of the skeleton (relative POSIX path -> bytes), in memory."""
    check_package_name(package)
    requirement = parse_acpgen_requirement(acpgen_requirement) if acpgen_requirement else None
    skeleton = skeleton_project(project, root, package, vendor_inputs, surfaces)
    lock = skeleton.lock
    files: dict[str, bytes] = {
        f"{GENERATED_DIR}/{rel}": data for rel, data in build_tree(skeleton, options_for(skeleton)).items()
    }
    files[LOCK_RELPATH.as_posix()] = dump_lock(lock).encode("utf-8")
    # Each surface's gating manifest, as reviewed here (a project without one has no gates;
    # neither has its skeleton), so that `acpgen check` in the skeleton agrees.
    for surface in skeleton.surfaces:
        if surface.capabilities is not None:
            relpath = surface.spec.capabilities
            try:
                files[relpath] = (project.root / relpath).read_bytes()
            except OSError as exc:
                raise AcpgenError(relpath, f"cannot read the gating manifest: {exc.strerror}") from None
    kit_manifest = project.root / conformance.MANIFEST_RELPATH
    if kit_manifest.is_file():  # the conformance kit: SDK authors run it on their own agent
        try:
            files[conformance.MANIFEST_RELPATH] = kit_manifest.read_bytes()
        except OSError as exc:
            raise AcpgenError(conformance.MANIFEST_RELPATH, f"cannot read: {exc.strerror}") from None
    licences: dict[str, bytes] = {}
    if vendor_inputs:
        for name, pinned in sorted(lock.files.items()):
            files[f"{VENDORED_INPUTS}/{pinned.path}"] = project.inputs.data[name]
        licences = _licences(project.inputs.directory)
        for name, data in licences.items():
            files[f"{VENDORED_INPUTS}/{name}"] = data
    files.update(skeleton_files(PLUGIN_DIR))
    wheel = None if requirement else f"{VENDOR_DIR}/{wheel_name()}"
    if wheel:
        files[wheel] = build_wheel()
    plan = SkeletonPlan(
        package=package,
        surface_packages=tuple(s.package for s in skeleton.others),
        dist_name=package.replace("_", "-"),
        protocol_version=project.ir.protocol_version,
        roster_revision=project.roster.revision,
        acpgen_version=acpgen.__version__,
        acpgen_wheel=wheel,
        acpgen_install=f"pip install ./{wheel}" if wheel else "pip install -e '.[test,dev]'",
        acpgen_requirement=requirement.spec if requirement else None,
        acpgen_requirement_toml=json.dumps(requirement.spec) if requirement else None,
        acpgen_direct_reference=bool(requirement and requirement.direct),
        vendored=vendor_inputs,
        inputs=lock.inputs,
        licences=tuple(sorted(licences)),
        provenance=tuple(provenance_row(lock.files[name]) for name in sorted(lock.files)),
        generated_dir=GENERATED_DIR,
        tests_dir=TESTS_DIR,
        runtime_tests_dir=RUNTIME_TESTS_DIR,
        plugin_dir=PLUGIN_DIR,
        pins={name: f.sha256 for name, f in sorted(lock.files.items())},
        method_count=len(project.ir.methods),
        def_count=len(project.ir.defs),
    )
    templates = dict(SKELETON_TEMPLATES)
    if vendor_inputs:
        templates.update(VENDORED_TEMPLATES)
    for rel, template in templates.items():
        files[rel] = render_plan(template, plan).encode("utf-8")
    for rel, name in SKELETON_FILES.items():
        files[rel] = (Path(__file__).resolve().parent / name).read_bytes()
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
    with discarded_on_error(staging, str(out), "cannot write the skeleton"):
        if verify is not None:
            verify(staging)  # a sibling of ``out``: relative input paths resolve the same
        _refuse_existing(out)  # again: something may have appeared meanwhile
        if out.is_dir():
            out.rmdir()
        os.replace(staging, out)


def create_skeleton(
    project: Project,
    out: Path,
    package: str,
    *,
    vendor_inputs: bool = True,
    acpgen_requirement: str | None = None,
    surfaces: Sequence[str] = (),
) -> dict[str, bytes]:
    """Build, write, and prove the result is an acpgen project whose inputs verify."""
    _refuse_existing(out.absolute())
    files = build_skeleton(
        project, out.absolute(), package, vendor_inputs=vendor_inputs, acpgen_requirement=acpgen_requirement,
        surfaces=surfaces,
    )
    # The staged skeleton must load as a project: its lock finds the inputs and they verify.
    write_skeleton(out, files, verify=load_project)
    return files
