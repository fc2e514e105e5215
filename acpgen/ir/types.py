"""The intermediate model (IR): one typed view of the schema that every emitter shares.

Emitters never read the raw JSON Schema; they read these frozen dataclasses, built by
``acpgen.ir.build``. Names in the IR are final: a def's class name is its ``$def`` name and
a property's Python name is computed once, here, never renamed downstream.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal


class Shape(StrEnum):
    """What a def is: exactly one of these (a StrEnum: JSON and messages show its value)."""

    OBJECT = "object"  # an object with declared properties
    ENUM = "enum"  # a closed set of constants (``enum`` or ``oneOf``/``anyOf`` of ``const``)
    OPEN_ENUM = "open_enum"  # known constants plus a catch-all branch of the same primitive type
    TAGGED_UNION = "tagged_union"  # variants told apart by a const-valued discriminator property
    UNION = "union"  # variants with no common discriminator
    PRIMITIVE = "primitive"  # a named string / integer / number / boolean
    ANY = "any"  # no constraint at all (extension payloads)


TypeKind = Literal["ref", "primitive", "array", "map", "union", "any", "const", "null", "object"]


@dataclass(frozen=True)
class TypeExpr:
    """A type as used by a property, an array's items or an alias."""

    kind: TypeKind
    name: str | None = None  # ref: def name; primitive: string|integer|number|boolean
    items: TypeExpr | None = None  # array items, map values
    variants: tuple[TypeExpr, ...] = ()  # union members
    value: Any = None  # const value
    format: str | None = None
    constraints: tuple[tuple[str, Any], ...] = ()  # minimum, maximum, minLength, ...
    # Traversals (refs, walks, folds) live in acpgen.ir.visit, written once.


@dataclass(frozen=True)
class Property:
    wire_name: str
    py_name: str
    type: TypeExpr
    required: bool
    nullable: bool
    has_default: bool
    default: Any
    description: str | None
    annotations: tuple[tuple[str, Any], ...] = ()  # x-* keys, for diffs and docs

    @property
    def constraints(self) -> dict[str, Any]:
        return dict(self.type.constraints)


@dataclass(frozen=True)
class EnumMember:
    value: Any
    title: str | None
    description: str | None


@dataclass(frozen=True)
class NestedBranch:
    """One member of a union branch's own ``anyOf``/``oneOf`` (a branch that is itself a
    union, e.g. CreateElicitationRequest's "other" branch, scoped by session or by request)."""

    ref: str | None  # the $def the member is built on (``$ref`` or ``allOf: [{$ref}]``)
    title: str | None = None


@dataclass(frozen=True)
class Variant:
    """One branch of a union. ``tag`` is the discriminator value; a catch-all has none."""

    ref: str | None  # the $def the branch is built on, if any
    tag: Any = None
    title: str | None = None
    description: str | None = None
    catch_all: bool = False  # the "other" branch: any tag not listed elsewhere
    inline: TypeExpr | None = None  # a branch that is a bare type (RequestId, unions of arrays)
    properties: tuple[Property, ...] = ()  # members declared on the branch itself
    # The branch's own union, when it has no single $ref: it is one of these defs, each
    # extended with the branch's members. Empty for every other branch.
    nested: tuple[NestedBranch, ...] = ()


@dataclass(frozen=True)
class Definition:
    name: str
    shape: Shape
    description: str | None
    pointer: str
    properties: tuple[Property, ...] = ()
    required: tuple[str, ...] = ()
    additional_properties: bool | None = None  # None: the schema says nothing (open)
    enum_members: tuple[EnumMember, ...] = ()
    enum_base: str | None = None  # primitive type of enum values
    catch_all: TypeExpr | None = None  # open_enum's catch-all branch
    discriminator: str | None = None
    variants: tuple[Variant, ...] = ()
    union_keyword: str | None = None  # oneOf | anyOf
    primitive: TypeExpr | None = None
    x_side: str | None = None
    x_method: str | None = None
    annotations: tuple[tuple[str, Any], ...] = ()

    def property(self, wire_name: str) -> Property | None:
        return next((p for p in self.properties if p.wire_name == wire_name), None)


@dataclass(frozen=True)
class Method:
    wire: str
    py_name: str  # the key meta.json gives it, e.g. session_new
    side: str  # the side that handles it: agent | client | protocol | both
    kind: Literal["request", "notification"]
    params: str
    result: str | None
    # A method either side may also send as a notification (``mcp/message``): that form's params.
    notification_params: str | None = None
    meta_pointer: str = ""  # where meta.json lists it, e.g. /agentMethods/session_new

    @property
    def sender(self) -> str:
        return {"agent": "client", "client": "agent"}.get(self.side, "both")  # both: either peer

    def to_json(self) -> dict[str, Any]:
        return {
            "wire": self.wire,
            "side": self.side,
            "kind": self.kind,
            "params": self.params,
            "result": self.result,
            # mcp/message's notification form (acpgen inspect --methods --json shows it).
            **({"notification_params": self.notification_params} if self.notification_params else {}),
        }


@dataclass(frozen=True)
class Capability:
    """A dotted path in AgentCapabilities / ClientCapabilities, e.g. ``sessionCapabilities.resume``."""

    root: Literal["agent", "client"]
    path: str
    kind: Literal["boolean", "object"]  # boolean true, or object present and non-null
    type: str | None  # the def of an object capability
    py_path: tuple[str, ...] = field(default=())  # attribute names on the generated models
    owner: str = ""  # the def that declares the member

    @property
    def qualified(self) -> str:
        return f"{self.root}Capabilities.{self.path}"

    def to_json(self) -> dict[str, Any]:
        return {"root": self.root, "path": self.path, "kind": self.kind, "type": self.type}


@dataclass(frozen=True)
class SchemaIR:
    title: str
    defs: dict[str, Definition]
    methods: tuple[Method, ...]
    capabilities: tuple[Capability, ...]
    protocol_version: int
    # The pinned paths it was built from: every later refusal names the input it blames.
    schema_where: str = "schema/v1/schema.json"
    meta_where: str = "schema/v1/meta.json"

    def method(self, wire: str) -> Method | None:
        return next((m for m in self.methods if m.wire == wire), None)

    def capability(self, root: str, path: str) -> Capability | None:
        return next((c for c in self.capabilities if c.root == root and c.path == path), None)
