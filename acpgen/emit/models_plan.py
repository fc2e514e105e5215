"""Plan the models module: turn the IR into template-ready blocks (enums, aliases, classes).

This module decides *what* is emitted and in which order; ``templates/models/`` decides
*how* every line looks. Nothing here builds Python source: blocks are plain data (names,
type trees, values) that the jinja macros render.

Naming contract (other emitters rely on it): every ``$def`` is importable from
``{package}.models`` under exactly its ``$def`` name, as a class, an enum or a type alias
(``pydantic.TypeAdapter(X)`` works for all of them); attributes are ``Property.py_name``.

Union branch classes (a branch that adds a tag or members to what it is built on) are
public too, named by one rule: ``{Union}{Variant}``, the variant part being the PascalCase
of the branch's tag, else of its title, else of the def it is built on -- never its
position (``ContentBlockText``, ``SessionUpdateAgentMessageChunk``,
``RequestPermissionOutcomeSelected``). When the schema already uses that name for the def
the branch is built on (``AuthMethodTerminal``, ``McpServerHttp``), the branch class is
``{Variant}{Union}`` (``TerminalAuthMethod``, ``HttpMcpServer``). Any other clash -- with a
``$def``, another branch class or a name the module defines -- is a generation error.

The primitive types in annotations have public, documented names (``StrictStr``,
``StrictInt``, ``StrictFloat``, ``StrictBool``, one ``Int64``/``Uint32``/... per integer
format the schema uses, and ``Omittable[X]``, see ``HELPER_NAMES``).

How unions come out (the rest of the contract):

- A union ``$def`` is a type alias (``SessionUpdate``, ``ContentBlock``, ``McpServer``);
  parse it with ``TypeAdapter``. A branch built on an object ``$def`` is a subclass of it
  that adds the tag as a ``Literal`` member: ``ContentBlock``'s ``text`` branch is
  ``ContentBlockText(TextContent)`` with ``type: Literal["text"]``, so ``isinstance(block,
  TextContent)`` holds; ``SessionUpdate``'s ``tool_call`` branch subclasses ``ToolCall``.
  A branch that adds nothing (``McpServer``'s stdio branch) is the ``$def`` class itself.
- The tag member of a branch class is a required member at run time (so it is always on
  the wire, whatever ``exclude_*`` a dump uses, and validation costs nothing extra) with its
  constant as the default for type checkers; construction fills it in
  (``ContentBlockText(text="hi")`` is complete).
- A union whose every branch has a listed tag uses ``Field(discriminator=py_name)``; one
  with a catch-all ("other") or an untagged branch uses a callable ``Discriminator`` whose
  ``Tag`` values are the tags plus the fixed ``"(other)"`` and ``"(untagged)"``.
- Members common to all branches (``SessionConfigOption``'s id/name/...) are repeated on
  every branch class; a branch that is itself a union (``CreateElicitationRequest``'s form
  branch, scoped by session or by request) becomes one class per inner branch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, assert_never

from acpgen.emit.escape import doc_text
from acpgen.emit.type_tree import (
    AnyNode,
    DictOf,
    Disc,
    Kind,
    LeftToRight,
    ListOf,
    Lit,
    Named,
    NoneNode,
    Prim,
    Tagged,
    TaggedMember,
    TypeNode,
    UnionOf,
    names,
    nodes,
)
from acpgen.errors import AcpgenError
from acpgen.ir.formats import INTEGER_FORMATS
from acpgen.ir.naming import MODULE_NAMES, member_name, pascal, snake_case
from acpgen.ir.types import Definition, Property, SchemaIR, Shape, TypeExpr, Variant
from acpgen.ir.visit import def_types, fold, refs, walk_all

_PRIMITIVE_BASES = {
    "string": "StrictStr", "integer": "StrictInt", "number": "StrictFloat", "boolean": "StrictBool",
}
_KW = {
    "minimum": "ge",
    "maximum": "le",
    "minLength": "min_length",
    "maxLength": "max_length",
    "minItems": "min_length",
    "maxItems": "max_length",
    "pattern": "pattern",
}
# Tag() values of the branches that no listed tag names (part of the naming contract).
# Public names the module header defines for annotations (the integer ranges are added per
# format, see int_formats); acpgen.ir.naming refuses a $def by one of these names, and a
# branch class by one of them is refused here.
HELPER_NAMES = frozenset({*_PRIMITIVE_BASES.values(), "Omittable"})
OTHER_TAG = "(other)"  # a catch-all branch: any tag not listed elsewhere
UNTAGGED = "(untagged)"  # the branch used when the tag member is absent


def docstring_text(text: str | None) -> str | None:
    """A description as a docstring states it (``inspect.cleandoc``'s normal form; None when
    empty). Templates write it through the ``doc`` escaping filter."""
    return doc_text(text)


# -- type trees ------------------------------------------------------------------------------


def type_node(t: TypeExpr, where: str, string_formats: Mapping[str, str] | None = None) -> TypeNode:
    """A type as a small typed tree (:mod:`acpgen.emit.type_tree`): spelled by
    :func:`acpgen.emit.type_spelling.spell_type` (the templates' ``ty``), split across lines
    by ``templates/models/_layout.jinja``. ``where``: the schema a refusal names.
    ``string_formats``: a string of one of these ``format`` values is spelled by the name
    given (a profile's own annotation type, e.g. ``uri``; none in the default output)."""

    def node(t: TypeExpr, items: TypeNode | None, variants: tuple[TypeNode, ...]) -> TypeNode:
        match t.kind:
            case "ref":
                return Named(t.name or "")
            case "primitive":
                base = _PRIMITIVE_BASES[t.name or ""]
                if t.name == "string" and string_formats and t.format is not None and t.format in string_formats:
                    base = string_formats[t.format]
                kw = _constraints(t)
                if t.name == "integer" and t.format in INTEGER_FORMATS:
                    # A named range per format (``Uint32``), plus any tighter schema bound.
                    lo, hi = INTEGER_FORMATS[t.format]
                    base = int_format_name(t.format)
                    kw = tuple((k, v) for k, v in kw if (k == "ge" and v > lo) or (k == "le" and v < hi))
                return Prim(base, kw)
            case "array":
                return ListOf(items or AnyNode(), _constraints(t))
            case "map":
                return DictOf(items or AnyNode())
            case "union":
                return UnionOf(variants)
            case "const":
                return Lit(t.value)
            case "null":
                return NoneNode()
            case "any":
                return AnyNode()
        # An inline object with properties: only a $def becomes a class.
        raise AcpgenError(where, f"models: cannot map type kind {t.kind!r}")

    return fold(t, node)


def int_format_name(fmt: str) -> str:
    return pascal(fmt).capitalize()


@dataclass(frozen=True)
class IntRange:
    """A named integer range the models module defines (``Uint32 = Annotated[int, ...]``)."""

    name: str
    ge: int
    le: int


def int_formats(ir: SchemaIR | None = None) -> list[IntRange]:
    """The named integer ranges the module header defines (``Int32``, ``Uint64``, ...):
    those the schema uses (all of them without an IR)."""
    used = set(INTEGER_FORMATS) if ir is None else _used_formats(ir)
    return [IntRange(int_format_name(f), lo, hi) for f, (lo, hi) in sorted(INTEGER_FORMATS.items()) if f in used]


def _used_formats(ir: SchemaIR) -> set[str]:
    # An open enum's catch-all range is written out on the enum (``open_limits``), so it
    # needs no named range of its own.
    return {
        t.format
        for d in ir.defs.values()
        for t in walk_all(t for t in def_types(d) if t is not d.catch_all)
        if t.kind == "primitive" and t.name == "integer" and t.format
    }


def _constraints(t: TypeExpr) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((_KW[k], v) for k, v in t.constraints if k in _KW))


# -- blocks ----------------------------------------------------------------------------------


DEFAULT_ON_ERROR = "x-deserialize-default-on-error"
SKIP_INVALID_ITEMS = "x-deserialize-skip-invalid-items"


@dataclass(frozen=True)
class LenientMarker:
    """A member's leniency markers, as its class lists them (``__acp_lenient__``)."""

    default_on_error: bool
    skip: bool  # skip invalid items (of an array)
    stated: bool  # a default is stated here (else the model's own default applies)
    default: Any  # that default, a JSON value


def lenient_marker(p: Property) -> LenientMarker | None:
    """The member's ``x-deserialize-*`` markers, or None when it has none. A required member
    marked default-on-error has no model default to fall back on: the schema's, or the empty
    array (what serde's Default gives the official Rust SDK)."""
    marks = dict(p.annotations)
    default_on_error = marks.get(DEFAULT_ON_ERROR) is True
    skip = marks.get(SKIP_INVALID_ITEMS) is True
    if not (default_on_error or skip):
        return None
    stated, default = False, None
    if default_on_error and p.required:
        if p.has_default:
            stated, default = True, p.default
        elif p.type.kind == "array":
            stated, default = True, []
    return LenientMarker(default_on_error, skip, stated, default)


def lenient_doc(f: FieldSpec) -> str | None:
    """The member's docstring line about its markers (None without markers)."""
    m = f.lenient
    if m is None:
        return None
    said = []
    if m.default_on_error:
        if m.stated:
            what = f"reads as `{_json_text(m.default)}`"
        elif f.has_default:
            what = "reads as its default"
        else:
            what = "reads as absent"
        said.append(f"an invalid value {what} (`{DEFAULT_ON_ERROR}`)")
    if m.skip:
        said.append(f"an invalid item dropped (`{SKIP_INVALID_ITEMS}`)")
    # What "read leniently" means is said once, in the module docstring.
    return "Read leniently: " + "; ".join(said) + "."


def _json_text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=True, sort_keys=True)


