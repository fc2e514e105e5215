"""A compact spelling of an IR type, shared by ``inspect`` and the schema diff."""

from __future__ import annotations

import json

from acpgen.ir.types import TypeExpr
from acpgen.ir.visit import fold


def describe_type(t: TypeExpr) -> str:
    """A compact, human-readable spelling of a type (e.g. ``list[ContentBlock]``)."""
    return fold(t, _spell)


def _spell(t: TypeExpr, items: str | None, variants: tuple[str, ...]) -> str:
    if t.kind == "ref":
        return str(t.name)
    if t.kind == "primitive":
        return f"{t.name}({t.format})" if t.format else str(t.name)
    if t.kind == "array":
        return f"list[{items or 'any'}]"
    if t.kind == "map":
        return f"map[string, {items or 'any'}]"
    if t.kind == "union":
        return " | ".join(variants)
    if t.kind == "const":
        return f"const {json.dumps(t.value)}"
    return t.kind
