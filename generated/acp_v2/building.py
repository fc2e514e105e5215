# Edit acpgen/shipped/runtime/building.py, not this file: acpgen generate writes it.
"""What the typed builders (``builders.py``, rendered per union branch) share.

A builder takes a branch's members as keyword arguments, None meaning "omitted" for an
optional member (:func:`given`); :func:`entries_of` reads a plan's entries given as models or
as ``(content, priority, status)`` triples.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["entries_of", "given"]

_M = TypeVar("_M", bound=BaseModel)


def given(**members: Any) -> dict[str, Any]:
    """The members that were given: None means "omitted" for an optional member, which is
    then left out of the model (not set to null)."""
    return {name: value for name, value in members.items() if value is not None}


def entries_of(entries: Iterable[tuple[str, str, str] | _M], entry: type[_M]) -> list[_M]:
    """Plan entries as ``entry`` models: a model as it is, a triple as its
    ``content``, ``priority`` and ``status``."""
    return [
        e if isinstance(e, entry) else entry.model_validate(dict(zip(_ENTRY, e, strict=True)))
        for e in entries
    ]


_ENTRY = ("content", "priority", "status")