@dataclass(frozen=True)
class FieldSpec:
    py_name: str
    alias: str | None
    type: TypeNode
    nullable: bool  # null is a valid value
    required: bool
    omit_only: bool  # optional but not nullable: absent is fine, explicit null is not
    has_default: bool
    default: Any
    validate_default: bool
    description: str | None
    tag: bool = False  # a union branch's tag: required at run time, defaulted for type checkers
    lenient: LenientMarker | None = None  # the schema's x-deserialize-* markers
    lenient_doc: str | None = None  # what they do, the member's docstring


class BlockKind(StrEnum):
    """What a block of the models module defines (the templates test ``b.kind``)."""

    CLASS = "class"
    ENUM = "enum"
    OPEN_ENUM = "open_enum"  # an enum that also accepts any value of its base type
    ALIAS = "alias"  # a type alias (a union, a named primitive, any)


@dataclass(frozen=True)
class EnumMember:
    name: str  # its Python name (acpgen.ir.naming.member_name)
    value: Any  # its wire value: a string or an integer
    doc: str | None


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    name: str
    doc: str | None
    public: bool
    deps: set[str] = field(default_factory=set)  # names that must be defined first
    lazy: set[str] = field(default_factory=set)  # names only used in annotations
    bases: list[str] = field(default_factory=list)
    fields: list[FieldSpec] = field(default_factory=list)
    members: list[EnumMember] = field(default_factory=list)  # enums
    base: str | None = None  # enum value type: str | int
    type: TypeNode | None = None  # alias target
    open_limits: list[tuple[str, Any]] = field(default_factory=list)
    # (member, coercion): a profile's per-member coercions (none in the default output).
    coercions: tuple[tuple[str, str], ...] = ()
    # A class's constructor as type checkers see it (every member, inherited ones first).
    init: list[InitParam] = field(default_factory=list)


