"""Stage 2, ir: build the IR (``acpgen.ir.types``) from the verified schema and meta.json.

Everything the schema leaves implicit is decided here, once: the shape of each def, which
union is tagged by what, which def is a method's params or result, and the capability tree.
Anything that cannot be classified is an error naming the def, never a silent fallback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Literal

from acpgen.errors import AcpgenError, json_pointer
from acpgen.ir.envelopes import envelope_refs
from acpgen.ir.naming import (
    NamingError,
    def_class_name,
    field_names,
    member_name,
    method_py_name,
    unique,
)
from acpgen.ir.patterns import pattern_problem
from acpgen.ir.types import (
    Capability,
    Definition,
    EnumMember,
    Method,
    NestedBranch,
    Property,
    SchemaIR,
    Shape,
    TypeExpr,
    Variant,
)
from acpgen.ir.visit import refs, walk

_PRIMITIVES = ("string", "integer", "number", "boolean")
_CONSTRAINT_KEYS = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern")
_REF_PREFIX = "#/$defs/"
# Keywords that only annotate a node: an untyped node holding nothing else is "any JSON value".
_ANNOTATION_KEYS = frozenset({
    "description", "title", "default", "examples", "$comment", "deprecated", "readOnly",
    "writeOnly", "format",
})
# meta.json's method groups and the side that handles each.
METHOD_GROUPS = {"agentMethods": "agent", "clientMethods": "client", "protocolMethods": "protocol"}
# The envelope defs whose ``params`` / ``result`` unions tie annotated types to methods.
_CAPABILITY_ROOTS = (("agent", "AgentCapabilities"), ("client", "ClientCapabilities"))


def build_ir(
    schema: dict[str, Any],
    meta: dict[str, Any],
    schema_where: str = "schema/v1/schema.json",
    meta_where: str = "schema/v1/meta.json",
) -> SchemaIR:
    defs_raw = schema.get("$defs")
    if not isinstance(defs_raw, dict) or not defs_raw:
        raise AcpgenError(schema_where, "no $defs")
    check_refs(schema, set(defs_raw), schema_where)
    for name in defs_raw:
        try:
            def_class_name(name)
        except NamingError as exc:
            raise AcpgenError(schema_where, f"{json_pointer('$defs', name)}: {exc}") from None
    builder = _Builder(defs_raw, schema_where)
    defs = {name: builder.definition(name, node) for name, node in defs_raw.items()}
    methods = _methods(schema, defs, meta, schema_where, meta_where)
    capabilities = _capabilities(defs, schema_where)
    version = meta.get("version")
    if "version" not in meta:
        raise AcpgenError(meta_where, "/version: missing (the protocol version, an integer)")
    if isinstance(version, bool) or not isinstance(version, int):
        shown = json.dumps(version)[:40] if isinstance(version, (bool, int, float, str, type(None))) \
            else type(version).__name__
        raise AcpgenError(meta_where, f"/version: must be an integer (the protocol version), not {shown}")
    if not 1 <= version <= 2**31 - 1:
        raise AcpgenError(meta_where, f"/version: {version} is not a protocol version (1 to 2147483647)")
    return SchemaIR(
        title=str(schema.get("title", "")),
        defs=defs,
        methods=methods,
        capabilities=capabilities,
        protocol_version=version,
        schema_where=schema_where,
        meta_where=meta_where,
    )


def check_refs(node: Any, names: set[str], where: str, pointer: str = "") -> None:
    """Every ``$ref`` must point at an existing ``#/$defs/NAME``."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref is not None:
            if not isinstance(ref, str) or not ref.startswith(_REF_PREFIX):
                raise AcpgenError(where, f"unsupported $ref {ref!r} at {pointer or '/'}")
            if ref[len(_REF_PREFIX) :] not in names:
                raise AcpgenError(where, f"unknown $ref {ref!r} at {pointer or '/'}: no such def")
        for key, value in node.items():
            check_refs(value, names, where, f"{pointer}/{_escape(key)}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            check_refs(value, names, where, f"{pointer}/{i}")


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def ref_name(node: dict[str, Any]) -> str | None:
    """The def a node stands for: ``{"$ref"}`` or a lone ``{"allOf": [{"$ref"}]}``."""
    if "$ref" in node:
        return str(node["$ref"])[len(_REF_PREFIX) :]
    all_of = node.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and "$ref" in all_of[0]:
        return str(all_of[0]["$ref"])[len(_REF_PREFIX) :]
    return None


def annotation_names(t: TypeExpr) -> set[str]:
    """The names a member annotated with ``t`` is spelled with in the models module (classes
    and the builtins ``list``/``dict``/``str``)."""
    found = set(refs(t))
    for node in walk(t):
        if node.kind == "array":
            found.add("list")
        elif node.kind == "map":
            found |= {"dict", "str"}
    return found


def _annotations(node: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, v) for k, v in node.items() if k.startswith("x-")))


