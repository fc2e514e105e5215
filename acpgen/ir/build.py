"""Stage 2: build the IR (``acpgen.ir.types``) from the verified schema and meta.json.

Everything the schema leaves implicit is decided here, once: the shape of each def, which
union is tagged by what, which def is a method's params or result, and the capability tree.
Anything that cannot be classified is an error naming the def, never a silent fallback.
"""

from __future__ import annotations

from typing import Any, Literal

from acpgen.errors import AcpgenError
from acpgen.ir.naming import method_py_name, snake_case
from acpgen.ir.types import (
    Capability,
    Definition,
    EnumMember,
    Method,
    NestedBranch,
    Property,
    SchemaIR,
    TypeExpr,
    Variant,
)

_PRIMITIVES = ("string", "integer", "number", "boolean")
_CONSTRAINT_KEYS = ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "pattern")
_REF_PREFIX = "#/$defs/"
_META_GROUPS = {"agentMethods": "agent", "clientMethods": "client", "protocolMethods": "protocol"}
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
    builder = _Builder(defs_raw, schema_where)
    defs = {name: builder.definition(name, node) for name, node in defs_raw.items()}
    methods = _methods(schema, defs, meta, schema_where, meta_where)
    capabilities = _capabilities(defs, schema_where)
    version = meta.get("version")
    if not isinstance(version, int):
        raise AcpgenError(meta_where, "missing integer 'version' (the protocol version)")
    return SchemaIR(
        title=str(schema.get("title", "")),
        defs=defs,
        methods=methods,
        capabilities=capabilities,
        protocol_version=version,
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


def _annotations(node: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, v) for k, v in node.items() if k.startswith("x-")))


class _Builder:
    def __init__(self, defs: dict[str, Any], where: str) -> None:
        self.raw = defs
        self.where = where

    # -- types -----------------------------------------------------------------------------

    def type_of(self, node: dict[str, Any], at: str) -> tuple[TypeExpr, bool]:
        """The type of a schema node and whether it admits null."""
        if not isinstance(node, dict):
            raise AcpgenError(self.where, f"{at}: expected an object schema")
        name = ref_name(node)
        if name is not None:
            return TypeExpr("ref", name=name), False
        if "const" in node:
            return TypeExpr("const", value=node["const"], name=node.get("type")), False
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
                raise AcpgenError(self.where, f"{at}: unsupported type list {typ}")
            typ = rest[0]
        constraints = tuple((k, node[k]) for k in _CONSTRAINT_KEYS if k in node)
        if typ in _PRIMITIVES:
            if "enum" in node:
                return TypeExpr("union", variants=tuple(
                    TypeExpr("const", value=v, name=typ) for v in node["enum"]
                )), nullable
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
            values = TypeExpr("any") if extra in (True, {}) else self.type_of(extra, f"{at}/additionalProperties")[0]
            return TypeExpr("map", items=values), nullable
        if typ is None:
            # No type, no $ref, no union: any JSON value (rawInput, data, extension payloads).
            return TypeExpr("any"), True
        raise AcpgenError(self.where, f"{at}: unsupported type {typ!r}")

    def properties(self, node: dict[str, Any], at: str) -> tuple[Property, ...]:
        required = set(node.get("required", []))
        props = []
        for wire, pnode in node.get("properties", {}).items():
            typ, nullable = self.type_of(pnode, f"{at}/properties/{wire}")
            props.append(
                Property(
                    wire_name=wire,
                    py_name=snake_case(wire),
                    type=typ,
                    required=wire in required,
                    nullable=nullable,
                    has_default="default" in pnode,
                    default=pnode.get("default"),
                    description=pnode.get("description"),
                    annotations=_annotations(pnode),
                )
            )
        names = [p.py_name for p in props]
        if len(set(names)) != len(names):
            raise AcpgenError(self.where, f"{at}: two properties map to one Python name: {names}")
        return tuple(props)

    # -- defs ------------------------------------------------------------------------------

    def definition(self, name: str, node: dict[str, Any]) -> Definition:
        at = f"/$defs/{name}"
        common: dict[str, Any] = {
            "name": name,
            "description": node.get("description"),
            "pointer": at,
            "x_side": node.get("x-side"),
            "x_method": node.get("x-method"),
            "annotations": _annotations(node),
        }
        union_key = "oneOf" if "oneOf" in node else "anyOf" if "anyOf" in node else None
        if "enum" in node:
            return Definition(
                shape="enum",
                enum_members=tuple(EnumMember(v, None, None) for v in node["enum"]),
                enum_base=node.get("type"),
                **common,
            )
        if union_key:
            members = node[union_key]
            enum = self._enum(members)
            if enum is not None:
                shape, values, base, catch = enum
                return Definition(shape=shape, enum_members=values, enum_base=base,
                                  catch_all=catch, union_keyword=union_key, **common)
            variants = tuple(self._variant(m, f"{at}/{union_key}/{i}") for i, m in enumerate(members))
            disc = self._discriminator(node, variants)
            props = self.properties(node, at) if node.get("type") == "object" else ()
            return Definition(
                shape="tagged_union" if disc else "union",
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
                shape="object",
                properties=self.properties(node, at),
                required=tuple(node.get("required", [])),
                additional_properties=None if extra is None else bool(extra),
                **common,
            )
        if typ in _PRIMITIVES:
            return Definition(shape="primitive", primitive=self.type_of(node, at)[0], **common)
        if not any(k in node for k in ("type", "$ref", "allOf", "properties")):
            return Definition(shape="any", **common)
        raise AcpgenError(self.where, f"{at}: cannot classify def {name!r}")

    def _enum(
        self, members: list[dict[str, Any]]
    ) -> tuple[Any, tuple[EnumMember, ...], str | None, TypeExpr | None] | None:
        consts = [m for m in members if "const" in m]
        others = [m for m in members if "const" not in m]
        if not consts:
            return None
        bases = {m.get("type") for m in consts}
        if len(bases) != 1 or next(iter(bases)) not in _PRIMITIVES:
            return None
        base = next(iter(bases))
        values = tuple(EnumMember(m["const"], m.get("title"), m.get("description")) for m in consts)
        if not others:
            return "enum", values, base, None
        if len(others) == 1 and others[0].get("type") == base and "properties" not in others[0]:
            catch = self.type_of(others[0], "catch-all")[0]
            return "open_enum", values, base, catch
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
        declared = node.get("discriminator", {}).get("propertyName")
        if declared:
            return str(declared)
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


