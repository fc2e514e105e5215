"""Load and verify everything a command needs: lock, pinned inputs, roster, IR.

Every command goes through :func:`load_project`, so no command can run on drifted inputs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from acpgen import format_cache
from acpgen.errors import AcpgenError
from acpgen.inputs import RawInputs, parse_json, read_pinned
from acpgen.ir import SchemaIR
from acpgen.ir_build import build_ir
from acpgen.lock import Lock, load_lock, resolve_inputs_dir
from acpgen.roster import Roster, parse_roster


@dataclass(frozen=True)
class Project:
    lock: Lock
    inputs: RawInputs
    schema: dict[str, Any]
    meta: dict[str, Any]
    roster: Roster
    ir: SchemaIR

    @property
    def root(self) -> Path:
        return self.lock.project_root


def check_metaschema(schema: Any, where: str, blob: bytes | None = None) -> None:
    """The schema must be valid JSON Schema 2020-12.

    Validating 247 KB against the 2020-12 metaschema is most of every command's start-up
    (~0.6 s), yet it is a pure function of the bytes and the jsonschema version; so a pass is
    memoised by the SHA-256 of both (``blob`` given), in the same cache as black's output.
    Only passes are recorded: a failure is recomputed and reported every time.
    """
    memo = _metaschema_memo(blob)
    if memo is not None and format_cache.load(format_cache.cache_dir("metaschema"), memo) == "ok":
        return
    _validate_metaschema(schema, where)
    if memo is not None:
        format_cache.store(format_cache.cache_dir("metaschema"), memo, "ok")


def _metaschema_memo(blob: bytes | None) -> str | None:
    if blob is None:
        return None
    return format_cache.key(hashlib.sha256(blob).hexdigest(), f"jsonschema {version('jsonschema')}")


def _validate_metaschema(schema: Any, where: str) -> None:
    if not isinstance(schema, dict):
        raise AcpgenError(where, "top level is not a JSON object")
    declared = schema.get("$schema")
    if declared not in (None, "https://json-schema.org/draft/2020-12/schema"):
        raise AcpgenError(where, f"$schema is {declared!r}, expected draft 2020-12")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        pointer = "/" + "/".join(str(p) for p in exc.absolute_path)
        raise AcpgenError(where, f"not a valid JSON Schema 2020-12 at {pointer}: {exc.message}") from None


def load_inputs(lock: Lock, raw: RawInputs) -> tuple[dict[str, Any], dict[str, Any], Roster, SchemaIR]:
    """Parse and cross-check verified bytes. Shared by verify, generate and diff."""
    schema_where = lock.files["schema"].path
    meta_where = lock.files["meta"].path
    roster_where = lock.files["roster"].path
    schema = parse_json(schema_where, raw.data["schema"])
    check_metaschema(schema, schema_where, raw.data["schema"])
    meta = parse_json(meta_where, raw.data["meta"])
    if not isinstance(meta, dict):
        raise AcpgenError(meta_where, "top level is not a JSON object")
    try:
        roster_text = raw.text("roster")
    except UnicodeDecodeError as exc:
        raise AcpgenError(roster_where, f"not UTF-8 at byte {exc.start}") from None
    roster = parse_roster(roster_text, roster_where)
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


def load_project(project_root: Path, inputs_option: str | None = None) -> Project:
    lock = load_lock(project_root)
    directory = resolve_inputs_dir(lock, inputs_option)
    raw = read_pinned(lock, directory)
    schema, meta, roster, ir = load_inputs(lock, raw)
    project = Project(lock=lock, inputs=raw, schema=schema, meta=meta, roster=roster, ir=ir)
    from acpgen.gates import load_manifest  # a bad schema/capabilities.toml fails every command

    load_manifest(project)
    return project