class _Builder:
    def __init__(self, defs: dict[str, Any], where: str) -> None:
        self.raw = defs
        self.where = where

    # -- types -----------------------------------------------------------------------------

    def fail(self, at: str, problem: str) -> AcpgenError:
        return AcpgenError(self.where, f"{at or '/'}: {problem}")

    def type_of(self, node: dict[str, Any], at: str) -> tuple[TypeExpr, bool]:
        """The type of a schema node and whether it admits null."""
        if not isinstance(node, dict):
            raise self.fail(at, "expected an object schema")
        name = ref_name(node)
        if name is not None:
            return TypeExpr("ref", name=name), False
        if "allOf" in node:
            return self.type_of(self.merged_all_of(node, at), at)
        if "const" in node:
            return TypeExpr("const", value=self.literal(node["const"], f"{at}/const"),
                            name=node.get("type") if isinstance(node.get("type"), str) else None), False
        for key in ("anyOf", "oneOf"):
            if key in node and "type" not in node and "properties" not in node:
                members = node[key]
                nullable = any(m == {"type": "null"} for m in members)
                rest = [m for m in members if m != {"type": "null"}]
                types = tuple(self.type_of(m, f"{at}/{key}")[0] for m in rest)
                if len(types) == 1:
                    return types[0], nullable
                return TypeExpr("union", variants=types), nullable
        typ = node.get("type")
        nullable = False
        if isinstance(typ, list):
            nullable = "null" in typ
            rest = [t for t in typ if t != "null"]
            if len(rest) != 1:
                raise self.fail(f"{at}/type", f"unsupported type list {typ}")
            typ = rest[0]
        constraints = tuple((k, node[k]) for k in _CONSTRAINT_KEYS if k in node)
        if "pattern" in node:
            self.check_pattern(node["pattern"], f"{at}/pattern")
        if "enum" in node:
            values = list(node["enum"])
            if None in values:
                nullable = True
                values = [v for v in values if v is not None]
            base = self.enum_base(values, typ, f"{at}/enum")
            if not values:
                return TypeExpr("null"), True
            return TypeExpr("union", variants=tuple(
                TypeExpr("const", value=v, name=base) for v in values
            )), nullable
        if typ in _PRIMITIVES:
            return TypeExpr("primitive", name=typ, format=node.get("format"),
                            constraints=constraints), nullable
        if typ == "null":
            return TypeExpr("null"), True
        if typ == "array":
            items = node.get("items", {})
            return TypeExpr("array", items=self.type_of(items, f"{at}/items")[0],
                            constraints=constraints), nullable
        if typ == "object":
            if "properties" in node:
                return TypeExpr("object"), nullable
            extra = node.get("additionalProperties", True)
            values_t = TypeExpr("any") if extra in (True, {}) else self.type_of(extra, f"{at}/additionalProperties")[0]
            return TypeExpr("map", items=values_t), nullable
        if typ is None:
            unmodelled = sorted(k for k in node if k not in _ANNOTATION_KEYS and not k.startswith("x-"))
            if unmodelled:
                raise self.fail(at, f"untyped schema with {', '.join(map(repr, unmodelled))}: "
                                "acpgen does not model it (and will not widen it to Any)")
            # No type, no $ref, no union: any JSON value (rawInput, data, extension payloads).
            return TypeExpr("any"), True
        raise self.fail(f"{at}/type", f"unsupported type {typ!r}")

    def merged_all_of(self, node: dict[str, Any], at: str) -> dict[str, Any]:
        """``allOf`` without a lone ``$ref``: its members and the node's own keywords merged,
        when no keyword is stated twice (then the conjunction is just the union of keywords)."""
        members = node["allOf"]
        merged = {k: v for k, v in node.items() if k != "allOf"}
        for i, member in enumerate(members):
            if not isinstance(member, dict):
                raise self.fail(f"{at}/allOf/{i}", "expected an object schema")
            for key, value in member.items():
                if key in _ANNOTATION_KEYS and key in merged:
                    continue
                if key in merged or key == "$ref":
                    raise self.fail(f"{at}/allOf/{i}", f"allOf states {key!r} again (or combines "
                                    "a $ref with other members): acpgen does not model that")
                merged[key] = value
        return merged

    def literal(self, value: Any, at: str) -> Any:
        """A const value must be a ``Literal``-able JSON scalar (string, integer, boolean, null)."""
        if isinstance(value, (dict, list, float)):
            raise self.fail(at, f"const {type(value).__name__} value is not modelled "
                            "(a Literal holds strings, integers, booleans and null)")
        return value

    def enum_base(self, values: list[Any], declared: Any, at: str) -> str:
        """``string`` or ``integer``: what every value is (an untyped enum is typed by its
        values); anything else is refused, never widened."""
        if values and all(isinstance(v, str) for v in values):
            base = "string"
        elif values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            base = "integer"
        elif not values:
            base = declared if declared in ("string", "integer") else "string"
        else:
            raise self.fail(at, "enum values must be all strings or all integers (others are not modelled)")
        if declared not in (None, base) and not (declared == "number" and base == "integer"):
            raise self.fail(at, f"enum values are {base}s but the type is {declared!r}")
        if len({(type(v), v) for v in values}) != len(values):
            raise self.fail(at, "enum lists a value twice")
        return base

    def check_pattern(self, pattern: Any, at: str) -> None:
        problem = pattern_problem(pattern) if isinstance(pattern, str) else "not a string"
        if problem is not None:
            raise self.fail(at, f"pattern {pattern!r} cannot be enforced by pydantic's regex engine: {problem}")

    def properties(self, node: dict[str, Any], at: str) -> tuple[Property, ...]:
        required = set(node.get("required", []))
        typed = [
            (wire, pnode, *self.type_of(pnode, at + json_pointer("properties", wire)))
            for wire, pnode in node.get("properties", {}).items()
        ]
        used: set[str] = set()
        for _, _, typ, _ in typed:
            used |= annotation_names(typ)
        props = []
        for (wire, pnode, typ, nullable), py_name in zip(
            typed, field_names((t[0] for t in typed), used), strict=True
        ):
            default = pnode.get("default")
            props.append(
                Property(
                    wire_name=wire,
                    py_name=py_name,
                    type=typ,
                    required=wire in required,
                    nullable=nullable,
                    has_default="default" in pnode,
                    default=default,
                    description=pnode.get("description"),
                    annotations=_annotations(pnode),
                )
            )
        try:
            unique(((p.wire_name, p.py_name) for p in props), "properties")
        except NamingError as exc:
            raise self.fail(at + "/properties", str(exc)) from None
        return tuple(props)

    # -- defs ------------------------------------------------------------------------------

    def definition(self, name: str, node: dict[str, Any]) -> Definition:
        at = json_pointer("$defs", name)
        if not isinstance(node, dict):
            raise self.fail(at, "expected an object schema")
        if "allOf" in node and ref_name(node) is None:
            node = self.merged_all_of(node, at)
        common: dict[str, Any] = {
            "name": name,
            "description": node.get("description"),
            "pointer": at,
            "x_side": node.get("x-side"),
            "x_method": node.get("x-method"),
            "annotations": _annotations(node),
        }
        if "pattern" in node:
            self.check_pattern(node["pattern"], f"{at}/pattern")
        union_key = "oneOf" if "oneOf" in node else "anyOf" if "anyOf" in node else None
        if "enum" in node:
            typ = node.get("type")
            if isinstance(typ, list) or None in node["enum"]:
                raise self.fail(at, "a nullable enum $def is not modelled (make the members that "
                                "use it nullable instead)")
            enum_base = self.enum_base(list(node["enum"]), typ, f"{at}/enum")
            members = tuple(EnumMember(v, None, None) for v in node["enum"])
            self.member_names(members, at)
            return Definition(shape=Shape.ENUM, enum_members=members, enum_base=enum_base, **common)
        if "const" in node and union_key is None:
            const, _ = self.type_of(node, at)
            return Definition(shape=Shape.PRIMITIVE, primitive=const, **common)
        if union_key:
            members = node[union_key]
            enum = self._enum(members, f"{at}/{union_key}")
            if enum is not None:
                shape, values, base, catch = enum
                self.member_names(values, at)
                return Definition(shape=shape, enum_members=values, enum_base=base,
                                  catch_all=catch, union_keyword=union_key, **common)
            variants = tuple(self._variant(m, f"{at}/{union_key}/{i}") for i, m in enumerate(members))
            disc = self._discriminator(node, variants)
            props = self.properties(node, at) if node.get("type") == "object" else ()
            return Definition(
                shape=Shape.TAGGED_UNION if disc else Shape.UNION,
                discriminator=disc,
                variants=variants,
                union_keyword=union_key,
                properties=props,
                required=tuple(node.get("required", [])),
                **common,
            )
        typ = node.get("type")
        if typ == "object":
            extra = node.get("additionalProperties")
            return Definition(
                shape=Shape.OBJECT,
                properties=self.properties(node, at),
                required=tuple(node.get("required", [])),
                additional_properties=None if extra is None else bool(extra),
                **common,
            )
        if typ in _PRIMITIVES or typ == "array":
            return Definition(shape=Shape.PRIMITIVE, primitive=self.type_of(node, at)[0], **common)
        if not any(k in node for k in ("type", "$ref", "allOf", "properties")):
            self.type_of(node, at)  # refuses keywords it does not model
            return Definition(shape=Shape.ANY, **common)
        raise self.fail(at, f"cannot classify def {name!r}")

    def member_names(self, members: tuple[EnumMember, ...], at: str) -> None:
        """Enum members become constants named after their value (or title): distinct ones."""
        try:
            unique(((str(m.value), member_name(m.value, m.title)) for m in members), "enum values")
        except NamingError as exc:
            raise self.fail(at, str(exc)) from None

    def _enum(
        self, members: list[dict[str, Any]], at: str
    ) -> tuple[Shape, tuple[EnumMember, ...], str | None, TypeExpr | None] | None:
        for i, m in enumerate(members):
            if not isinstance(m, dict):
                raise self.fail(f"{at}/{i}", "expected an object schema (boolean schemas are not modelled)")
        consts = [m for m in members if "const" in m]
        others = [m for m in members if "const" not in m]
        if not consts:
            return None
        bases = [m.get("type") for m in consts]
        if any(b != bases[0] for b in bases) or bases[0] not in ("string", "integer"):
            return None
        base = str(bases[0])
        values = tuple(EnumMember(m["const"], m.get("title"), m.get("description")) for m in consts)
        self.enum_base([v.value for v in values], base, at)
        if not others:
            return Shape.ENUM, values, base, None
        if len(others) == 1 and others[0].get("type") == base and "properties" not in others[0]:
            catch = self.type_of(others[0], at)[0]
            return Shape.OPEN_ENUM, values, base, catch
        return None

    def _variant(self, node: dict[str, Any], at: str) -> Variant:
        ref = ref_name(node) if "properties" not in node else self._allof_ref(node)
        props = self.properties(node, at) if "properties" in node else ()
        tag = None
        for p in props:
            if p.required and p.type.kind == "const":
                tag = p.type.value
        # The schema marks a catch-all ("other") branch by excluding every known tag with ``not``.
        catch_all = "not" in node
        inline = None
        if ref is None and not props:
            inline = self.type_of(node, at)[0]
        nested: tuple[NestedBranch, ...] = ()
        if ref is None:
            nested = tuple(_nested_branch(m) for m in node.get("anyOf", node.get("oneOf", [])))
        return Variant(
            ref=ref,
            tag=tag,
            title=node.get("title"),
            description=node.get("description"),
            catch_all=catch_all,
            inline=inline,
            properties=tuple(p for p in props if p.type.kind != "const"),
            nested=nested,
        )

    @staticmethod
    def _allof_ref(node: dict[str, Any]) -> str | None:
        all_of = node.get("allOf")
        if isinstance(all_of, list) and len(all_of) == 1 and "$ref" in all_of[0]:
            return str(all_of[0]["$ref"])[len(_REF_PREFIX) :]
        return None

    def _discriminator(self, node: dict[str, Any], variants: tuple[Variant, ...]) -> str | None:
        """The property every tagged branch pins to a const (``discriminator`` if declared)."""
        declared = node.get("discriminator")
        if isinstance(declared, dict) and isinstance(declared.get("propertyName"), str):
            return str(declared["propertyName"])
        tagged = [v for v in variants if v.tag is not None]
        if len(tagged) < 1 or len(tagged) < len([v for v in variants if not v.catch_all]) - 1:
            return None
        keys: set[str] = set()
        for m in node.get("oneOf", node.get("anyOf", [])):
            for wire, p in m.get("properties", {}).items():
                if "const" in p and wire in m.get("required", []):
                    keys.add(wire)
        return next(iter(keys)) if len(keys) == 1 else None


