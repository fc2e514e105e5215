"""The one traversal of IR types: every recursive pass over ``TypeExpr`` goes through here.

A ``TypeExpr`` nests through two fields only: ``items`` (array items, map values) and
``variants`` (union members). Callers pick the pass that fits:

* :func:`walk` yields a type and everything nested in it (to search: refs, formats);
* :func:`fold` computes a value bottom-up (to spell a type, or turn it into a tree);
* :func:`def_types` yields the top-level type positions of a ``Definition``, so a pass over
  a whole def (or the whole IR) does not list the positions again.

``$ref`` is not followed: a ref is a leaf here (following it is the caller's decision, since
refs may be cyclic).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from acpgen.ir.types import Definition, TypeExpr

R = TypeVar("R")


def children(t: TypeExpr) -> tuple[TypeExpr, ...]:
    """The types directly nested in ``t``: its items (if any), then its variants."""
    return ((t.items,) if t.items is not None else ()) + t.variants


def walk(t: TypeExpr | None) -> Iterator[TypeExpr]:
    """``t`` and every type nested in it, depth-first, parents before children."""
    if t is None:
        return
    stack = [t]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def walk_all(types: Iterable[TypeExpr | None]) -> Iterator[TypeExpr]:
    for t in types:
        yield from walk(t)


def refs(t: TypeExpr | None) -> set[str]:
    """The names of every def ``t`` refers to, at any depth."""
    return {node.name for node in walk(t) if node.kind == "ref" and node.name}


def fold(t: TypeExpr, fn: Callable[[TypeExpr, R | None, tuple[R, ...]], R]) -> R:
    """``fn(t, folded items or None, folded variants)``, computed bottom-up."""
    items = fold(t.items, fn) if t.items is not None else None
    return fn(t, items, tuple(fold(v, fn) for v in t.variants))


def def_types(d: Definition) -> Iterator[TypeExpr]:
    """Every top-level type position of a def: its properties, its variants' inline types and
    members, an open enum's catch-all, a primitive's type (refs of variants are ``v.ref``)."""
    for p in d.properties:
        yield p.type
    for v in d.variants:
        if v.inline is not None:
            yield v.inline
        for p in v.properties:
            yield p.type
    if d.catch_all is not None:
        yield d.catch_all
    if d.primitive is not None:
        yield d.primitive
