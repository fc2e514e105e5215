"""How a type is written in Python: the one speller of the type trees of
:func:`acpgen.emit.models_plan.type_node`, an escaping global of the templates (``ty``).

Every name goes through :func:`acpgen.emit.escape.ident` and every value through
:func:`acpgen.emit.escape.py_literal`, so a template may write the result as it is.
"""

from __future__ import annotations

from typing import Any

from acpgen.emit.escape import ident, py_literal


def _field_args(kw: list[tuple[str, Any]]) -> str:
    return ", ".join(f"{ident(k)}={py_literal(v)}" for k, v in kw)


def _bar(members: list[dict[str, Any]]) -> str:
    return " | ".join(spell_type(m) for m in members)


def spell_type(t: dict[str, Any]) -> str:
    """The annotation for type tree ``t`` (``qual``: names written from another module of the
    package, ``models.X``)."""
    kind = t["k"]
    qual = "models." if t.get("qual") else ""
    if kind == "name":
        return qual + ident(t["name"])
    if kind == "prim":
        base = qual + ident(t["base"])
        return f"Annotated[{base}, Field({_field_args(t['kw'])})]" if t["kw"] else base
    if kind == "list":
        inner = f"list[{spell_type(t['items'])}]"
        return f"Annotated[{inner}, Field({_field_args(t['kw'])})]" if t["kw"] else inner
    if kind == "dict":
        return f"dict[str, {spell_type(t['items'])}]"
    if kind == "union":
        return _bar(t["members"])
    if kind == "ltr":
        return f'Annotated[{_bar(t["members"])}, Field(union_mode="left_to_right")]'
    if kind == "lit":
        return f"Literal[{py_literal(t['value'])}]"
    if kind == "none":
        return "None"
    if kind == "any":
        return "Any"
    if kind == "disc":
        return f"Annotated[{_bar(t['members'])}, Field(discriminator={py_literal(t['field'])}), _BY_CLASS]"
    if kind == "tagged":
        branches = " | ".join(
            f"Annotated[{spell_type(m['type'])}, Tag({py_literal(m['tag'])})]" for m in t["members"]
        )
        picker = (f"_tag_in({py_literal(t['wire'])}, {py_literal(t['attr'])}, {py_literal(t['known'])}, "
                  f"other={py_literal(t['other'])}, untagged={py_literal(t['default'])})")
        return (f'Annotated[{branches}, Discriminator({picker}, custom_error_type="union_tag", '
                f"custom_error_message={py_literal(t['message'])}), _BY_CLASS]")
    raise ValueError(f"no spelling for type kind {kind!r}")