def _nested_branch(node: dict[str, Any]) -> NestedBranch:
    """A member of a branch's own union: the def it extends (its last ``allOf`` ``$ref``,
    else its ``$ref``) and its title."""
    ref = None
    for part in node.get("allOf", []):
        if isinstance(part, dict) and "$ref" in part:
            ref = str(part["$ref"])[len(_REF_PREFIX) :]
    if ref is None and "$ref" in node:
        ref = str(node["$ref"])[len(_REF_PREFIX) :]
    title = node.get("title")
    return NestedBranch(ref=ref, title=title if isinstance(title, str) else None)


def meta_methods(
    meta: dict[str, Any], meta_where: str, *, may_lack: frozenset[str] = frozenset()
) -> Iterator[tuple[str, str, str, str]]:
    """(group, key, wire name, handling side) of every method meta.json lists, in its order:
    the one reader of meta.json's method table (the IR's and the schema diff's). A group in
    ``may_lack`` may be missing (the diff reads older releases)."""
    for group, side in METHOD_GROUPS.items():
        table = meta.get(group)
        if table is None and group in may_lack:
            continue
        if not isinstance(table, dict):
            raise AcpgenError(meta_where, f"missing object {group!r}")
        for key, wire in table.items():
            if not isinstance(wire, str):
                raise AcpgenError(meta_where, f"{json_pointer(group, key)}: a method's wire name "
                                  f"must be a string, not {type(wire).__name__}")
            yield group, key, wire, side


