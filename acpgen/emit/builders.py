"""Builders: one typed function per branch of every tagged union the schema defines.

A builder is named after its branch's tag (``text``, ``agent_message_chunk``, ``selected``)
and takes the branch class's members as keyword arguments (required ones without a default,
the others defaulting to None, which means "omitted"); the tag is filled in. When two unions
share a tag (``terminal`` in ``ToolCallContent`` and ``AuthMethod``) every builder of that
tag is qualified by its union (``terminal_tool_call_content``, ``terminal_auth_method``), so a
name never means two things. Which unions and branches there are comes from the models plan
(:class:`acpgen.emit.models_plan.Planner`), so a schema bump (or another protocol surface)
regenerates them with nothing listed per type.
"""

from __future__ import annotations

from dataclasses import dataclass
from keyword import iskeyword
from typing import TYPE_CHECKING

from acpgen.emit.models_plan import OTHER_TAG, UNTAGGED, Block, FieldSpec, Planner
from acpgen.emit.render import render
from acpgen.emit.type_tree import ListOf, Prim, TypeNode, nodes, qualified
from acpgen.ir.naming import snake_case

if TYPE_CHECKING:
    from acpgen.model.generation import GenerationModel

# Names the builders module defines itself, and Python's keywords and builtins used there:
# a builder or argument by one of these names is qualified or left out.
_TAKEN = frozenset({"models", "annotations", "Any", "Annotated", "Field", "Literal", "_build", "_given",
                    "entries_of"})
_ARG_TAKEN = frozenset({"self", "cls", "models"})


@dataclass(frozen=True)
class BuilderArg:
    name: str
    type: TypeNode
    required: bool
    nullable: bool


@dataclass(frozen=True)
class Builder:
    name: str  # the function's name
    cls: str  # the branch class it builds
    union: str  # the union alias the value belongs to
    shown: str  # "tag member: value", for the docstring
    args: tuple[BuilderArg, ...]


def _all_fields(blocks: dict[str, Block], name: str) -> list[FieldSpec]:
    """A class's members, its bases' first (as pydantic orders them), each name once."""
    block = blocks.get(name)
    if block is None:
        return []
    out: dict[str, FieldSpec] = {}
    for base in block.bases:
        for f in _all_fields(blocks, base):
            out[f.py_name] = f
    for f in block.fields:
        out[f.py_name] = f
    return list(out.values())


def _walk_kinds(tree: TypeNode, seen: set[str]) -> None:
    """The kinds of node in ``tree`` (and "kw" for a constrained one): what builders.py imports."""
    for node in nodes(tree):
        seen.add(node.k.value)
        if isinstance(node, (Prim, ListOf)) and node.kw:
            seen.add("kw")


def plan_builders(planner: Planner) -> list[Builder]:
    found: list[tuple[str, str, str, str, list[BuilderArg]]] = []
    for union_name in sorted(planner.entries):
        definition = planner.defs[union_name]
        if not definition.discriminator:
            continue
        for entry in planner.entries[union_name]:
            if entry.tag in (None, OTHER_TAG):  # a catch-all takes any tag: built by its class
                continue
            for cls in entry.classes:
                _add_branch(planner, found, union_name, entry.tag, cls, len(entry.classes) > 1)
    return _named(found)


def _add_branch(
    planner: Planner,
    found: list[tuple[str, str, str, str, list[BuilderArg]]],
    union_name: str,
    tag: str,
    cls: str,
    nested: bool,
) -> None:
    """One builder for ``cls``: named after its tag; a branch that is itself a union (one
    class per inner branch) after its class within the union; an untagged one after its
    class."""
    definition = planner.defs[union_name]
    fields = _all_fields(planner.blocks, cls)
    if any(f.py_name in _ARG_TAKEN for f in fields if not f.tag):
        return
    if tag == UNTAGGED:
        label = cls
    elif nested:
        label = cls[len(union_name) :] if cls.startswith(union_name) and cls != union_name else cls
    else:
        label = tag
    args = [
        BuilderArg(f.py_name, qualified(f.type), f.required and not f.has_default, f.nullable)
        for f in fields
        if not f.tag
    ]
    args.sort(key=lambda a: not a.required)  # required first, schema order kept
    shown = tag if tag != UNTAGGED else "(none)"
    found.append((label, union_name, cls, f"{definition.discriminator}: {shown}", args))


def _named(found: list[tuple[str, str, str, str, list[BuilderArg]]]) -> list[Builder]:
    counts: dict[str, int] = {}
    for tag, *_ in found:
        counts[snake_case(tag)] = counts.get(snake_case(tag), 0) + 1
    builders = []
    for label, union_name, cls, shown, args in found:
        name = snake_case(label)
        if counts[name] > 1 or name in _TAKEN or not name.isidentifier() or iskeyword(name):
            name = f"{name}_{snake_case(union_name)}"
        builders.append(Builder(name, cls, union_name, shown, tuple(args)))
    names = [b.name for b in builders]
    # Still clashing (a tag spelled two ways that snake_case joins): both left out.
    return sorted((b for b in builders if names.count(b.name) == 1), key=lambda b: b.name)


def emit(model: GenerationModel) -> dict[str, str]:
    planner = Planner(model.ir)
    planner.plan()
    builders = plan_builders(planner)
    kinds: set[str] = set()
    for b in builders:
        for a in b.args:
            _walk_kinds(a.type, kinds)
    text = render(
        "builders/builders.py.jinja",
        package=model.options.package,
        builders=builders,
        needs_annotated=bool(kinds & {"kw", "ltr", "disc", "tagged"}),
        needs_field=bool(kinds & {"kw", "ltr", "disc", "tagged"}),
        needs_literal="lit" in kinds,
        needs_any="any" in kinds,
        # text_chunk, tool_call_pair, plan_from are written for v1's SessionUpdate shapes
        # (v2's chunks need a messageId, its tool calls and plans differ): v1 surfaces only.
        compound_helpers=model.ir.protocol_version == 1,
    )
    return {f"{model.options.package}/builders.py": text}