def _methods(
    schema: dict[str, Any],
    defs: dict[str, Definition],
    meta: dict[str, Any],
    schema_where: str,
    meta_where: str,
) -> tuple[Method, ...]:
    params_refs, result_refs, request_refs = _envelope_refs(schema)
    annotated: dict[str, list[Definition]] = {}
    for d in defs.values():
        if d.x_method is not None:
            annotated.setdefault(d.x_method, []).append(d)
    methods: list[Method] = []
    listed: set[str] = set()
    for group, side in _META_GROUPS.items():
        table = meta.get(group)
        if not isinstance(table, dict):
            raise AcpgenError(meta_where, f"missing object {group!r}")
        for key, wire in table.items():
            listed.add(wire)
            types = annotated.get(wire, [])
            params = [d.name for d in types if d.name in params_refs]
            results = [d.name for d in types if d.name in result_refs]
            if len(params) != 1:
                raise AcpgenError(
                    meta_where,
                    f"method {wire!r} ({group}.{key}) has {len(params)} params types annotated "
                    f"with x-method in {schema_where} (expected exactly 1)",
                )
            for d in types:
                if d.x_side != side:
                    raise AcpgenError(
                        schema_where,
                        f"def {d.name} has x-side {d.x_side!r} but meta.json lists "
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
                )
            )
    for wire, types in sorted(annotated.items()):
        if wire not in listed:
            raise AcpgenError(
                schema_where,
                f"def {types[0].name} is annotated x-method {wire!r}, which meta.json does not list",
            )
    return tuple(methods)


def _envelope_refs(schema: dict[str, Any]) -> tuple[set[str], set[str], set[str]]:
    """Defs referenced from envelope ``params`` / ``result`` members, and those of requests.

    A params union inside an envelope whose required members include ``id`` belongs to a
    request; one without ``id`` to a notification.
    """
    params: set[str] = set()
    results: set[str] = set()
    requests: set[str] = set()

    def collect(node: Any, into: set[str]) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                into.add(str(node["$ref"])[len(_REF_PREFIX) :])
            for value in node.values():
                collect(value, into)
        elif isinstance(node, list):
            for value in node:
                collect(value, into)

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                found: set[str] = set()
                if "params" in props:
                    collect(props["params"], found)
                    params.update(found)
                    if "id" in node.get("required", []):
                        requests.update(found)
                if "result" in props:
                    collect(props["result"], results)
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(schema)
    return params, results, requests


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
                caps.append(Capability(root, path, "boolean", None, py_path))  # type: ignore[arg-type]
            elif p.type.kind == "ref" and defs[p.type.name or ""].shape == "object":
                caps.append(Capability(root, path, "object", p.type.name, py_path))  # type: ignore[arg-type]
                walk(root, p.type.name or "", f"{path}.", py_path, depth + 1)

    for root, def_name in _CAPABILITY_ROOTS:
        if def_name not in defs:
            raise AcpgenError(where, f"no def {def_name} (the capability tree root)")
        walk(root, def_name, "", (), 0)
    return tuple(caps)
