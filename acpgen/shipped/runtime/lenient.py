"""Lenient inbound decoding, exactly where the schema allows it.

Copied verbatim into every generated package by acpgen.

The schema marks properties ``x-deserialize-default-on-error`` (an invalid value is read as
the property's default) and ``x-deserialize-skip-invalid-items`` (an invalid array item is
dropped), as the official Rust SDK reads them. What a peer sends is validated strictly
first; on failure the received data is repaired at the innermost marked place on each
error's path, each repair logged, and validated again. Errors outside marked places still
fail, as ``ValidationError``.

The rules are the models' own (``model_base.validate_repairing``; each class lists its
marked members in ``__acp_lenient__``): ``Model.model_validate_json`` applies exactly these,
so a message read from a peer and the same bytes read by ``model_validate_json`` give the
same object. (From Python, ``model_validate`` also reads an explicit None of an optional
member whose schema allows no null as absent; a JSON null on the wire is not None from
Python, and gets only what the markers say.)
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from .model_base import NO_DEFAULT, validate_repairing

__all__ = ["NO_DEFAULT", "repair_lenient", "validate_lenient"]


def validate_lenient(adapter: TypeAdapter[Any], annotation: Any, data: Any) -> Any:
    """Validate ``data`` (by wire names) as ``annotation``, repairing marked places only."""
    try:
        return adapter.validate_python(data, by_alias=True, by_name=False)
    except ValidationError as error:
        return repair_lenient(adapter, annotation, data, error)


def repair_lenient(
    adapter: TypeAdapter[Any], annotation: Any, data: Any, error: ValidationError
) -> Any:
    """After strict validation of ``data`` failed with ``error``: repair the marked places
    and validate again (:func:`validate_lenient`'s second half, for a caller that validated
    strictly itself)."""
    return validate_repairing(
        lambda d: adapter.validate_python(d, by_alias=True, by_name=False),
        annotation,
        data,
        none_is_absent=False,
        lenient=True,
        error=error,
    )
