"""Load and verify everything a command needs: lock, pinned inputs, roster, IR.

Every command goes through :func:`load_project`, so no command can run on drifted inputs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.inputs.lock import InputsChoice, Lock, load_lock, resolve_inputs_dir
from acpgen.inputs.metaschema import check_metaschema
from acpgen.inputs.pinned import RawInputs, parse_json, read_pinned
from acpgen.inputs.roster import Roster, RosterError, parse_roster
from acpgen.inputs.surfaces import SurfaceSpec
from acpgen.ir.build import build_ir
from acpgen.ir.types import SchemaIR
from acpgen.load import conformance
from acpgen.load.capabilities import Manifest, parse_manifest, read_manifest


@dataclass(frozen=True)
class Surface:
    """One protocol surface, loaded: its record (:class:`~acpgen.inputs.surfaces.SurfaceSpec`),
    its own schema, method table, IR and gating manifest."""

    spec: SurfaceSpec
    schema_where: str  # the pinned paths, as the lock names them
    meta_where: str
    schema: dict[str, Any]
    meta: dict[str, Any]
    ir: SchemaIR
    capabilities: Manifest | None = None
    capabilities_sha256: str | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def package(self) -> str:
        return self.spec.package


@dataclass(frozen=True)
class Project:
    lock: Lock
    inputs: RawInputs
    roster: Roster
    # Every surface the lock builds, the roster's first (Lock.surface_table's order).
    surfaces: tuple[Surface, ...]
    # schema/conformance.toml (which requirements a black-box run observes); None when absent.
    conformance: conformance.ConformanceManifest | None = None
    conformance_sha256: str | None = None

    @property
    def root(self) -> Path:
        return self.lock.project_root

    @property
    def primary(self) -> Surface:
        """The roster's surface (what ``verify``, ``inspect``, ``diff`` and ``bump`` read)."""
        return self.surfaces[0]

    @property
    def others(self) -> tuple[Surface, ...]:
        """The surfaces built beside the roster's (``[generate.surfaces]``)."""
        return self.surfaces[1:]

    @property
    def schema(self) -> dict[str, Any]:
        return self.primary.schema

    @property
    def meta(self) -> dict[str, Any]:
        return self.primary.meta

    @property
    def ir(self) -> SchemaIR:
        return self.primary.ir

    @property
    def capabilities(self) -> Manifest | None:
        """The roster surface's schema/capabilities.toml, parsed once; None when absent."""
        return self.primary.capabilities

    @property
    def capabilities_sha256(self) -> str | None:
        return self.primary.capabilities_sha256


def read_roster(blob: bytes, where: str) -> Roster:
    """The roster in ``blob`` (read from ``where``); the one reader of roster bytes."""
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AcpgenError(where, f"not UTF-8 at byte {exc.start}") from None
    try:
        return parse_roster(text, where)
    except RosterError as exc:
        raise AcpgenError(exc.where, exc.message) from None


def load_inputs(
    lock: Lock, raw: RawInputs, metaschema: bool = True
) -> tuple[dict[str, Any], dict[str, Any], Roster, SchemaIR]:
    """Parse and cross-check verified bytes. Shared by verify, generate, lock --update and bump.

    ``metaschema``: also validate the schema against JSON Schema 2020-12 (most of the cost of
    loading a cold project). It is done where bytes are accepted (``lock --update``, ``bump``)
    and by ``verify``; the other commands run on bytes the lock pins, which were validated
    when they were accepted, and the IR builder still refuses any shape it cannot classify.
    """
    spec = lock.surface_table[0]
    schema, meta = _documents(lock, raw, spec, metaschema)
    roster_where = lock.files["roster"].path
    roster = read_roster(raw.data["roster"], roster_where)
    # `acpgen bump --accept-roster-mismatch` records the other schema the roster pins.
    accepted = lock.files["roster"].upstream.get("pins_schema_sha256")
    if roster.schema_sha256 not in (lock.files[spec.schema_file].sha256, accepted):
        raise AcpgenError(
            roster_where,
            f"header pins schema sha256 {roster.schema_sha256}, the lock pins "
            f"{lock.files[spec.schema_file].sha256}",
        )
    ir = build_ir(schema, meta, lock.files[spec.schema_file].path, lock.files[spec.meta_file].path)
    return schema, meta, roster, ir


def load_project(project_root: Path, inputs: InputsChoice | str | None = None, metaschema: bool = False) -> Project:
    """The verified project. ``inputs``: where the pinned inputs are when not the lock's
    ``inputs`` (a plain string is a ``--inputs`` value). ``metaschema=True`` (``acpgen
    verify``) also re-validates the pinned schemas against JSON Schema 2020-12 (see
    :func:`load_inputs`)."""
    lock = load_lock(project_root)
    directory = resolve_inputs_dir(lock, InputsChoice.of(inputs))
    raw = read_pinned(lock, directory)
    schema, meta, roster, ir = load_inputs(lock, raw, metaschema=metaschema)
    # A bad gating manifest fails every command.
    primary = surface_of(lock, lock.surface_table[0], schema, meta, ir, roster)
    # A bad schema/conformance.toml fails every command too.
    kit_blob = conformance.read_manifest(lock.project_root / conformance.MANIFEST_RELPATH)
    kit = conformance.parse_manifest(roster, kit_blob) if kit_blob is not None else None
    others = tuple(load_surface(lock, raw, spec, roster, metaschema) for spec in lock.surface_table[1:])
    return Project(
        lock=lock, inputs=raw, roster=roster, surfaces=(primary, *others),
        conformance=kit,
        conformance_sha256=hashlib.sha256(kit_blob).hexdigest() if kit_blob is not None else None,
    )


def _documents(lock: Lock, raw: RawInputs, spec: SurfaceSpec, metaschema: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """A surface's schema and method table, parsed (and the schema validated, ``metaschema``)."""
    schema_where, meta_where = lock.files[spec.schema_file].path, lock.files[spec.meta_file].path
    schema = parse_json(schema_where, raw.data[spec.schema_file])
    if metaschema:
        check_metaschema(schema, schema_where, raw.data[spec.schema_file])
    meta = parse_json(meta_where, raw.data[spec.meta_file])
    if not isinstance(meta, dict):
        raise AcpgenError(meta_where, "top level is not a JSON object")
    return schema, meta


def load_surface(lock: Lock, raw: RawInputs, spec: SurfaceSpec, roster: Roster, metaschema: bool = False) -> Surface:
    """One surface beside the roster's, parsed and cross-checked like it."""
    schema, meta = _documents(lock, raw, spec, metaschema)
    ir = build_ir(schema, meta, lock.files[spec.schema_file].path, lock.files[spec.meta_file].path)
    return surface_of(lock, spec, schema, meta, ir, roster)


def surface_of(lock: Lock, spec: SurfaceSpec, schema: dict[str, Any], meta: dict[str, Any], ir: SchemaIR,
               roster: Roster) -> Surface:
    """A parsed surface with its gating manifest (every gating manifest cites the roster's IDs:
    the rules another surface carries over are stated there)."""
    blob = read_manifest(lock.project_root / spec.capabilities, spec.capabilities)
    manifest = (parse_manifest(ir, roster, blob, spec.capabilities, classify_every_method=not spec.carries_roster)
                if blob is not None else None)
    return Surface(
        spec=spec, schema_where=lock.files[spec.schema_file].path, meta_where=lock.files[spec.meta_file].path,
        schema=schema, meta=meta, ir=ir, capabilities=manifest,
        capabilities_sha256=hashlib.sha256(blob).hexdigest() if blob is not None else None,
    )