def _methods(
    schema: dict[str, Any],
    defs: dict[str, Definition],
    meta: dict[str, Any],
    schema_where: str,
    meta_where: str,
) -> tuple[Method, ...]:
    params_refs, result_refs, request_refs = envelope_refs(schema)
    annotated: dict[str, list[Definition]] = {}
    for d in defs.values():
        if d.x_method is not None:
            if not isinstance(d.x_method, str):
                raise AcpgenError(schema_where, f"{d.pointer}/x-method: must be a string")
            annotated.setdefault(d.x_method, []).append(d)
    methods: list[Method] = []
    listed: set[str] = set()
    # A wire name whose types say x-side "both" (v1 unstable's ``mcp/message``) is listed
    # under agentMethods and clientMethods alike: it is one method either side handles.
    both_sided: dict[str, str] = {}
    for group, key, wire, side in meta_methods(meta, meta_where):
        types = annotated.get(wire, [])
        if types and side != "protocol" and all(d.x_side == "both" for d in types):
            if wire in both_sided:
                continue
            both_sided[wire] = key
            side = "both"
        elif wire in listed:
            raise AcpgenError(meta_where, f"{json_pointer(group, key)}: method {wire!r} is listed twice")
        listed.add(wire)
        params = [d.name for d in types if d.name in params_refs]
        results = [d.name for d in types if d.name in result_refs]
        if side == "both":
            # Sent as a request or as a notification: the request form is the method;
            # the notification's params type stays a model (``Method.notification_params``).
            requests = [p for p in params if p in request_refs]
            notes = [p for p in params if p not in request_refs]
            if len(requests) == 1 and len(notes) <= 1:
                methods.append(
                    Method(wire=str(wire), py_name=method_py_name(str(wire)), side="both",
                           meta_pointer=json_pointer(group, key),
                           kind="request", params=requests[0],
                           result=results[0] if len(results) == 1 else None,
                           notification_params=notes[0] if notes else None)
                )
                continue
        if len(params) != 1:
            raise AcpgenError(
                meta_where,
                f"{json_pointer(group, key)}: method {wire!r} has {len(params)} params types "
                f"annotated with x-method in {schema_where} (expected exactly 1)",
            )
        for d in types:
            if d.x_side != side:
                raise AcpgenError(
                    schema_where,
                    f"{d.pointer}/x-side: def {d.name} has x-side {d.x_side!r} but meta.json lists "
                    f"{wire!r} under {group}",
                )
        kind: Literal["request", "notification"] = (
            "request" if params[0] in request_refs else "notification"
        )
        if (kind == "request") != (len(results) == 1):
            raise AcpgenError(
                schema_where,
                f"method {wire!r} is a {kind} but has {len(results)} result types annotated",
            )
        methods.append(
            Method(
                wire=str(wire),
                py_name=method_py_name(str(wire)),
                side=side,
                kind=kind,
                params=params[0],
                result=results[0] if results else None,
                meta_pointer=json_pointer(group, key),
            )
        )
    seen: dict[str, Method] = {}
    for m in methods:
        other = seen.setdefault(m.py_name, m)
        if other is not m:
            raise AcpgenError(meta_where, f"{m.meta_pointer}: method {m.wire!r} and {other.wire!r} "
                              f"({other.meta_pointer}) both map to the Python name {m.py_name!r}")
    for wire, types in sorted(annotated.items()):
        if wire not in listed:
            raise AcpgenError(
                schema_where,
                f"def {types[0].name} is annotated x-method {wire!r}, which meta.json does not list",
            )
    return tuple(methods)