@dataclass(frozen=True)
class InitParam:
    """One keyword parameter of a class's ``__init__`` for type checkers: its Python name,
    its type, whether None is accepted (every optional member: None means absent where the
    schema allows no null, null where it does) and whether it may be left out."""

    py_name: str
    type: TypeNode
    or_none: bool
    optional: bool


def init_params(fields: list[FieldSpec]) -> list[InitParam]:
    return [
        InitParam(
            py_name=f.py_name,
            type=f.type,
            or_none=(f.nullable or not f.required) and not f.tag and f.type.k != "any",
            optional=not f.required or f.tag,
        )
        for f in fields
    ]


@dataclass(frozen=True)
class Entry:
    """One member of a union: a class, or a nested union of classes, or a bare type."""

    tag: str | None  # Tag() value for a callable discriminator
    classes: list[str]  # 1 class, or several (a branch that is itself a union)
    title: str | None = None  # the branch's schema title
    type: TypeNode | None = None  # a bare type branch


def field_spec(p: Property, where: str, tag: Any = None, string_formats: Mapping[str, str] | None = None) -> FieldSpec:
    typ = Lit(tag) if tag is not None else type_node(p.type, where, string_formats)
    is_any = p.type.kind == "any"
    validate_default = p.has_default and (
        isinstance(p.default, (dict, list)) or p.type.kind == "ref"
    )
    spec = FieldSpec(
        py_name=p.py_name,
        alias=p.wire_name if p.wire_name != p.py_name else None,
        type=typ,
        nullable=p.nullable and not is_any,
        required=p.required,
        omit_only=not p.required and not p.nullable and not p.has_default and not is_any,
        has_default=p.has_default,
        default=p.default,
        validate_default=validate_default,
        description=p.description,
        tag=tag is not None,
        lenient=None if tag is not None else lenient_marker(p),
    )
    return replace(spec, lenient_doc=lenient_doc(spec))


