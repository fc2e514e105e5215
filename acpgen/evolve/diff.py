"""``acpgen diff``: every change between two ACP schemas (and their meta.json), classified.

The raw documents are compared position by position (:mod:`acpgen.evolve.walk`): each
``$defs`` entry against the def of the same name, and the document root (the JSON-RPC
envelope). Methods are compared as the method table (:mod:`acpgen.evolve.methods`): added,
removed, renamed, moved to the other side, request <-> notification, params/result type. The
branches of the envelope unions that route a method's params and result belong to the
method, so they are reported once, as the method change. Capabilities are compared on the
generator's IR when both sides build one.

Nothing is dropped: every difference the walker finds is a :class:`Change` (annotations are
reported apart, as non-semantic; what cannot be classified is ``UNCLASSIFIED``). Whom each
change would break is :mod:`acpgen.evolve.compat`; :mod:`acpgen.evolve.proof` then keeps a
side's ``breaking`` only with a witness jsonschema confirms (else ``compatible`` or
``unproven``) and searches for counterexamples behind the compatible verdicts. Any release of
the ACP schema reads (:mod:`acpgen.evolve.routing`, :mod:`acpgen.evolve.methods`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.evolve.capabilities import Capability, capabilities, gate_for
from acpgen.evolve.changes import Change
from acpgen.evolve.compat import classify_all
from acpgen.evolve.methods import (
    ENVELOPE,
    METHOD_GROUPS,
    EnvelopeRefs,
    Flows,
    WireMethod,
    compute_flows,
    envelope_parts,
    method_table,
    unknown_refs,
)
from acpgen.evolve.normal import normalise, ref_name
from acpgen.evolve.proof import prove_all
from acpgen.evolve.routing import (
    ROUTING,
    enveloped,
    is_envelope,
    new_method_defs,
    without_new_routes,
)
from acpgen.evolve.walk import NONE, WIDENS, Finding, Walker, combined, esc
from acpgen.inputs.metaschema import check_metaschema
from acpgen.inputs.pinned import parse_json
from acpgen.ir.build import build_ir

META = "(meta.json)"


@dataclass(frozen=True)
class SchemaSide:
    """One side of a diff: parsed schema + meta, their method table, and how the user named
    them."""

    label: str
    schema_path: Path
    meta_label: str
    schema: dict[str, Any]
    meta: dict[str, Any]
    methods: tuple[WireMethod, ...]
    sha256: str
    size: int
    meta_bytes: bytes
    envelope_parts: dict[str, tuple[Any, EnvelopeRefs]] = field(default_factory=dict, repr=False)
    meta_is_own: bool = True  # False: no meta.json beside the schema; the pinned one stood in

    @cached_property
    def flows(self) -> Flows:
        """Who writes and who reads each def (computed once per side)."""
        return compute_flows(self.schema, self.methods)

    @cached_property
    def generator_problem(self) -> str | None:
        """Why the generator cannot model this schema (None if it can); the diff itself does
        not need the generator's IR, a bump does."""
        try:
            build_ir(self.schema, self.meta, self.label, self.meta_label)
        except AcpgenError as exc:
            return exc.message
        return None

    def method(self, wire: str) -> WireMethod | None:
        return next((m for m in self.methods if m.wire == wire), None)


@dataclass(frozen=True)
class SchemaDiff:
    old: SchemaSide
    new: SchemaSide
    changes: tuple[Change, ...] = field(default=())
    proof_notes: tuple[str, ...] = field(default=())

    @property
    def semantic(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.semantic)

    @property
    def annotations(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if not c.semantic)

    @property
    def notes(self) -> tuple[str, ...]:
        out = []
        for side, name in ((self.old, "OLD"), (self.new, "NEW")):
            if side.generator_problem:
                out.append(f"the generator cannot model {name} ({side.generator_problem}): "
                           "`acpgen bump` would refuse it")
        return (*out, *self.proof_notes)


# -- loading ------------------------------------------------------------------------------


_LAYOUTS = ("schema/v1", "schema", "")


