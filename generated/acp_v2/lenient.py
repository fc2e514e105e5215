# Edit acpgen/shipped/runtime/lenient.py, not this file: acpgen generate writes it.
"""Lenient inbound decoding, exactly where the schema allows it.

Copied verbatim into every generated package by acpgen.

The schema marks properties ``x-deserialize-default-on-error`` (an invalid value is read as
the property's default) and ``x-deserialize-skip-invalid-items`` (an invalid array item is
dropped), as the official Rust SDK reads them. The model classes stay strict: they agree
with the JSON Schema. :func:`validate_lenient` validates strictly first; on failure it
repairs the received data at the innermost marked place on each error's path (an invalid
item of a skip-marked array is dropped; a default-marked member is removed so its default
applies, or set to the schema's default when it is required), logs each repair, and
validates again. Errors outside marked places still fail, as ``ValidationError``.

``markers`` (rendered per schema into ``schema.py``: ``MARKERS``) maps a model class name to
``{wire name: (default_on_error, skip_invalid_items, default)}``; ``default`` is
:data:`NO_DEFAULT` where the model's own default applies.
"""

from __future__ import annotations

import copy
import logging
import types
import typing
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from .contract import NO_DEFAULT, Markers

__all__ = ["NO_DEFAULT", "Markers", "repair_lenient", "validate_lenient"]

logger = logging.getLogger(__name__)

_MAX_REPAIRS = 1000  # bounds the work one message can cause


def validate_lenient(
    adapter: TypeAdapter[Any], annotation: Any, data: Any, markers: Markers
) -> Any:
    """Validate ``data`` (by wire names) as ``annotation``, repairing marked places only."""
    try:
        return adapter.validate_python(data, by_alias=True, by_name=False)
    except ValidationError as first:
        return repair_lenient(adapter, annotation, data, markers, first)


def repair_lenient(
    adapter: TypeAdapter[Any],
    annotation: Any,
    data: Any,
    markers: Markers,
    error: ValidationError,
) -> Any:
    """After strict validation of ``data`` failed with ``error``: repair the marked places
    and validate again (:func:`validate_lenient`'s second half, for a caller that validated
    strictly itself)."""
    data = copy.deepcopy(data)  # repairs never touch the caller's value
    for _ in range(_MAX_REPAIRS):
        if not any(_repair(annotation, data, e["loc"], markers) for e in error.errors()[:1]):
            raise error
        try:
            return adapter.validate_python(data, by_alias=True, by_name=False)
        except ValidationError as again:
            error = again
    raise error


def _repair(annotation: Any, data: Any, loc: tuple[int | str, ...], markers: Markers) -> bool:
    """Repair the innermost marked place on ``loc``; False when none is marked."""
    steps: list[tuple[Any, int | str, tuple[bool, bool, Any] | None]] = []
    options = _flatten(annotation)
    node = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            marker, options = _member(options, part, markers)
            steps.append((node, part, marker))
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            options = [item for option in options for item in _flatten(_item_type(option))]
            steps.append((node, part, None))
            node = node[part]
        else:  # a union branch label (a tag or class name): narrow to that branch
            options = [o for o in options if _labelled(o, part)] or options
    for index in range(len(steps) - 1, -1, -1):
        container, key, marker = steps[index]
        if isinstance(container, list) and index > 0:
            owner = steps[index - 1][2]
            if owner is not None and owner[1]:
                logger.warning(
                    "dropped an invalid item of %r (x-deserialize-skip-invalid-items)",
                    steps[index - 1][1],
                )
                assert isinstance(key, int)
                del container[key]
                return True
        if isinstance(container, dict) and marker is not None and marker[0]:
            assert isinstance(key, str)
            logger.warning(
                "replaced an invalid %r by its default (x-deserialize-default-on-error)", key
            )
            if marker[2] == NO_DEFAULT:
                del container[key]
            else:
                container[key] = copy.deepcopy(marker[2])
            return True
    return False


def _flatten(annotation: Any) -> list[Any]:
    """The alternatives an annotation allows (unions, Optional and Annotated unwrapped)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _flatten(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        return [alt for arg in typing.get_args(annotation) for alt in _flatten(arg)]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        root = annotation.model_fields.get("root")
        if root is not None and getattr(annotation, "__pydantic_root_model__", False):
            return [annotation, *_flatten(root.annotation)]
    return [annotation]


def _item_type(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (list, tuple, set, frozenset) and args:
        return args[0]
    return Any


def _member(
    options: list[Any], wire: str, markers: Markers
) -> tuple[tuple[bool, bool, Any] | None, list[Any]]:
    """The marker of member ``wire`` in the model options, and the member's alternatives."""
    marker: tuple[bool, bool, Any] | None = None
    found: list[Any] = []
    for option in options:
        if isinstance(option, type) and issubclass(option, BaseModel):
            for name, field in option.model_fields.items():
                # Members keep their wire name in validation_alias (construction is by
                # Python name, so the models do not use alias=).
                alias = field.validation_alias if isinstance(field.validation_alias, str) else None
                if (alias or field.alias or name) == wire:
                    found.extend(_flatten(field.annotation))
                    for cls in option.__mro__:
                        marker = marker or markers.get(cls.__name__, {}).get(wire)
        elif typing.get_origin(option) is dict:
            args = typing.get_args(option)
            found.extend(_flatten(args[1]) if len(args) == 2 else [Any])
    return marker, found


def _labelled(option: Any, label: int | str) -> bool:
    """Whether a union branch is the one pydantic names ``label`` in an error location."""
    if not (isinstance(option, type) and issubclass(option, BaseModel)):
        return False
    if any(cls.__name__ == label for cls in option.__mro__):
        return True
    for field in option.model_fields.values():
        if typing.get_origin(field.annotation) is typing.Literal and label in typing.get_args(
            field.annotation
        ):
            return True
    return False
