"""Type trees: how the models planner hands a member's type to the templates.

A tree is made of frozen nodes, one class per kind (:class:`Kind`); the templates read their
fields (``ty(x)`` spells one: :mod:`acpgen.emit.type_spelling`; ``templates/models/_layout.jinja``
splits one across lines by its ``k``). Built by :func:`acpgen.emit.models_plan.type_node`
and the union planner; read by the builders and runtime planners (:func:`qualified`,
:func:`kinds`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar


class Kind(StrEnum):
    """A node's kind, as the layout templates test it (``x.k == "union"``)."""

    NAME = "name"  # a class or alias of the models module
    PRIM = "prim"  # a strict primitive or named integer range, maybe constrained
    LIST = "list"
    DICT = "dict"  # a map with string keys
    UNION = "union"  # A | B
    LTR = "ltr"  # A | B tried left to right
    LIT = "lit"  # Literal[value]
    NONE = "none"
    ANY = "any"
    DISC = "disc"  # a union told apart by a discriminator member
    TAGGED = "tagged"  # a union told apart by a callable discriminator (Tag values)


Kw = tuple[tuple[str, Any], ...]  # Field() keyword arguments: (name, JSON value), sorted


@dataclass(frozen=True)
class Named:
    k: ClassVar[Kind] = Kind.NAME
    name: str
    qual: bool = False  # spelled from another module of the package: ``models.X``


@dataclass(frozen=True)
class Prim:
    k: ClassVar[Kind] = Kind.PRIM
    base: str  # StrictStr, Uint32, ...
    kw: Kw = ()
    qual: bool = False


@dataclass(frozen=True)
class ListOf:
    k: ClassVar[Kind] = Kind.LIST
    items: TypeNode
    kw: Kw = ()


@dataclass(frozen=True)
class DictOf:
    k: ClassVar[Kind] = Kind.DICT
    items: TypeNode


@dataclass(frozen=True)
class UnionOf:
    k: ClassVar[Kind] = Kind.UNION
    members: tuple[TypeNode, ...]


@dataclass(frozen=True)
class LeftToRight:
    k: ClassVar[Kind] = Kind.LTR
    members: tuple[TypeNode, ...]


@dataclass(frozen=True)
class Lit:
    k: ClassVar[Kind] = Kind.LIT
    value: Any  # a JSON scalar (a const, a branch's tag)
    more: tuple[Any, ...] = ()  # further values of one ``Literal[...]`` (a profile's closed enum)


@dataclass(frozen=True)
class NoneNode:
    k: ClassVar[Kind] = Kind.NONE


@dataclass(frozen=True)
class AnyNode:
    k: ClassVar[Kind] = Kind.ANY


@dataclass(frozen=True)
class Disc:
    k: ClassVar[Kind] = Kind.DISC
    field: str  # the discriminator member's Python name
    members: tuple[TypeNode, ...]


@dataclass(frozen=True)
class TaggedMember:
    tag: str  # its Tag() value
    type: TypeNode


@dataclass(frozen=True)
class Tagged:
    k: ClassVar[Kind] = Kind.TAGGED
    wire: str  # the tag member's wire name
    attr: str  # ... and Python name
    known: tuple[str, ...]  # the listed tags
    other: str | None  # the Tag() of a catch-all branch
    default: str | None  # the Tag() of the branch used when the tag is absent
    message: str  # pydantic's error for a bad tag
    members: tuple[TaggedMember, ...]


TypeNode = Named | Prim | ListOf | DictOf | UnionOf | LeftToRight | Lit | NoneNode | AnyNode | Disc | Tagged


def children(t: TypeNode) -> Iterator[TypeNode]:
    """The nodes directly inside ``t``."""
    if isinstance(t, (ListOf, DictOf)):
        yield t.items
    elif isinstance(t, (UnionOf, LeftToRight, Disc)):
        yield from t.members
    elif isinstance(t, Tagged):
        yield from (m.type for m in t.members)


def nodes(t: TypeNode) -> Iterator[TypeNode]:
    """``t`` and every node below it."""
    yield t
    for child in children(t):
        yield from nodes(child)


def names(t: TypeNode) -> set[str]:
    """The module-level names a tree refers to."""
    return {n.name for n in nodes(t) if isinstance(n, Named)}


def qualified(t: TypeNode) -> TypeNode:
    """The tree with its names resolved from another module of the package (``models.X``)."""
    if isinstance(t, (Named, Prim)):
        return replace(t, qual=True)
    if isinstance(t, (ListOf, DictOf)):
        return replace(t, items=qualified(t.items))
    if isinstance(t, (UnionOf, LeftToRight, Disc)):
        return replace(t, members=tuple(qualified(m) for m in t.members))
    if isinstance(t, Tagged):
        return replace(t, members=tuple(replace(m, type=qualified(m.type)) for m in t.members))
    return t


def renamed(t: TypeNode, names: dict[str, str]) -> TypeNode:
    """The tree with each module-level name in ``names`` replaced by its new name (a profile's
    public names: :mod:`acpgen.emit.python_sdk_names`)."""
    if isinstance(t, Named):
        return replace(t, name=names.get(t.name, t.name))
    if isinstance(t, (ListOf, DictOf)):
        return replace(t, items=renamed(t.items, names))
    if isinstance(t, (UnionOf, LeftToRight, Disc)):
        return replace(t, members=tuple(renamed(m, names) for m in t.members))
    if isinstance(t, Tagged):
        return replace(t, members=tuple(replace(m, type=renamed(m.type, names)) for m in t.members))
    return t


def substituted(t: TypeNode, table: dict[str, TypeNode]) -> TypeNode:
    """The tree with each name in ``table`` replaced by the tree given for it (a profile's
    inlined aliases: :mod:`acpgen.emit.python_sdk`)."""
    if isinstance(t, Named):
        return table.get(t.name, t)
    if isinstance(t, (ListOf, DictOf)):
        return replace(t, items=substituted(t.items, table))
    if isinstance(t, (UnionOf, LeftToRight, Disc)):
        return replace(t, members=tuple(substituted(m, table) for m in t.members))
    if isinstance(t, Tagged):
        return replace(t, members=tuple(replace(m, type=substituted(m.type, table)) for m in t.members))
    return t