def load_side(arg: str, fallback_meta: tuple[str, bytes] | None, cwd: Path | None = None,
              trusted: SchemaSide | None = None) -> SchemaSide:
    """A schema named by a file (meta.json beside it, else ``fallback_meta``) or an inputs dir.

    An inputs directory holds ``schema/v1/schema.json`` and its ``meta.json`` (a checkout of an
    older release: ``schema/schema.json`` or ``schema.json``, and a meta.json beside it if
    that release had one).
    ``trusted``: an already validated side; only the defs that differ from it are checked
    against the 2020-12 metaschema again.
    """
    path = Path(arg)
    if not path.is_absolute():
        path = (cwd or Path.cwd()) / path
    where = ""
    if path.is_dir():
        # An inputs directory, or a checkout of the ACP repository at any release: the
        # schema lived at schema/v1/, before that at schema/, and first at the root.
        found = next((rel for rel in _LAYOUTS if (path / rel / "schema.json").is_file()), None)
        if found is None:
            raise AcpgenError(arg, "directory has no schema/v1/schema.json (nor schema/schema.json "
                                   "or schema.json of an older release)")
        where = found
        schema_path = path / where / "schema.json"
        beside = schema_path.parent / "meta.json"
        meta_path: Path | None = beside if beside.is_file() else None
    elif path.is_file():
        schema_path = path
        # schema.unstable.json's method table is meta.unstable.json (a surface's own table).
        stem = path.name.removeprefix("schema").removesuffix(".json")
        beside = path.parent / f"meta{stem}.json"
        if not (stem and beside.is_file()):
            beside = path.parent / "meta.json"
        meta_path = beside if beside.is_file() and beside != path else None
    else:
        raise AcpgenError(arg, "no such schema file or inputs directory")
    schema_label = arg if path.is_file() else f"{arg.rstrip('/')}/{where}/schema.json".replace(
        "//", "/")
    own = True
    blob = _read(schema_path, schema_label)
    if meta_path is not None:
        meta_label = str(Path(schema_label).parent / meta_path.name)
        meta_bytes = _read(meta_path, meta_label)
    elif fallback_meta is not None:
        meta_label, meta_bytes = fallback_meta
        own = False
    else:
        raise AcpgenError(arg, "no meta.json beside the schema and no pinned meta to fall back on")
    return build_side(schema_label, schema_path, blob, meta_label, meta_bytes, trusted, own)


def build_side(label: str, path: Path, blob: bytes, meta_label: str, meta_bytes: bytes,
               trusted: SchemaSide | None = None, meta_is_own: bool = True) -> SchemaSide:
    """``meta_is_own=False``: ``meta_bytes`` stand in for a schema file without a meta.json
    beside it (see :func:`acpgen.evolve.methods.method_table`)."""
    schema = parse_json(label, blob)
    if not isinstance(schema, dict):
        raise AcpgenError(label, "top level is not a JSON object")
    _check_metaschema(schema, label, blob, trusted)
    if not isinstance(schema.get("$defs"), dict) or not schema["$defs"]:
        raise AcpgenError(label, "/$defs: no definitions (not an ACP schema)")
    bad = unknown_refs(schema) if _may_have_unknown_refs(schema, blob) else []
    if bad:
        pointer, ref = bad[0]
        raise AcpgenError(label, f"unknown $ref {ref!r} at {pointer}: no such def")
    meta = parse_json(meta_label, meta_bytes)
    if not isinstance(meta, dict):
        raise AcpgenError(meta_label, "top level is not a JSON object")
    parts = envelope_parts(schema, trusted.envelope_parts if trusted else None)
    methods = method_table(schema, meta, label, meta_label, parts, meta_is_own)
    return SchemaSide(label=label, schema_path=path, meta_label=meta_label, schema=schema, meta=meta,
                      methods=methods, sha256=hashlib.sha256(blob).hexdigest(), size=len(blob),
                      meta_bytes=meta_bytes, envelope_parts=parts, meta_is_own=meta_is_own)


def _check_metaschema(schema: dict[str, Any], label: str, blob: bytes,
                      trusted: SchemaSide | None) -> None:
    """Validating the whole document is most of a diff's time; each ``$defs`` entry is
    validated on its own by the metaschema, so defs equal to a validated side's are skipped."""
    defs = schema.get("$defs")
    if trusted is None or not isinstance(defs, dict):
        check_metaschema(schema, label, blob)
        return
    known = trusted.schema.get("$defs", {})
    changed = {k: v for k, v in defs.items() if known.get(k, object()) != v}
    top = {k: v for k, v in schema.items() if k != "$defs"}
    if top == {k: v for k, v in trusted.schema.items() if k != "$defs"}:
        top = {}
    if top or changed:
        part = {**top, "$defs": changed}
        # Memoised like a whole document (a pass only), by the canonical text of the part.
        check_metaschema(part, label, json.dumps(part, sort_keys=True).encode())


