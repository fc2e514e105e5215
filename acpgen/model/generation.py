"""The generation model: everything an emitter may see, read and validated once.

Emitters receive a :class:`GenerationModel` and nothing else: no emitter reads a file, the
lock or the raw schema. Every field is derived from an input recorded in ``MANIFEST.json``
(:attr:`GenerationModel.recorded_inputs`), so a change to any of them is named by
``acpgen check`` as input drift, never as generator drift.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from acpgen.inputs.lock import INPUT_NAMES
from acpgen.inputs.roster import Roster
from acpgen.ir.types import SchemaIR
from acpgen.load import conformance
from acpgen.load.capabilities import EMPTY, MANIFEST_RELPATH, Manifest
from acpgen.load.project import Project, Surface


@dataclass(frozen=True)
class GenOptions:
    """The ``[generate]`` options of the lock (or the command line) that shape output bytes."""

    package: str = "acp_v1"
    tests_dir: str = "tests"  # relative to the output directory
    # The other surfaces built beside v1 stable: (surface name, package), in lock order.
    surfaces: tuple[tuple[str, str], ...] = ()

    @property
    def packages(self) -> tuple[str, ...]:
        """Every generated package: v1 stable's first."""
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

    @property
    def recorded_inputs(self) -> tuple[RecordedInput, ...]:
        """Every input file that can change an output byte (all hashed into MANIFEST.json)."""
        return self.pinned_inputs + self.manifests


def generation_model(project: Project, options: GenOptions) -> GenerationModel:
    # v1 stable's own inputs; the other surfaces' files belong to their models (surface_model).
    pinned = tuple(RecordedInput(name, f.path, f.sha256)
                   for name, f in sorted(project.lock.files.items()) if name in INPUT_NAMES)
    manifests = []
    if project.capabilities_sha256 is not None:
        manifests.append(RecordedInput("capabilities", MANIFEST_RELPATH, project.capabilities_sha256))
    if project.conformance_sha256 is not None:
        manifests.append(
            RecordedInput("conformance", conformance.MANIFEST_RELPATH, project.conformance_sha256)
        )
    return GenerationModel(
        ir=project.ir,
        roster=project.roster,
        roster_where=project.lock.files["roster"].path,
        capabilities=project.capabilities or EMPTY,
        conformance=project.conformance,
        options=options,
        pinned_inputs=pinned,
        manifests=tuple(manifests),
    )


def surface_model(project: Project, surface: Surface, options: GenOptions) -> GenerationModel:
    """The model of one surface besides v1 stable: its own IR and gating manifest, no roster
    (no requirement is checked or stubbed for it) and no conformance kit. Its package is the
    one the lock gives it; only that package's files are kept (:func:`package_files`)."""
    pinned = tuple(
        RecordedInput(name, f.path, f.sha256)
        for name, f in sorted(project.lock.files.items())
        if f.path in (surface.schema_where, surface.meta_where)
    )
    manifests: tuple[RecordedInput, ...] = ()
    if surface.capabilities_sha256 is not None:
        manifests = (RecordedInput(f"capabilities-{surface.name}", surface.capabilities_relpath,
                                   surface.capabilities_sha256),)
    return GenerationModel(
        ir=surface.ir,
        roster=replace(project.roster, requirements=(), counts={}),
        roster_where=project.lock.files["roster"].path,
        capabilities=surface.capabilities or EMPTY,
        conformance=None,
        options=replace(options, package=surface.package, surfaces=()),
        pinned_inputs=pinned,
        manifests=manifests,
    )


def package_files(sources: dict[str, str], package: str) -> dict[str, str]:
    """The files of one package out of everything the emitters wrote for its surface: a
    surface besides v1 stable ships its package only (requirement tests, the conformance kit
    and the runtime tests belong to the roster's surface)."""
    return {rel: text for rel, text in sources.items() if rel.startswith(f"{package}/")}