def _tag_field(wire: str, value: Any) -> Property:
    return Property(
        wire_name=wire,
        py_name=snake_case(wire),
        type=TypeExpr("const", value=value),
        required=True,
        nullable=False,
        has_default=False,
        default=None,
        description=None,
    )


class Planner:
    def __init__(self, ir: SchemaIR, string_formats: Mapping[str, str] | None = None) -> None:
        self.ir = ir
        self.string_formats = dict(string_formats or {})  # type_node's: a profile's annotation types
        self.defs = ir.defs
        self.blocks: dict[str, Block] = {}
        self.entries: dict[str, list[Entry]] = {}  # union def -> its members
        self.format_names = frozenset(f.name for f in int_formats(ir))
        self.origins: dict[str, str] = {}  # branch class -> the variant it was named for

    # -- public --------------------------------------------------------------------------

    def plan(self) -> list[Block]:
        # Def names were proved class names by the IR (acpgen.ir.naming.def_class_name).
        for name, d in self.defs.items():
            self.plan_def(name, d)
        for name in list(self.blocks):
            if self.blocks[name].kind == BlockKind.CLASS:
                self.blocks[name] = replace(self.blocks[name], init=init_params(self.all_fields(name)))
        return self.ordered()

    def all_fields(self, name: str) -> list[FieldSpec]:
        """A class's members in pydantic's order: its bases' first, a redefined one in the
        place it first had, with the type the subclass gives it."""
        block = self.blocks[name]
        merged: dict[str, FieldSpec] = {}
        for base in block.bases:
            if base in self.blocks:
                merged.update((f.py_name, f) for f in self.all_fields(base))
        merged.update((f.py_name, f) for f in block.fields)
        return list(merged.values())

    def plan_def(self, name: str, d: Definition) -> None:
        if name in self.blocks:
            return
        match d.shape:
            case Shape.OBJECT:
                self.add(self.object_block(d))
            case Shape.ENUM:
                self.add(self.enum_block(d))
            case Shape.OPEN_ENUM:
                self.add(self.open_enum_block(d))
            case Shape.PRIMITIVE:
                self.add(self.alias(name, d.description, type_node(d.primitive or TypeExpr("any"), self.ir.schema_where, self.string_formats)))
            case Shape.ANY:
                self.add(self.alias(name, d.description, AnyNode()))
            case Shape.UNION | Shape.TAGGED_UNION:
                self.union_block(d)
            case _:
                assert_never(d.shape)

    # -- blocks ----------------------------------------------------------------------------

    def add(self, block: Block) -> None:
        # A member must not rebind a name its class's annotations are spelled with (the IR
        # names members per def; a branch class combines members of several nodes).
        spelled: set[str] = set()
        for f in block.fields:
            spelled |= _spelled_with(f.type)
        clash = sorted({f.py_name for f in block.fields} & spelled)
        if clash:
            raise AcpgenError(self.ir.schema_where, f"models: class {block.name} would have a member "
                              f"{clash[0]!r} hiding the type of that name its other members use")
        self.blocks[block.name] = block

    def alias(self, name: str, doc: str | None, typ: TypeNode) -> Block:
        return Block(kind=BlockKind.ALIAS, name=name, doc=docstring_text(doc), public=True, type=typ,
                     deps=names(typ))

    def object_block(self, d: Definition) -> Block:
        fields = [field_spec(p, self.ir.schema_where, string_formats=self.string_formats) for p in d.properties]
        lazy: set[str] = set()
        for p in d.properties:
            lazy |= refs(p.type)
        return Block(kind=BlockKind.CLASS, name=d.name, doc=docstring_text(d.description), public=True,
                     bases=["_Model"], fields=fields, lazy=lazy)

    def enum_block(self, d: Definition) -> Block:
        base = "int" if d.enum_base == "integer" else "str"
        members = [EnumMember(member_name(m.value, m.title), m.value, docstring_text(m.description))
                   for m in d.enum_members]
        return Block(kind=BlockKind.ENUM, name=d.name, doc=docstring_text(d.description), public=True,
                     members=members, base=base)

    def open_enum_block(self, d: Definition) -> Block:
        catch = d.catch_all or TypeExpr("primitive", name=d.enum_base)
        limits = dict(_constraints(catch))
        if catch.name == "integer" and catch.format in INTEGER_FORMATS:
            lo, hi = INTEGER_FORMATS[catch.format]
            limits["ge"] = max(lo, limits.get("ge", lo))
            limits["le"] = min(hi, limits.get("le", hi))
        return replace(self.enum_block(d), kind=BlockKind.OPEN_ENUM, open_limits=sorted(limits.items()))

    # -- unions ------------------------------------------------------------------------------

    def union_block(self, d: Definition) -> None:
        entries = self.union_entries(d)
        self.entries[d.name] = entries
        disc = d.discriminator
        disc_prop = None
        if disc:
            disc_prop = snake_case(disc)
        simple = (
            disc is not None
            and all(e.tag is not None and e.tag not in (OTHER_TAG, UNTAGGED) for e in entries)
            and all(len(e.classes) == 1 and e.type is None for e in entries)
        )
        typ: TypeNode
        if disc is None or d.shape == Shape.UNION:
            members = tuple(_entry_type(e) for e in entries)
            typ = members[0] if len(members) == 1 else UnionOf(members)
        elif simple:
            typ = Disc(str(disc_prop), tuple(Named(e.classes[0]) for e in entries))
        else:
            typ = self.tagged(disc, str(disc_prop), entries)
        self.add(self.alias(d.name, d.description, typ))

    def tagged(self, disc: str, attr: str, entries: list[Entry]) -> Tagged:
        """A union told apart by a callable discriminator: the listed tags, plus the fixed
        Tag() of a catch-all / untagged branch ("(other)" / "(untagged)": other emitters,
        the generated requirement checks, recognise branches by them)."""
        known = tuple(sorted(str(e.tag) for e in entries if e.tag not in (OTHER_TAG, UNTAGGED)))
        other = OTHER_TAG if any(e.tag == OTHER_TAG for e in entries) else None
        default = UNTAGGED if any(e.tag == UNTAGGED for e in entries) else None
        # The one error pydantic reports for a bad tag (text; the template writes it as a literal).
        message = (f"'{disc}' must be one of {', '.join(known)}"
                   + (" (or another string)" if other else "") + (" or absent" if default else ""))
        # An untagged branch (anyOf) also accepts objects that carry a tag of another branch
        # but not its body: the schema admits them, so each tagged branch falls back to the
        # untagged one, tried in order (first the branch the tag names).
        fallback = next((e for e in entries if e.tag == UNTAGGED), None)
        members = []
        for e in entries:
            tag = e.tag or ""
            branch = _entry_type(e)
            if fallback is not None and tag != default:
                branch = LeftToRight((branch, _entry_type(fallback)))
            members.append(TaggedMember(tag, branch))
        return Tagged(wire=disc, attr=attr, known=known, other=other, default=default, message=message,
                      members=tuple(members))

    def union_entries(self, d: Definition) -> list[Entry]:
        entries: list[Entry] = []
        common = list(d.properties)
        for index, v in enumerate(d.variants):
            tag: str | None
            if v.catch_all:
                tag = OTHER_TAG
            elif v.tag is not None:
                tag = str(v.tag)
            elif d.discriminator:
                tag = UNTAGGED
            else:
                tag = None
            own = list(common) + list(v.properties)
            if v.tag is not None and d.discriminator:
                own.append(_tag_field(d.discriminator, v.tag))
            source = str(v.tag) if v.tag is not None else (v.title or v.ref or "")
            suffix = pascal(source) or (source.encode("utf-8").hex().upper() if source else "")
            if not suffix:
                raise AcpgenError(self.ir.schema_where, f"{d.pointer}: variant {index} has no tag, title or $ref to name it by")
            # The classes this branch is built on.
            bases: list[tuple[str, str]]  # (base class, name suffix)
            if v.ref is not None:
                bases = self.bases_of(v.ref, d)
            elif v.inline is not None and not own:
                entries.append(Entry(tag=tag, title=v.title, classes=[], type=type_node(v.inline, self.ir.schema_where, self.string_formats)))
                continue
            else:
                nested = self.nested_bases(d, v, index)
                bases = [(b, sfx) for ref, sfx in nested for b, _ in self.bases_of(ref, d)] or [("_Model", "")]
            if not own and all(b != "_Model" for b, _ in bases):
                entries.append(Entry(tag=tag, title=v.title, classes=[b for b, _ in bases]))
                continue
            classes = []
            for base, inner in bases:
                cls = self.branch_name(d, suffix + inner, base)
                origin = f"{d.pointer}/{d.union_keyword}/{index}"
                if self.origins.setdefault(cls, origin) != origin:
                    raise AcpgenError(self.ir.schema_where, f"{d.pointer}: {self.origins[cls]} and {origin} both "
                                      f"map to the class name {cls}")
                where = self.ir.schema_where
                fields = [field_spec(p, where, string_formats=self.string_formats) for p in own if p.type.kind != "const"]
                fields += [field_spec(p, where, tag=p.type.value) for p in own if p.type.kind == "const"]
                lazy: set[str] = set()
                for p in own:
                    lazy |= refs(p.type)
                deps = {base} if base != "_Model" else set()
                self.add(Block(kind=BlockKind.CLASS, name=cls, doc=docstring_text(v.description), public=True,
                               bases=[base], fields=_dedupe(fields), deps=deps, lazy=lazy))
                classes.append(cls)
            entries.append(Entry(tag=tag, title=v.title, classes=classes))
        return entries

    def branch_name(self, union: Definition, variant: str, base: str) -> str:
        """``{Union}{Variant}``; ``{Variant}{Union}`` when the schema gave the first name to
        the def the branch is built on; any other clash is refused (module docstring)."""
        name = f"{union.name}{variant}"
        if name == base:
            name = f"{variant}{union.name}"
        if name in self.origins:
            return name  # another variant's name: reported with both origins by the caller
        taken = (
            name in self.defs
            or name in self.blocks
            or name in MODULE_NAMES
            or name in HELPER_NAMES
            or name in self.format_names
        )
        if taken:
            raise AcpgenError(self.ir.schema_where, f"{union.pointer}: the branch class name {name!r} of "
                              f"{union.name} is already taken (rename the branch's tag or title)")
        return name

    def bases_of(self, ref: str, user: Definition) -> list[tuple[str, str]]:
        """The classes a branch referring to ``ref`` extends: the def itself when it is an
        object, or each member class of a union def (the branch is then a nested union)."""
        target = self.defs[ref]
        if target.shape == Shape.OBJECT:
            return [(ref, "")]
        if target.shape in (Shape.UNION, Shape.TAGGED_UNION):
            self.plan_def(ref, target)
            out: list[tuple[str, str]] = []
            for e in self.entries[ref]:
                if e.type is not None:
                    raise AcpgenError(self.ir.schema_where, f"{user.pointer}: branch on {ref} is not an object")
                for cls in e.classes:
                    out.append((cls, cls[len(ref) :] if cls.startswith(ref) and cls != ref else cls))
            return out
        raise AcpgenError(self.ir.schema_where, f"{user.pointer}: a union branch refers to {ref} ({target.shape})")

    def nested_bases(self, d: Definition, v: Variant, index: int) -> list[tuple[str, str]]:
        """(def, class-name suffix) for each member of a branch that is itself a union."""
        out = []
        for n in v.nested:
            if n.ref is None:
                raise AcpgenError(self.ir.schema_where, f"{d.pointer}: nested branch of variant {index} has no $ref")
            out.append((n.ref, pascal(n.title or n.ref)))
        return out

    # -- order -------------------------------------------------------------------------------

    def ordered(self) -> list[Block]:
        """Definition order: schema order, each block after what it needs at import time
        (bases, alias members); annotation-only references come first where possible."""
        out: list[Block] = []
        done: set[str] = set()
        active: set[str] = set()

        def visit(name: str, eager: bool) -> None:
            if name in done or name not in self.blocks:
                return
            if name in active:
                if eager:
                    raise AcpgenError(self.ir.schema_where, f"models: import-time cycle through {name}")
                return
            active.add(name)
            block = self.blocks[name]
            for dep in sorted(block.deps):
                visit(dep, True)
            for dep in sorted(block.lazy):
                visit(dep, False)
            active.discard(name)
            done.add(name)
            out.append(block)

        for name in list(self.blocks):
            visit(name, True)
        return out


def _entry_type(e: Entry) -> TypeNode:
    if e.type is not None:
        return e.type
    if len(e.classes) == 1:
        return Named(e.classes[0])
    return UnionOf(tuple(Named(c) for c in e.classes))


def _spelled_with(typ: TypeNode) -> set[str]:
    """The names a type's spelling uses: its own, and the builtins that spell lists and maps."""
    found = names(typ)
    for n in nodes(typ):
        if n.k == Kind.LIST:
            found.add("list")
        elif n.k == Kind.DICT:
            found |= {"dict", "str"}
    return found


def _dedupe(fields: list[FieldSpec]) -> list[FieldSpec]:
    """A branch may restate a common member; the later (more specific) statement wins."""
    by_name: dict[str, FieldSpec] = {}
    for f in fields:
        by_name[f.py_name] = f
    return list(by_name.values())


def plan_models(ir: SchemaIR, string_formats: Mapping[str, str] | None = None) -> list[Block]:
    return Planner(ir, string_formats).plan()
