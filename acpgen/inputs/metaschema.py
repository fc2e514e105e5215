"""The schema must be valid JSON Schema 2020-12 (checked where inputs are accepted, memoised)."""

from __future__ import annotations

import functools
import hashlib
from typing import TYPE_CHECKING, Any

from acpgen import disk_cache
from acpgen.errors import AcpgenError

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


def check_metaschema(schema: Any, where: str, blob: bytes | None = None) -> None:
    """The schema must be valid JSON Schema 2020-12.

    Validating 247 KB against the 2020-12 metaschema is most of every command's start-up
    (~0.6 s), yet it is a pure function of the bytes and the jsonschema version; so a pass is
    memoised by the SHA-256 of both (``blob`` given), in the same cache as black's output.
    Only passes are recorded: a failure is recomputed and reported every time.
    """
    memo = _metaschema_memo(blob)
    if memo is not None and disk_cache.load(disk_cache.cache_dir("metaschema"), memo) == "ok":
        return
    _validate_metaschema(schema, where)
    if memo is not None:
        disk_cache.store(disk_cache.cache_dir("metaschema"), memo, "ok")


def _metaschema_memo(blob: bytes | None) -> str | None:
    if blob is None:
        return None
    tool = f"jsonschema {disk_cache.installed_version('jsonschema')}"
    return disk_cache.key(hashlib.sha256(blob).hexdigest(), tool)


@functools.cache
def _metaschema_validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator  # a fifth of a second: only where it is used

    return Draft202012Validator(Draft202012Validator.META_SCHEMA,
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def _validate_metaschema(schema: Any, where: str) -> None:
    from jsonschema.exceptions import SchemaError

    if not isinstance(schema, dict):
        raise AcpgenError(where, "top level is not a JSON object")
    declared = schema.get("$schema")
    if declared not in (None, "https://json-schema.org/draft/2020-12/schema"):
        raise AcpgenError(where, f"$schema is {declared!r}, expected draft 2020-12")
    try:
        # Draft202012Validator.check_schema, with the metaschema validator built once
        # (building it is most of the cost of checking a small document).
        for error in _metaschema_validator().iter_errors(schema):
            raise SchemaError.create_from(error)
    except SchemaError as exc:
        pointer = "/" + "/".join(str(p) for p in exc.absolute_path)
        raise AcpgenError(where, f"not a valid JSON Schema 2020-12 at {pointer}: {exc.message}") from None