def _capabilities(defs: dict[str, Definition], where: str) -> tuple[Capability, ...]:
    caps: list[Capability] = []

    def walk(root: str, def_name: str, prefix: str, py_prefix: tuple[str, ...], depth: int) -> None:
        if depth > 8:
            raise AcpgenError(where, f"capability tree under {def_name} is cyclic")
        d = defs[def_name]
        for p in d.properties:
            if p.wire_name.startswith("_"):
                continue  # _meta is extension data, not a capability
            path = f"{prefix}{p.wire_name}"
            py_path = (*py_prefix, p.py_name)
            if p.type.kind == "primitive" and p.type.name == "boolean":
                caps.append(Capability(root, path, "boolean", None, py_path, def_name))  # type: ignore[arg-type]
            elif p.type.kind == "ref" and defs[p.type.name or ""].shape == Shape.OBJECT:
                caps.append(Capability(root, path, "object", p.type.name, py_path, def_name))  # type: ignore[arg-type]
                walk(root, p.type.name or "", f"{path}.", py_path, depth + 1)

    for root, def_name in _CAPABILITY_ROOTS:
        if def_name not in defs:
            raise AcpgenError(where, f"no def {def_name} (the capability tree root)")
        walk(root, def_name, "", (), 0)
    return tuple(caps)
