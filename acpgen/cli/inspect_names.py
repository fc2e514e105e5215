"""The names ``acpgen inspect NAME`` answers to, for one surface.

A user arrives with whatever name the docs or their editor showed them: a ``$def`` name
(``ToolCall``), a Python class the models module defines beside the defs (a union's branch
class, ``ContentBlockText``), a method's wire name (``session/prompt``) or its Python name
(``session_prompt``). All of them resolve here, ignoring case; a miss is refused with the
closest names (``difflib``), and a name another surface knows is pointed there.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Literal

from acpgen.emit.models_plan import Planner
from acpgen.errors import AcpgenError
from acpgen.ir.types import Definition, Method, SchemaIR

Kind = Literal["def", "branch", "method"]


@dataclass(frozen=True)
class Target:
    kind: Kind
    name: str  # the def, the branch class, or the method's wire name
    union: Definition | None = None  # branch: the union it is a branch of
    variant: int = -1  # branch: its index among the union's variants
    method: Method | None = None


@dataclass(frozen=True)
class NameIndex:
    """Every name of one surface's IR that ``inspect`` answers to, by its case-folded spelling."""

    surface: str
    where: str  # the schema file, as the lock names it (refusals point there)
    names: dict[str, tuple[str, Target]]  # casefold -> (spelling, target)
    classes: dict[tuple[str, int], list[str]]  # (union, variant index) -> its Python classes
    bases: dict[str, list[str]]  # branch class -> the classes it subclasses

    def find(self, query: str) -> Target | None:
        hit = self.names.get(query.strip().casefold())
        return hit[1] if hit else None

    def suggestions(self, query: str, count: int = 5) -> list[str]:
        close = difflib.get_close_matches(query.strip().casefold(), list(self.names), n=count, cutoff=0.6)
        return [self.names[key][0] for key in close]


@dataclass(frozen=True)
class Branches:
    """The models module's classes for union branches (acpgen.emit.models_plan's naming
    contract): a branch that adds nothing is its ``$def``'s own class."""

    classes: dict[tuple[str, int], list[str]]  # (union, variant index) -> class names
    bases: dict[str, list[str]]  # class -> its bases


def branches(ir: SchemaIR) -> Branches:
    planner = Planner(ir)
    planner.plan()
    classes = {(union, number): list(entry.classes)
               for union, entries in planner.entries.items() for number, entry in enumerate(entries)}
    bases = {name: list(block.bases) for name, block in planner.blocks.items() if name not in ir.defs}
    return Branches(classes, bases)


def index(ir: SchemaIR, surface: str) -> NameIndex:
    names: dict[str, tuple[str, Target]] = {}

    def add(spelling: str, target: Target) -> None:
        # Defs first, then branch classes, then methods: a def keeps its name whatever else
        # spells the same in another case.
        names.setdefault(spelling.casefold(), (spelling, target))

    for name in ir.defs:
        add(name, Target("def", name))
    found = branches(ir)
    for (union, number), classes in found.classes.items():
        for cls in classes:
            if cls not in ir.defs:
                add(cls, Target("branch", cls, union=ir.defs[union], variant=number))
    for method in ir.methods:
        add(method.wire, Target("method", method.wire, method=method))
        add(method.py_name, Target("method", method.wire, method=method))
    return NameIndex(surface=surface, where=ir.schema_where, names=names, classes=found.classes, bases=found.bases)


def resolve(query: str, here: NameIndex, others: list[NameIndex]) -> Target:
    """The target ``query`` names in ``here``; otherwise one line: where else it is, or the
    closest names."""
    target = here.find(query)
    if target is not None:
        return target
    elsewhere = [o.surface for o in others if o.find(query) is not None]
    message = f"no def, class or method named {query!r} in surface {here.surface}"
    if elsewhere:
        message += "; it is in surface " + ", ".join(elsewhere) + f" (--surface {elsewhere[0]})"
    else:
        close = here.suggestions(query)
        message += f"; did you mean {', '.join(close)}?" if close else \
            " (`acpgen inspect --methods` lists the methods)"
    raise AcpgenError(here.where, message)
