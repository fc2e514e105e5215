"""Load and verify everything a command needs: lock, pinned inputs, roster, IR.

Every command goes through :func:`load_project`, so no command can run on drifted inputs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.inputs.lock import STABLE_SURFACE, Lock, load_lock, resolve_inputs_dir, surface_file
from acpgen.inputs.metaschema import check_metaschema
from acpgen.inputs.pinned import RawInputs, parse_json, read_pinned
from acpgen.inputs.roster import Roster, RosterError, parse_roster
from acpgen.ir.build import build_ir
from acpgen.ir.types import SchemaIR
from acpgen.load import conformance
from acpgen.load.capabilities import (
    MANIFEST_RELPATH,
    Manifest,
    parse_manifest,
    read_manifest,
    surface_manifest_relpath,
)


@dataclass(frozen=True)
class Surface:
    """One protocol surface besides v1 stable (v1 unstable, v2, ...): its own schema, method
    table, IR and gating manifest; no roster (the roster describes v1 stable)."""

    name: str  # as the lock lists it, e.g. "v1-unstable"
    package: str
    schema_where: str  # the pinned paths, as the lock names them
    meta_where: str
    schema: dict[str, Any]
    meta: dict[str, Any]
    ir: SchemaIR
    capabilities: Manifest | None = None
    capabilities_relpath: str = ""
    capabilities_sha256: str | None = None


@dataclass(frozen=True)
class Project:
    lock: Lock
    inputs: RawInputs
    schema: dict[str, Any]
    meta: dict[str, Any]
    roster: Roster
    ir: SchemaIR
    # schema/capabilities.toml, parsed and validated once; None when the project has none.
    capabilities: Manifest | None = None
    capabilities_sha256: str | None = None
    # schema/conformance.toml (which requirements a black-box run observes); None when absent.
    conformance: conformance.ConformanceManifest | None = None
    conformance_sha256: str | None = None
    # The other surfaces the lock lists ([generate.surfaces]), in lock order.
    surfaces: tuple[Surface, ...] = ()

    @property
    def root(self) -> Path:
        return self.lock.project_root


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
    schema_where = lock.files["schema"].path
    meta_where = lock.files["meta"].path
    roster_where = lock.files["roster"].path
    schema = parse_json(schema_where, raw.data["schema"])
    if metaschema:
        check_metaschema(schema, schema_where, raw.data["schema"])
    meta = parse_json(meta_where, raw.data["meta"])
    if not isinstance(meta, dict):
        raise AcpgenError(meta_where, "top level is not a JSON object")
    roster = read_roster(raw.data["roster"], roster_where)
    # `acpgen bump --accept-roster-mismatch` records the other schema the roster pins.
    accepted = lock.files["roster"].upstream.get("pins_schema_sha256")
    if roster.schema_sha256 not in (lock.files["schema"].sha256, accepted):
        raise AcpgenError(
            roster_where,
            f"header pins schema sha256 {roster.schema_sha256}, the lock pins "
            f"{lock.files['schema'].sha256}",
        )
    ir = build_ir(schema, meta, schema_where, meta_where)
    return schema, meta, roster, ir


def load_project(project_root: Path, inputs_option: str | None = None, metaschema: bool = False) -> Project:
    """The verified project. ``metaschema=True`` (``acpgen verify``) also re-validates the
    pinned schema against JSON Schema 2020-12 (see :func:`load_inputs`)."""
    lock = load_lock(project_root)
    directory = resolve_inputs_dir(lock, inputs_option)
    raw = read_pinned(lock, directory)
    schema, meta, roster, ir = load_inputs(lock, raw, metaschema=metaschema)
    blob = read_manifest(lock.project_root / MANIFEST_RELPATH)
    # A bad schema/capabilities.toml fails every command.
    capabilities = parse_manifest(ir, roster, blob) if blob is not None else None
    # A bad schema/conformance.toml fails every command too.
    kit_blob = conformance.read_manifest(lock.project_root / conformance.MANIFEST_RELPATH)
    kit = conformance.parse_manifest(roster, kit_blob) if kit_blob is not None else None
    surfaces = tuple(load_surface(lock, raw, name, package, roster, metaschema)
                     for name, package in lock.surfaces.items())
    return Project(
        lock=lock, inputs=raw, schema=schema, meta=meta, roster=roster, ir=ir,
        capabilities=capabilities,
        capabilities_sha256=hashlib.sha256(blob).hexdigest() if blob is not None else None,
        conformance=kit,
        conformance_sha256=hashlib.sha256(kit_blob).hexdigest() if kit_blob is not None else None,
        surfaces=surfaces,
    )


def load_surface(
    lock: Lock, raw: RawInputs, name: str, package: str, roster: Roster, metaschema: bool = False
) -> Surface:
    """One listed surface, parsed and cross-checked like v1 stable (its gating manifest cites
    the v1 roster's IDs: the rules it carries over are stated there)."""
    assert name != STABLE_SURFACE
    schema_key, meta_key = surface_file("schema", name), surface_file("meta", name)
    schema_where, meta_where = lock.files[schema_key].path, lock.files[meta_key].path
    schema = parse_json(schema_where, raw.data[schema_key])
    if metaschema:
        check_metaschema(schema, schema_where, raw.data[schema_key])
    meta = parse_json(meta_where, raw.data[meta_key])
    if not isinstance(meta, dict):
        raise AcpgenError(meta_where, "top level is not a JSON object")
    ir = build_ir(schema, meta, schema_where, meta_where)
    relpath = surface_manifest_relpath(name)
    blob = read_manifest(lock.project_root / relpath, relpath)
    manifest = (parse_manifest(ir, roster, blob, relpath, classify_every_method=True)
                if blob is not None else None)
    return Surface(
        name=name, package=package, schema_where=schema_where, meta_where=meta_where,
        schema=schema, meta=meta, ir=ir, capabilities=manifest, capabilities_relpath=relpath,
        capabilities_sha256=hashlib.sha256(blob).hexdigest() if blob is not None else None,
    )
