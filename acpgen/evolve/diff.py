"""``acpgen diff``: the changes between two ACP schemas, computed on their IRs.

Both sides are built with :func:`acpgen.ir.build.build_ir`, so the diff sees what the
generator sees (shapes, required members, union tags, methods, capability tree) rather than
JSON text. What the IR does not model is found by a parallel walk of the raw ``$defs``:
annotation keys (``description``, ``title``, ``x-*`` other than ``x-side``/``x-method``)
become non-semantic changes, and any other raw difference the IR diff did not explain becomes
a conservative ``SCHEMA_OTHER`` change, so nothing is silently dropped.

Each :class:`Change` carries a stable ``kind`` code (like buf's rule IDs). Classification
(who it breaks) is :mod:`acpgen.evolve.compat`; roster impact is :mod:`acpgen.evolve.impact`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.evolve.changes import Change
from acpgen.evolve.compat import classify_all
from acpgen.inputs.metaschema import check_metaschema
from acpgen.inputs.pinned import parse_json
from acpgen.ir.build import build_ir
from acpgen.ir.describe import describe_type as spell_type
from acpgen.ir.types import Definition, Property, SchemaIR, TypeExpr, Variant

# Keys that document a schema but never change what is valid on the wire or what is generated
# structurally. x-side / x-method are excluded: they bind types to methods (diffed as methods).
_SEMANTIC_X_KEYS = ("x-side", "x-method")
_DOC_KEYS = ("description", "title", "examples", "$comment")


def is_annotation_key(key: str) -> bool:
    return key in _DOC_KEYS or (key.startswith("x-") and key not in _SEMANTIC_X_KEYS)


@dataclass(frozen=True)
class SchemaSide:
    """One side of a diff: parsed schema + meta, their IR, and how the user named them."""

    label: str
    schema_path: Path
    meta_label: str
    schema: dict[str, Any]
    meta: dict[str, Any]
    ir: SchemaIR
    sha256: str
    size: int
    meta_bytes: bytes


@dataclass(frozen=True)
class SchemaDiff:
    old: SchemaSide
    new: SchemaSide
    changes: tuple[Change, ...] = field(default=())

    @property
    def semantic(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.semantic)

    @property
    def annotations(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if not c.semantic)


# -- loading ------------------------------------------------------------------------------


def load_side(arg: str, fallback_meta: tuple[str, bytes] | None, cwd: Path | None = None) -> SchemaSide:
    """A schema named by a file (meta.json beside it, else ``fallback_meta``) or an inputs dir.

    An inputs directory must hold ``schema/v1/schema.json`` and ``schema/v1/meta.json``.
    """
    path = Path(arg)
    if not path.is_absolute():
        path = (cwd or Path.cwd()) / path
    if path.is_dir():
        schema_path = path / "schema" / "v1" / "schema.json"
        meta_path: Path | None = path / "schema" / "v1" / "meta.json"
        if not schema_path.is_file():
            raise AcpgenError(arg, "directory has no schema/v1/schema.json")
        if not meta_path.is_file():  # type: ignore[union-attr]
            raise AcpgenError(arg, "directory has no schema/v1/meta.json")
    elif path.is_file():
        schema_path = path
        beside = path.parent / "meta.json"
        meta_path = beside if beside.is_file() and beside != path else None
    else:
        raise AcpgenError(arg, "no such schema file or inputs directory")
    schema_label = arg if path.is_file() else f"{arg.rstrip('/')}/schema/v1/schema.json"
    blob = _read(schema_path, schema_label)
    if meta_path is not None:
        meta_label = str(Path(schema_label).parent / "meta.json")
        meta_bytes = _read(meta_path, meta_label)
    elif fallback_meta is not None:
        meta_label, meta_bytes = fallback_meta
    else:
        raise AcpgenError(arg, "no meta.json beside the schema and no pinned meta to fall back on")
    return build_side(schema_label, schema_path, blob, meta_label, meta_bytes)


def build_side(label: str, path: Path, blob: bytes, meta_label: str, meta_bytes: bytes) -> SchemaSide:
    schema = parse_json(label, blob)
    check_metaschema(schema, label)
    meta = parse_json(meta_label, meta_bytes)
    if not isinstance(meta, dict):
        raise AcpgenError(meta_label, "top level is not a JSON object")
    ir = build_ir(schema, meta, label, meta_label)
    return SchemaSide(
        label=label,
        schema_path=path,
        meta_label=meta_label,
        schema=schema,
        meta=meta,
        ir=ir,
        sha256=hashlib.sha256(blob).hexdigest(),
        size=len(blob),
        meta_bytes=meta_bytes,
    )


def _read(path: Path, label: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise AcpgenError(label, f"cannot read: {exc.strerror}") from None


# -- type helpers -------------------------------------------------------------------------


def describe_type(t: TypeExpr) -> str:
    return spell_type(t)


def _bare(t: TypeExpr) -> TypeExpr:
    """The type without format and constraints (those are diffed separately)."""
    return dataclasses.replace(
        t,
        format=None,
        constraints=(),
        items=_bare(t.items) if t.items else None,
        variants=tuple(_bare(v) for v in t.variants),
    )


def _limits(t: TypeExpr) -> tuple[Any, ...]:
    """Format and constraints, recursively, as a comparable value."""
    return (
        t.format,
        t.constraints,
        _limits(t.items) if t.items else None,
        tuple(_limits(v) for v in t.variants),
    )


# -- the IR diff --------------------------------------------------------------------------


def diff_sides(old: SchemaSide, new: SchemaSide) -> SchemaDiff:
    """Every change from ``old`` to ``new``, classified (client/agent), sorted."""
    changes: list[Change] = []
    a, b = old.ir, new.ir
    for name in sorted(set(a.defs) | set(b.defs)):
        if name not in b.defs:
            changes.append(Change("DEF_REMOVED", name, None, f"/$defs/{name}",
                                  old=a.defs[name].shape, detail=f"def removed ({a.defs[name].shape})"))
        elif name not in a.defs:
            changes.append(Change("DEF_ADDED", name, None, f"/$defs/{name}",
                                  new=b.defs[name].shape, detail=f"def added ({b.defs[name].shape})"))
        else:
            changes.extend(_def_changes(a.defs[name], b.defs[name]))
    changes.extend(_method_changes(a, b))
    changes.extend(_capability_changes(a, b))
    changes.extend(_raw_changes(old.schema, new.schema, {c.subject for c in changes if c.semantic}))
    changes = _mark_gated(changes, b)
    classified = classify_all(changes, old.ir, new.ir)
    return SchemaDiff(old, new, tuple(sorted(classified, key=lambda c: c.sort_key)))


def _def_changes(a: Definition, b: Definition) -> list[Change]:
    ptr = a.pointer
    if a.shape != b.shape:
        if {a.shape, b.shape} == {"enum", "open_enum"}:
            kind = "ENUM_OPENED" if b.shape == "open_enum" else "ENUM_CLOSED"
            first = Change(kind, a.name, None, ptr, a.shape, b.shape, detail=f"{a.shape} -> {b.shape}")
            return [first, *_enum_changes(a, b)]
        return [Change("DEF_SHAPE_CHANGED", a.name, None, ptr, a.shape, b.shape,
                       detail=f"shape {a.shape} -> {b.shape}")]
    out: list[Change] = []
    out.extend(_property_changes(a.name, ptr, a.properties, b.properties))
    if a.additional_properties != b.additional_properties:
        closed = b.additional_properties is False
        out.append(Change("OBJECT_CLOSED" if closed else "OBJECT_OPENED", a.name, None, ptr,
                          a.additional_properties, b.additional_properties,
                          detail=f"additionalProperties {a.additional_properties} -> {b.additional_properties}"))
    if a.shape in ("enum", "open_enum"):
        out.extend(_enum_changes(a, b))
    if a.shape in ("tagged_union", "union"):
        out.extend(_variant_changes(a, b))
    if a.shape == "primitive" and a.primitive and b.primitive:
        if _bare(a.primitive) != _bare(b.primitive):
            out.append(Change("PRIMITIVE_CHANGED", a.name, None, ptr, a.primitive, b.primitive,
                              detail=f"type {describe_type(a.primitive)} -> {describe_type(b.primitive)}"))
        elif _limits(a.primitive) != _limits(b.primitive):
            out.append(Change("CONSTRAINTS_CHANGED", a.name, None, ptr, str(_limits(a.primitive)),
                              str(_limits(b.primitive)), detail="format or constraints changed"))
    return out


def _property_changes(
    subject: str, ptr: str, old: tuple[Property, ...], new: tuple[Property, ...]
) -> list[Change]:
    out: list[Change] = []
    a = {p.wire_name: p for p in old}
    b = {p.wire_name: p for p in new}
    for wire in sorted(set(a) | set(b)):
        at = f"{ptr}/properties/{wire}"
        pa, pb = a.get(wire), b.get(wire)
        if pa is None and pb is not None:
            req = "required" if pb.required else "optional"
            out.append(Change("PROPERTY_ADDED", subject, wire, at, None, pb.type,
                              detail=f"{req} property added ({describe_type(pb.type)})"))
            continue
        if pb is None and pa is not None:
            req = "required" if pa.required else "optional"
            out.append(Change("PROPERTY_REMOVED", subject, wire, at, pa.type, None,
                              detail=f"{req} property removed"))
            continue
        assert pa is not None and pb is not None
        if pa.required != pb.required:
            kind = "PROPERTY_REQUIRED" if pb.required else "PROPERTY_OPTIONAL"
            out.append(Change(kind, subject, wire, at, pa.required, pb.required,
                              detail="optional -> required" if pb.required else "required -> optional"))
        if _bare(pa.type) != _bare(pb.type):
            out.append(Change("PROPERTY_TYPE_CHANGED", subject, wire, at, pa.type, pb.type,
                              detail=f"type {describe_type(pa.type)} -> {describe_type(pb.type)}"))
        elif _limits(pa.type) != _limits(pb.type):
            out.append(Change("CONSTRAINTS_CHANGED", subject, wire, at, str(_limits(pa.type)),
                              str(_limits(pb.type)), detail="format or constraints changed"))
        if pa.nullable != pb.nullable:
            kind = "PROPERTY_NULLABLE_ADDED" if pb.nullable else "PROPERTY_NULLABLE_REMOVED"
            out.append(Change(kind, subject, wire, at, pa.nullable, pb.nullable,
                              detail="now accepts null" if pb.nullable else "no longer accepts null"))
        if (pa.has_default, pa.default) != (pb.has_default, pb.default):
            out.append(Change("PROPERTY_DEFAULT_CHANGED", subject, wire, at,
                              pa.default if pa.has_default else None,
                              pb.default if pb.has_default else None,
                              detail=f"default {pa.default!r} -> {pb.default!r}"))
    return out


def _enum_changes(a: Definition, b: Definition) -> list[Change]:
    out: list[Change] = []
    va = [m.value for m in a.enum_members]
    vb = [m.value for m in b.enum_members]
    for value in sorted(set(map(json.dumps, va)) | set(map(json.dumps, vb))):
        v = json.loads(value)
        label = v if isinstance(v, str) else value  # StopReason.end_turn, ErrorCode.-32700
        if v in va and v not in vb:
            out.append(Change("ENUM_VALUE_REMOVED", a.name, label, a.pointer, v, None,
                              detail=f"value {value} removed"))
        elif v in vb and v not in va:
            out.append(Change("ENUM_VALUE_ADDED", a.name, label, b.pointer, None, v,
                              detail=f"value {value} added"))
    if a.enum_base != b.enum_base:
        out.append(Change("PRIMITIVE_CHANGED", a.name, None, a.pointer, a.enum_base, b.enum_base,
                          detail=f"enum base {a.enum_base} -> {b.enum_base}"))
    return out


def variant_key(d: Definition, v: Variant) -> str:
    """How a branch is recognised across versions: its tag, else its def, else its type."""
    if v.catch_all:
        return "*"
    if d.discriminator and v.tag is not None:
        return v.tag if isinstance(v.tag, str) else json.dumps(v.tag)
    if v.ref:
        return v.ref
    if v.inline is not None:
        return describe_type(v.inline)
    return v.title or "?"


def _variant_changes(a: Definition, b: Definition) -> list[Change]:
    out: list[Change] = []
    if a.discriminator != b.discriminator:
        out.append(Change("DISCRIMINATOR_CHANGED", a.name, None, a.pointer, a.discriminator,
                          b.discriminator, detail=f"discriminator {a.discriminator} -> {b.discriminator}"))
    va = {variant_key(a, v): v for v in a.variants}
    vb = {variant_key(b, v): v for v in b.variants}
    for key in sorted(set(va) | set(vb)):
        x, y = va.get(key), vb.get(key)
        if y is None:
            out.append(Change("VARIANT_REMOVED", a.name, key, a.pointer, key, None,
                              detail=f"variant {key} removed" + (f" ({x.ref})" if x and x.ref else "")))
        elif x is None:
            out.append(Change("VARIANT_ADDED", a.name, key, b.pointer, None, key,
                              detail=f"variant {key} added" + (f" ({y.ref})" if y.ref else "")))
        else:
            if (x.ref, x.inline and _bare(x.inline), x.catch_all) != (
                y.ref, y.inline and _bare(y.inline), y.catch_all
            ):
                out.append(Change("VARIANT_CHANGED", a.name, key, a.pointer, x.ref, y.ref,
                                  detail=f"variant {key} now {y.ref or 'inline'} (was {x.ref or 'inline'})"))
            out.extend(_property_changes(f"{a.name}[{key}]", a.pointer, x.properties, y.properties))
    # Union-level properties (a union that is also an object, e.g. with _meta).
    out.extend(_property_changes(a.name, a.pointer, a.properties, b.properties))
    return out


def _method_changes(a: SchemaIR, b: SchemaIR) -> list[Change]:
    out: list[Change] = []
    ma = {m.wire: m for m in a.methods}
    mb = {m.wire: m for m in b.methods}
    for wire in sorted(set(ma) | set(mb)):
        x, y = ma.get(wire), mb.get(wire)
        if y is None and x is not None:
            out.append(Change("METHOD_REMOVED", wire, None, f"/$defs/{x.params}", x.side, None,
                              detail=f"method removed ({x.kind} handled by {x.side})"))
        elif x is None and y is not None:
            out.append(Change("METHOD_ADDED", wire, None, f"/$defs/{y.params}", None, y.side,
                              detail=f"method added ({y.kind} handled by {y.side})"))
        elif x is not None and y is not None:
            for attr, kind in (("side", "METHOD_SIDE_CHANGED"), ("kind", "METHOD_KIND_CHANGED"),
                               ("params", "METHOD_PARAMS_CHANGED"), ("result", "METHOD_RESULT_CHANGED")):
                va, vb = getattr(x, attr), getattr(y, attr)
                if va != vb:
                    out.append(Change(kind, wire, attr, f"/$defs/{x.params}", va, vb,
                                      detail=f"{attr} {va} -> {vb}"))
    return out


def _capability_changes(a: SchemaIR, b: SchemaIR) -> list[Change]:
    out: list[Change] = []
    ca = {c.qualified: c for c in a.capabilities}
    cb = {c.qualified: c for c in b.capabilities}
    for q in sorted(set(ca) | set(cb)):
        x, y = ca.get(q), cb.get(q)
        if y is None and x is not None:
            out.append(Change("CAPABILITY_REMOVED", q, None, "", x.kind, None,
                              detail=f"{x.kind} capability removed"))
        elif x is None and y is not None:
            out.append(Change("CAPABILITY_ADDED", q, None, "", None, y.kind,
                              detail=f"{y.kind} capability added" + (f" ({y.type})" if y.type else "")))
        elif x is not None and y is not None and (x.kind, x.type) != (y.kind, y.type):
            out.append(Change("CAPABILITY_CHANGED", q, None, "", f"{x.kind} {x.type}",
                              f"{y.kind} {y.type}", detail=f"{x.kind} {x.type} -> {y.kind} {y.type}"))
    return out


def _capability_members(ir: SchemaIR) -> dict[str, str]:
    """Spellings of a capability in documentation -> its qualified path.

    The schema documents gated additions as "MUST only send this update when the Client
    advertised [`ClientSessionCapabilities::notices`]" (or "the `session.notices` Client
    capability"): ``ClientSessionCapabilities::notices`` -> ``clientCapabilities.session.notices``.
    """
    roots = {"agent": "AgentCapabilities", "client": "ClientCapabilities"}
    by_path = {(c.root, c.path): c for c in ir.capabilities}
    out: dict[str, str] = {}
    for c in ir.capabilities:
        parent_path, _, member = c.path.rpartition(".")
        parent = by_path.get((c.root, parent_path)) if parent_path else None
        owner = parent.type if parent else roots[c.root]
        if owner:
            out[f"{owner}::{member}"] = c.qualified
        # Later schemas spell it "the `session.notices` Client capability".
        out[f"`{c.path}` {c.root.capitalize()} capability"] = c.qualified
        out[f"`{c.qualified}`"] = c.qualified
    return out


def _mark_gated(changes: list[Change], new: SchemaIR) -> list[Change]:
    """Attach to each added variant the NEW-only capability its documentation says gates it."""
    added = {c.subject for c in changes if c.kind == "CAPABILITY_ADDED"}
    spellings = {k: v for k, v in _capability_members(new).items() if v in added}
    if not spellings:
        return changes
    out: list[Change] = []
    for c in changes:
        if c.kind == "VARIANT_ADDED":
            d = new.defs[c.subject]
            v = next(v for v in d.variants if variant_key(d, v) == c.member)
            text = " ".join(filter(None, [v.description, new.defs[v.ref].description if v.ref else None]))
            gate = next((path for spelled, path in sorted(spellings.items()) if spelled in text), None)
            if gate:
                c = dataclasses.replace(c, gate=gate, detail=f"{c.detail}, gated by {gate}")
        out.append(c)
    return out


# -- the raw walk: annotations, and anything the IR does not model -------------------------


def _raw_changes(old: dict[str, Any], new: dict[str, Any], explained: set[str]) -> list[Change]:
    out: list[Change] = []
    a_defs, b_defs = old.get("$defs", {}), new.get("$defs", {})
    for name in sorted(set(a_defs) & set(b_defs)):
        notes: list[tuple[str, str, Any, Any]] = []
        structural: list[str] = []
        _walk(a_defs[name], b_defs[name], f"/$defs/{_esc(name)}", notes, structural)
        out.extend(_annotation_change(name, n) for n in notes)
        if structural and name not in explained and not any(s.startswith(f"{name}[") for s in explained):
            out.append(Change("SCHEMA_OTHER", name, None, structural[0], None, None,
                              detail="schema changed where the IR does not look: " + ", ".join(structural[:3])))
    top_a = {k: v for k, v in old.items() if k != "$defs"}
    top_b = {k: v for k, v in new.items() if k != "$defs"}
    notes, structural = [], []
    _walk(top_a, top_b, "", notes, structural)
    out.extend(_annotation_change("(envelope)", n) for n in notes)
    if structural:
        out.append(Change("SCHEMA_OTHER", "(envelope)", None, structural[0], None, None,
                          detail="top-level schema changed: " + ", ".join(structural[:3])))
    return out


def _annotation_change(subject: str, note: tuple[str, str, Any, Any]) -> Change:
    pointer, key, old, new = note
    if old is None:
        how = "added"
    elif new is None:
        how = "removed"
    else:
        how = "changed"
    kind = "DESCRIPTION_CHANGED" if key in _DOC_KEYS else "ANNOTATION_CHANGED"
    return Change(kind, subject, key, pointer, old, new, semantic=False, detail=f"{key} {how} at {pointer}")


def _esc(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _strip(node: Any) -> Any:
    """A node without annotation keys, for matching list items across versions."""
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if not is_annotation_key(k)}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def _walk(a: Any, b: Any, ptr: str, notes: list[tuple[str, str, Any, Any]], structural: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            at = f"{ptr}/{_esc(key)}"
            if key in _SEMANTIC_X_KEYS:
                continue  # method bindings: diffed as methods (METHOD_*), not as raw schema
            if is_annotation_key(key):
                if a.get(key) != b.get(key):
                    notes.append((ptr or "/", key, a.get(key), b.get(key)))
            elif key not in a or key not in b:
                structural.append(at)
            else:
                _walk(a[key], b[key], at, notes, structural)
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) == len(b) and all(_strip(x) == _strip(y) for x, y in zip(a, b)):
            for i, (x, y) in enumerate(zip(a, b)):
                _walk(x, y, f"{ptr}/{i}", notes, structural)
            return
        # Match items by their annotation-free content; unmatched items are structural.
        keys_b = [json.dumps(_strip(y), sort_keys=True) for y in b]
        used: set[int] = set()
        for i, x in enumerate(a):
            kx = json.dumps(_strip(x), sort_keys=True)
            j = next((j for j, k in enumerate(keys_b) if k == kx and j not in used), None)
            if j is None:
                structural.append(f"{ptr}/{i}")
            else:
                used.add(j)
                _walk(x, b[j], f"{ptr}/{i}", notes, structural)
        structural.extend(f"{ptr}/{j}" for j in range(len(b)) if j not in used)
        return
    if a != b:
        structural.append(ptr or "/")
