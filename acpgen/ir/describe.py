"""A compact spelling of an IR type, shared by ``inspect`` and the schema diff."""

from __future__ import annotations

import json

from acpgen.ir.types import TypeExpr


def describe_type(t: TypeExpr) -> str:
    """A compact, human-readable spelling of a type (e.g. ``list[ContentBlock]``)."""
    if t.kind == "ref":
        return str(t.name)
    if t.kind == "primitive":
        return f"{t.name}({t.format})" if t.format else str(t.name)
    if t.kind == "array":
        return f"list[{describe_type(t.items or TypeExpr('any'))}]"
    if t.kind == "map":
        return f"map[string, {describe_type(t.items or TypeExpr('any'))}]"
    if t.kind == "union":
        return " | ".join(describe_type(v) for v in t.variants)
    if t.kind == "const":
        return f"const {json.dumps(t.value)}"
    return t.kind
