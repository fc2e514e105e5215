"""The generation model: everything an emitter may see, read and validated once.

Emitters receive a :class:`GenerationModel` and nothing else: no emitter reads a file, the
lock or the raw schema. Every field is derived from an input recorded in ``MANIFEST.json``
(:attr:`GenerationModel.recorded_inputs`), so a change to any of them is named by
``acpgen check`` as input drift, never as generator drift.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from acpgen.errors import AcpgenError
from acpgen.inputs.lock import DEFAULT_TESTS_DIR
from acpgen.inputs.roster import Roster
from acpgen.inputs.surfaces import DEFAULT_PACKAGE
from acpgen.ir.types import SchemaIR
from acpgen.load import conformance
from acpgen.load.capabilities import EMPTY, Manifest
from acpgen.load.profile_manifest import ProfileManifest, parse_manifest, read_manifest
from acpgen.load.project import Project, Surface
from acpgen.model.profiles import Profile


@dataclass(frozen=True)
class GenOptions:
    """The ``[generate]`` options of the lock (or the command line) that shape output bytes."""

    package: str = DEFAULT_PACKAGE  # the roster surface's package
    tests_dir: str = DEFAULT_TESTS_DIR  # relative to the output directory
    # The other surfaces built beside the roster's: (surface name, package), in lock order.
    surfaces: tuple[tuple[str, str], ...] = ()
    # An output profile (``--profile``): the tree is the profile's modules only.
    profile: Profile | None = None

    @property
    def packages(self) -> tuple[str, ...]:
        """Every generated package: the roster surface's first."""
        return (self.package, *(package for _, package in self.surfaces))


@dataclass(frozen=True)
class RecordedInput:
    """One input file whose bytes can change the output: where it is and its SHA-256."""

    name: str
    path: str
    sha256: str


@dataclass(frozen=True)
class GenerationModel:
    ir: SchemaIR
    roster: Roster
    roster_where: str  # the roster's path as the lock names it, for error and test messages
    capabilities: Manifest  # EMPTY when the project has no schema/capabilities.toml
    # schema/conformance.toml; None when the project has none (no black-box tests then)
    conformance: conformance.ConformanceManifest | None
    options: GenOptions
    pinned_inputs: tuple[RecordedInput, ...]  # the lock's files (schema, meta, roster)
    manifests: tuple[RecordedInput, ...]  # the project's hand-reviewed manifests
    profile_manifest: ProfileManifest | None = None  # with options.profile only

    @property
    def recorded_inputs(self) -> tuple[RecordedInput, ...]:
        """Every input file that can change an output byte (all hashed into MANIFEST.json)."""
        return self.pinned_inputs + self.manifests


def surface_model(project: Project, surface: Surface, options: GenOptions) -> GenerationModel:
    """The model of one surface: its own IR, gating manifest and pinned files. The roster's
    surface also carries the roster and the conformance manifest, and its package is
    ``options.package`` (``--package`` may override the lock's); any other surface has an
    empty roster (no requirement is checked or stubbed for it), no conformance kit, and its
    package is the one the lock gives it: only that package's files are kept
    (:func:`package_files`)."""
    spec = surface.spec
    pinned = tuple(RecordedInput(name, project.lock.files[name].path, project.lock.files[name].sha256)
                   for name in sorted(spec.pinned()))
    manifests = []
    if surface.capabilities_sha256 is not None:
        manifests.append(RecordedInput(spec.capabilities_input, spec.capabilities, surface.capabilities_sha256))
    if spec.carries_roster and project.conformance_sha256 is not None:
        manifests.append(
            RecordedInput("conformance", conformance.MANIFEST_RELPATH, project.conformance_sha256)
        )
    return GenerationModel(
        ir=surface.ir,
        roster=project.roster if spec.carries_roster else replace(project.roster, requirements=(), counts={}),
        roster_where=project.lock.files["roster"].path,
        capabilities=surface.capabilities or EMPTY,
        conformance=project.conformance if spec.carries_roster else None,
        options=options if spec.carries_roster else replace(options, package=spec.package, surfaces=()),
        pinned_inputs=pinned,
        manifests=tuple(manifests),
    )


def profile_model(project: Project, options: GenOptions) -> GenerationModel:
    """The model a profile renders: its surface's, with the profile's manifest (parsed and
    recorded like every other manifest, so ``check`` names its edits as input drift)."""
    chosen = options.profile
    assert chosen is not None
    surface = next((s for s in project.surfaces if s.name == chosen.surface), None)
    if surface is None:
        raise AcpgenError("--profile", f"profile {chosen.name} renders surface {chosen.surface}, "
                          f"which schema/acp.lock does not pin ([generate.surfaces])")
    blob = read_manifest(project.root, chosen.manifest)
    base = surface_model(project, surface, replace(options, surfaces=()))
    recorded = RecordedInput(f"profile-{chosen.name}", chosen.manifest, hashlib.sha256(blob).hexdigest())
    return replace(base, options=replace(options, package=chosen.package, surfaces=()),
                   roster=replace(project.roster, requirements=(), counts={}), conformance=None,
                   manifests=(*base.manifests, recorded),
                   profile_manifest=parse_manifest(chosen.manifest, blob))


def surface_models(project: Project, options: GenOptions) -> tuple[GenerationModel, ...]:
    """The model of every surface the project builds, the roster's first (docs/surfaces.md)."""
    return tuple(surface_model(project, surface, options) for surface in project.surfaces)


def package_files(sources: dict[str, str], package: str) -> dict[str, str]:
    """The files of one package out of everything the emitters wrote for its surface: a
    surface besides the roster's ships its package only (requirement tests, the conformance
    kit and the runtime tests belong to the roster's surface)."""
    return {rel: text for rel, text in sources.items() if rel.startswith(f"{package}/")}