_REF_TEXT = re.compile(rb'"\$ref"\s*:\s*"((?:[^"\\]|\\.)*)"')


def _may_have_unknown_refs(schema: dict[str, Any], blob: bytes) -> bool:
    """A fast look at the text: every ``"$ref": "..."`` names a def that exists (then the
    walk that finds the pointer of a bad one is not needed)."""
    defs = schema.get("$defs", {})
    for match in _REF_TEXT.finditer(blob):
        text = match.group(1)
        ref = json.loads(b'"' + text + b'"') if b"\\" in text else text.decode("utf-8", "replace")
        name = ref_name(ref)
        if ref != "#" and (name is None or name not in defs):
            return True
    return False


def _read(path: Path, label: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise AcpgenError(label, f"cannot read: {exc.strerror}") from None


# -- the diff -----------------------------------------------------------------------------


def diff_sides(old: SchemaSide, new: SchemaSide,
               gates: tuple[tuple[str, str, str], ...] = ()) -> SchemaDiff:
    """Every change from ``old`` to ``new``, classified (client/agent), proved, sorted.

    ``gates``: (tag member, value, capability path) of the gating manifest's tagged gates
    (``schema/capabilities.toml``): a value NEW adds under a capability OLD does not have never
    reaches a peer generated from OLD (it never advertises it), so no witness may carry it.
    """
    roots = {n for m in (*old.methods, *new.methods) for n in (m.params, m.result) if n}
    a_defs = old.schema.get("$defs", {})
    b_defs = new.schema.get("$defs", {})
    owned = new_method_defs(old.methods, new.methods, old.schema, new.schema)
    roots |= owned
    walker = Walker(a_defs, b_defs, frozenset(roots), routing=frozenset(
        n for n in set(a_defs) | set(b_defs) if ROUTING.match(n)))
    changes: list[Change] = []
    remodelled = enveloped(old.schema) != enveloped(new.schema)
    if remodelled:
        changes.append(Change("EQUIVALENT_REWRITE", ENVELOPE, None, "/", effect=NONE, detail=(
            "the messages are modelled differently (unions of params <-> JSON-RPC envelopes); "
            "methods are compared through the method table")))
    for name in sorted(set(a_defs) | set(b_defs)):
        ptr = f"/$defs/{esc(name)}"
        if ROUTING.match(name) and (remodelled or is_envelope(a_defs.get(name)) != is_envelope(
                b_defs.get(name))):
            continue  # a routing def that became an envelope (or stopped): methods say it all
        if name not in b_defs:
            changes.append(Change("DEF_REMOVED", name, None, ptr, detail="def removed", effect=NONE))
        elif name not in a_defs:
            changes.append(Change("DEF_ADDED", name, None, ptr, detail="def added", effect=NONE))
        elif a_defs[name] != b_defs[name]:
            changes += [_change(f) for f in walker.compare(a_defs[name], b_defs[name], ptr)]
    top_a = {k: v for k, v in old.schema.items() if k != "$defs"}
    top_b = {k: v for k, v in new.schema.items() if k != "$defs"}
    if not remodelled:
        changes += [_change(f) for f in walker.compare(top_a, top_b, "")]
    changes += _method_changes(old, new, walker)
    changes += _meta_changes(old.meta, new.meta)
    old_caps, new_caps = capabilities(old.schema), capabilities(new.schema)
    changes += _capability_changes(old_caps, new_caps, walker)
    changes, gated = _mark_gated(changes, old_caps, new_caps, new.schema, gates)
    classified = classify_all(changes, old.flows, old.methods)
    met = without_new_routes(new.schema, old.schema, owned)
    proved = prove_all(classified, old.schema, met, old.methods, new.methods, old.flows,
                       frozenset(gated))
    return SchemaDiff(old, new, tuple(sorted(proved.changes, key=lambda c: c.sort_key)),
                      proved.notes)


def _split(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]


def subject_of(pointer: str) -> tuple[str, str | None]:
    """(def name, first property name below it) of a pointer."""
    parts = _split(pointer)
    if len(parts) >= 2 and parts[0] == "$defs":
        name, rest = parts[1], parts[2:]
    else:
        name, rest = ENVELOPE, parts
    prop = next((rest[i + 1] for i in range(len(rest) - 1) if rest[i] == "properties"), None)
    return name, prop


def _change(f: Finding) -> Change:
    subject, prop = subject_of(f.pointer)
    by_keyword = f.kind in ("DESCRIPTION_CHANGED", "ANNOTATION_CHANGED") or f.kind.startswith(
        ("ENUM_VALUE_", "VARIANT_"))
    member = f.member if by_keyword or f.kind.startswith("PROPERTY_") else prop
    semantic = f.kind not in ("DESCRIPTION_CHANGED", "ANNOTATION_CHANGED")
    return Change(f.kind, subject, member, f.pointer or "/", f.old, f.new, semantic, f.detail,
                  effect=f.effect, doc=f.doc, variant=f.variant)


# -- methods ----------------------------------------------------------------------------------


def _same_type(walker: Walker, a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return a == b
    if a == b:
        return True
    found = walker.compare({"$ref": f"#/$defs/{esc(a)}"}, {"$ref": f"#/$defs/{esc(b)}"}, "")
    return combined(found) == NONE


def _at(m: WireMethod) -> str:
    """Where a method's change is reported: its params def (the document root when the schema
    binds no defs to methods)."""
    return f"/$defs/{esc(m.params)}" if m.params else "/"


def _method_changes(old: SchemaSide, new: SchemaSide, walker: Walker) -> list[Change]:
    out: list[Change] = []
    ma = {m.wire: m for m in old.methods}
    mb = {m.wire: m for m in new.methods}
    removed = [ma[w] for w in sorted(set(ma) - set(mb))]
    added = [mb[w] for w in sorted(set(mb) - set(ma))]
    for x in list(removed):
        y = next((y for y in added if (y.side, y.kind) == (x.side, x.kind)
                  and x.params is not None and y.params is not None
                  and _same_type(walker, x.params, y.params)
                  and _same_type(walker, x.result, y.result)), None)
        if y is not None:
            removed.remove(x)
            added.remove(y)
            out.append(Change("METHOD_RENAMED", x.wire, None, _at(x), x.wire,
                              y.wire, detail=f"method renamed {x.wire} -> {y.wire}"))
    for x in removed:
        out.append(Change("METHOD_REMOVED", x.wire, None, _at(x), x.side, None,
                          detail=f"method removed ({x.kind} handled by {x.side})"))
    for y in added:
        out.append(Change("METHOD_ADDED", y.wire, None, _at(y), None, y.side,
                          detail=f"method added ({y.kind} handled by {y.side})", effect=NONE))
    for wire in sorted(set(ma) & set(mb)):
        x, y = ma[wire], mb[wire]
        at = _at(x)
        if x.side != y.side:
            out.append(Change("METHOD_SIDE_CHANGED", wire, "side", at, x.side, y.side,
                              detail=f"handled by {x.side} -> {y.side}"))
        if x.kind != y.kind and x.params is not None and y.params is not None:
            out.append(Change("METHOD_KIND_CHANGED", wire, "kind", at, x.kind, y.kind,
                              detail=f"{x.kind} -> {y.kind}"))
        for attr, kind in (("params", "METHOD_PARAMS_CHANGED"), ("result", "METHOD_RESULT_CHANGED")):
            va, vb = getattr(x, attr), getattr(y, attr)
            if va == vb or va is None or vb is None:
                continue  # a result appearing or vanishing is the kind change above
            found = walker.compare({"$ref": f"#/$defs/{esc(va)}"}, {"$ref": f"#/$defs/{esc(vb)}"},
                                   f"/$defs/{esc(vb)}")
            effect = combined(found)
            what = "; ".join(f.detail for f in found if f.effect not in (NONE, "annotation"))[:200]
            out.append(Change(kind, wire, attr, at, va, vb, effect=effect,
                              detail=f"{attr} type {va} -> {vb}" + (f": {what}" if what else
                                                                    " (same shape)")))
    return out


def _meta_changes(a: dict[str, Any], b: dict[str, Any]) -> list[Change]:
    """meta.json beyond the method table: the keys it files methods under, and anything else."""
    out: list[Change] = []
    for key in sorted(set(a) | set(b)):
        x, y = a.get(key), b.get(key)
        if key in METHOD_GROUPS:  # a group that appears (protocolMethods) is its methods
            x, y = x if x is not None else {}, y if y is not None else {}
        if x == y:
            continue
        if key in METHOD_GROUPS and isinstance(x, dict) and isinstance(y, dict):
            keys_a = {wire: k for k, wire in x.items()}
            keys_b = {wire: k for k, wire in y.items()}
            for wire in sorted(set(keys_a) & set(keys_b), key=str):
                if keys_a[wire] != keys_b[wire]:
                    out.append(Change("EQUIVALENT_REWRITE", META, wire, f"/{key}", keys_a[wire],
                                      keys_b[wire], effect=NONE,
                                      detail=f"{key}: {wire} filed under {keys_b[wire]!r} "
                                             f"(was {keys_a[wire]!r}); the wire name is unchanged"))
            continue  # methods that appear, vanish or move are the method changes
        out.append(Change("UNCLASSIFIED", META, key, f"/{key}", x, y, effect="unclassified",
                          detail=f"meta.json {key} {x!r} -> {y!r}: assumed breaking for both sides"))
    return out


# -- capabilities -------------------------------------------------------------------------------


def _capability_changes(a: tuple[Capability, ...], b: tuple[Capability, ...],
                        walker: Walker) -> list[Change]:
    out: list[Change] = []
    ca = {c.qualified: c for c in a}
    cb = {c.qualified: c for c in b}
    for q in sorted(set(ca) | set(cb)):
        x, y = ca.get(q), cb.get(q)
        if y is None and x is not None:
            out.append(Change("CAPABILITY_REMOVED", q, None, "", x.kind, None,
                              detail=f"{x.kind} capability removed"))
        elif x is None and y is not None:
            out.append(Change("CAPABILITY_ADDED", q, None, "", None, y.kind, effect=NONE,
                              detail=f"{y.kind} capability added" + (f" ({y.type})" if y.type else "")))
        elif x is not None and y is not None and (x.kind, x.type) != (y.kind, y.type) and not (
                x.kind == y.kind and _same_type(walker, x.type, y.type)):
            out.append(Change("CAPABILITY_CHANGED", q, None, f"/$defs/{esc(x.owner)}",
                              f"{x.kind} {x.type}",
                              f"{y.kind} {y.type}", detail=f"{x.kind} {x.type} -> {y.kind} {y.type}"))
    return out


def _mark_gated(changes: list[Change], old: tuple[Capability, ...], new: tuple[Capability, ...],
                new_schema: dict[str, Any], manifest: tuple[tuple[str, str, str], ...]
                ) -> tuple[list[Change], set[tuple[str, str]]]:
    """An added variant only sent to peers that advertise a capability OLD does not have never
    reaches a peer generated from OLD: it is compatible. The gate is read from the project's
    gating manifest (``schema/capabilities.toml``: a tagged gate on a capability OLD lacks) or
    from the schema's own words about a capability NEW adds (:func:`gate_for`).

    Returns the changes and the (tag member, value) pairs no reader witness may carry."""
    old_q = {c.qualified for c in old}
    added = tuple(c for c in new if c.qualified not in old_q)
    gated = {(prop, value) for prop, value, cap in manifest if cap not in old_q}
    defs = new_schema.get("$defs", {})
    out: list[Change] = []
    for c in changes:
        if c.kind == "VARIANT_ADDED" and c.effect == WIDENS:
            tag = normalise(defs.get(c.subject, {})).a.get("~tag") if c.subject in defs else None
            member = str(c.member)
            gate = next((cap for prop, value, cap in manifest
                         if cap not in old_q and value == member and prop in (tag, None)), None)
            gate = gate or gate_for(c.doc, member, added, new_schema)
            if gate:
                gated.add((str(tag or ""), member))
                c = dataclasses.replace(c, gate=gate, effect=NONE,
                                        detail=f"{c.detail}, gated by {gate}")
        out.append(c)
    return out, gated
