"""How a type is written in Python: the one speller of the type trees of
:mod:`acpgen.emit.type_tree`, an escaping global of the templates (``ty``).

Every name goes through :func:`acpgen.emit.escape.ident` and every value through
:func:`acpgen.emit.escape.py_literal`, so a template may write the result as it is.
"""

from __future__ import annotations

from typing import Any, assert_never

from acpgen.emit import type_tree as tt
from acpgen.emit.escape import ident, py_literal
from acpgen.emit.type_tree import TypeNode


def _field_args(kw: tuple[tuple[str, Any], ...]) -> str:
    return ", ".join(f"{ident(k)}={py_literal(v)}" for k, v in kw)


def _bar(members: tuple[TypeNode, ...]) -> str:
    return " | ".join(spell_type(m) for m in members)


def spell_type(t: TypeNode) -> str:
    """The annotation for type tree ``t`` (a ``qual`` name is written from another module of
    the package, ``models.X``)."""
    match t:
        case tt.Named():
            return ("models." if t.qual else "") + ident(t.name)
        case tt.Prim():
            base = ("models." if t.qual else "") + ident(t.base)
            return f"Annotated[{base}, Field({_field_args(t.kw)})]" if t.kw else base
        case tt.ListOf():
            inner = f"list[{spell_type(t.items)}]"
            return f"Annotated[{inner}, Field({_field_args(t.kw)})]" if t.kw else inner
        case tt.DictOf():
            return f"dict[str, {spell_type(t.items)}]"
        case tt.UnionOf():
            return _bar(t.members)
        case tt.LeftToRight():
            return f'Annotated[{_bar(t.members)}, Field(union_mode="left_to_right")]'
        case tt.Lit():
            return f"Literal[{', '.join(py_literal(v) for v in (t.value, *t.more))}]"
        case tt.NoneNode():
            return "None"
        case tt.AnyNode():
            return "Any"
        case tt.Disc():
            return f"Annotated[{_bar(t.members)}, Field(discriminator={py_literal(t.field)}), _BY_CLASS]"
        case tt.Tagged():
            branches = " | ".join(f"Annotated[{spell_type(m.type)}, Tag({py_literal(m.tag)})]" for m in t.members)
            picker = (f"_tag_in({py_literal(t.wire)}, {py_literal(t.attr)}, {py_literal(list(t.known))}, "
                      f"other={py_literal(t.other)}, untagged={py_literal(t.default)})")
            return (f'Annotated[{branches}, Discriminator({picker}, custom_error_type="union_tag", '
                    f"custom_error_message={py_literal(t.message)}), _BY_CLASS]")
        case _:
            assert_never(t)
