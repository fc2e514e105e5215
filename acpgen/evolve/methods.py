"""The method table of one schema + meta.json, and who writes and who reads every def.

Read from the raw documents, not from the generator's IR, so ``acpgen diff`` can compare a
schema the generator cannot model yet (a bump is refused later, at generation). The rules
are the IR builder's (:mod:`acpgen.ir.build`): meta.json lists each method under the side
that handles it; the defs annotated ``x-method`` / ``x-side`` are its params (referenced
from an envelope's ``params``) and result (from an envelope's ``result``); a method whose
params sit in an envelope that requires ``id`` is a request, else a notification.

Who writes a def: a method's params are written by its sender and read by its handler, its
result the other way round (protocol methods go both ways); roles propagate through every
``$ref``. A def no method reaches gets the roles of the envelopes that hold it (``Error``
travels in both sides' responses); one nothing reaches is written and read by both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from acpgen.errors import AcpgenError
from acpgen.evolve.normal import ref_name
from acpgen.ir.build import METHOD_GROUPS, meta_methods
from acpgen.ir.envelopes import EnvelopeRefs, envelope_refs, refs_in

ROLES = ("client", "agent")
ENVELOPE = "(envelope)"  # the subject of changes at the document root


@dataclass(frozen=True)
class WireMethod:
    wire: str
    side: str  # the side that handles it: agent | client | protocol | both
    kind: Literal["request", "notification"]
    params: str | None  # None: a method of a schema that binds no defs to methods (the oldest)
    result: str | None

    @property
    def sender(self) -> frozenset[str]:
        return frozenset(ROLES) if self.side == "protocol" else frozenset(ROLES) - {self.side}

    @property
    def handler(self) -> frozenset[str]:
        return frozenset(ROLES) if self.side in ("protocol", "both") else frozenset({self.side})


def method_table(schema: dict[str, Any], meta: dict[str, Any], schema_where: str,
                 meta_where: str, parts: dict[str, tuple[Any, EnvelopeRefs]] | None = None,
                 meta_is_own: bool = True) -> tuple[WireMethod, ...]:
    """``parts``: :func:`envelope_parts` of ``schema``, if already known.

    Real schema history is read as it was written: ``protocolMethods`` appeared late (absent:
    no protocol methods); schemas from before the JSON-RPC envelope defs have no ``params``
    member to find a method's types through, so an annotated def is its method's result when
    it sits in a response union (or is named ``...Response``), else its params; the oldest
    schemas annotate nothing, and their methods are known by wire name and side only (from
    meta.json). ``meta_is_own=False``: the meta.json is not this schema's own (the pinned one
    stands in for a schema file without one), so it binds only the methods this schema
    annotates, and annotated methods it does not list are taken from their ``x-side``.
    """
    defs = schema.get("$defs", {})
    if not isinstance(defs, dict):
        raise AcpgenError(schema_where, "$defs is not an object")
    triples = [refs for _, refs in (parts or envelope_parts(schema)).values()]
    params_refs = set().union(*(t[0] for t in triples))
    result_refs = set().union(*(t[1] for t in triples))
    request_refs = set().union(*(t[2] for t in triples))
    response_members = _union_members(defs, "Response")
    request_members = _union_members(defs, "Request")
    annotated: dict[str, list[str]] = {}
    for name, node in defs.items():
        if isinstance(node, dict) and isinstance(node.get("x-method"), str):
            annotated.setdefault(node["x-method"], []).append(name)
    out: list[WireMethod] = []
    listed: set[str] = set()
    # Protocol methods came later; a stand-in meta binds what it can.
    may_lack = frozenset({"protocolMethods"} if meta_is_own else METHOD_GROUPS)
    for group, key, wire, side in meta_methods(meta, meta_where, may_lack=may_lack):
        names = annotated.get(wire, [])
        if not meta_is_own and not names:
            continue
        if names and group != "protocolMethods" and all(defs[n].get("x-side") == "both" for n in names):
            # Either side handles it (v1 unstable's mcp/message): listed under both groups,
            # one method, its request form (as acpgen.ir.build reads it).
            if wire not in listed:
                params = [n for n in names if n in params_refs]
                requests = [n for n in params if n in request_refs]
                results = [n for n in names if n in result_refs]
                out.append(WireMethod(wire, "both", "request" if requests else "notification",
                                      (requests or params or names)[0], results[0] if results else None))
            listed.add(wire)
            continue
        listed.add(wire)
        if not names:
            # Unbound: no def carries its types here (the oldest schemas annotate nothing;
            # meta.json also lists methods whose defs are only in the unstable schema).
            out.append(WireMethod(wire, side, "request", None, None))
            continue
        enveloped = bool(set(names) & (params_refs | result_refs))
        out.append(_bind(wire, side, f"{group}.{key}", names, defs, enveloped, params_refs,
                         result_refs, request_refs | request_members, response_members, schema_where,
                         meta_where))
    for wire, names in sorted(annotated.items()):
        if wire in listed:
            continue
        side = defs[names[0]].get("x-side")
        if meta_is_own or side not in ("agent", "client", "protocol"):
            raise AcpgenError(schema_where, f"def {names[0]} is annotated x-method {wire!r}, which "
                                            "meta.json does not list")
        enveloped = bool(set(names) & (params_refs | result_refs))
        out.append(_bind(wire, str(side), "x-side", names, defs, enveloped, params_refs,
                         result_refs, request_refs | request_members, response_members, schema_where,
                             meta_where))
    return tuple(out)


def _bind(wire: str, side: str, where: str, names: list[str], defs: dict[str, Any],
          enveloped: bool, params_refs: set[str], result_refs: set[str], request_refs: set[str],
          response_members: set[str], schema_where: str, meta_where: str) -> WireMethod:
    """A listed method with the defs annotated ``x-method`` for it (params, result, kind)."""
    if enveloped:
        params = [n for n in names if n in params_refs]
        results = [n for n in names if n in result_refs]
    else:
        results = [n for n in names if n in response_members or n.endswith(("Response", "Result"))]
        params = [n for n in names if n not in results]
    if len(params) != 1:
        raise AcpgenError(meta_where, f"method {wire!r} ({where}) has {len(params)} "
                                      f"params types annotated with x-method in "
                                      f"{schema_where} (expected exactly 1)")
    for n in names:
        if defs[n].get("x-side") != side:
            raise AcpgenError(schema_where, f"def {n} has x-side {defs[n].get('x-side')!r} "
                                            f"but meta.json lists {wire!r} under {where}")
    if enveloped:
        kind: Literal["request", "notification"] = (
            "request" if params[0] in request_refs else "notification")
        if (kind == "request") != (len(results) == 1):
            raise AcpgenError(schema_where, f"method {wire!r} is a {kind} but has {len(results)} "
                                            "result types annotated")
    else:
        if len(results) > 1:
            raise AcpgenError(schema_where, f"method {wire!r} has {len(results)} result types "
                                            "annotated")
        kind = "request" if results or params[0] in request_refs else "notification"
    return WireMethod(wire, side, kind, params[0], results[0] if results else None)


def _union_members(defs: dict[str, Any], suffix: str) -> set[str]:
    """Defs named by the branches of a ``...Response`` (``...Request``) union, in schemas from
    before the envelopes."""
    out: set[str] = set()
    for name, node in defs.items():
        if name.endswith(suffix) and isinstance(node, dict):
            for key in ("anyOf", "oneOf"):
                for branch in node.get(key, ()) if isinstance(node.get(key), list) else ():
                    target = ref_name(branch.get("$ref")) if isinstance(branch, dict) else None
                    if target:
                        out.add(target)
    return out


def envelope_parts(schema: dict[str, Any],
                   known: dict[str, tuple[Any, EnvelopeRefs]] | None = None
                   ) -> dict[str, tuple[Any, EnvelopeRefs]]:
    """:func:`envelope_refs` of the document root (key "") and of each def, with the node it
    was computed from; a part equal to one in ``known`` (another side) is not walked again."""
    known = known or {}
    parts: dict[str, tuple[Any, EnvelopeRefs]] = {}
    root = {k: v for k, v in schema.items() if k != "$defs"}
    defs = schema.get("$defs", {})
    for name, node in [("", root), *((f"/{n}", v) for n, v in defs.items())]:
        seen = known.get(name)
        parts[name] = seen if seen is not None and seen[0] == node else (node, envelope_refs(node))
    return parts


def unknown_refs(schema: dict[str, Any]) -> list[tuple[str, str]]:
    """(pointer, $ref) of every reference to a def that does not exist."""
    defs = schema.get("$defs", {})
    bad: list[tuple[str, str]] = []

    def visit(node: Any, ptr: str) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref_name(ref)
                if ref != "#" and (name is None or name not in defs):
                    bad.append((ptr or "/", ref))
            for key, value in node.items():
                visit(value, f"{ptr}/{key.replace('~', '~0').replace('/', '~1')}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                visit(value, f"{ptr}/{i}")

    visit(schema, "")
    return bad


@dataclass(frozen=True)
class Flows:
    """For each def, the roles that write it and the roles that read it."""

    writers: dict[str, frozenset[str]]
    readers: dict[str, frozenset[str]]
    carriers: dict[str, frozenset[str]]  # def -> wire names of the methods that carry it

    def of(self, name: str, pointer: str = "") -> tuple[frozenset[str], frozenset[str]]:
        """Writers and readers of a def (of a message kind, for the document root)."""
        both = frozenset(ROLES)
        if name == ENVELOPE:
            name = f"{ENVELOPE}/" + "/".join(pointer.split("/")[1:3])
        return self.writers.get(name, both), self.readers.get(name, both)


def compute_flows(schema: dict[str, Any], methods: tuple[WireMethod, ...]) -> Flows:
    defs = schema.get("$defs", {})
    refs = {name: refs_in(node) for name, node in defs.items()}
    writers: dict[str, set[str]] = {}
    readers: dict[str, set[str]] = {}
    carriers: dict[str, set[str]] = {}

    def reach(roots: set[str]) -> set[str]:
        seen: set[str] = set()
        stack = list(roots)
        while stack:
            name = stack.pop()
            if name in seen or name not in defs:
                continue
            seen.add(name)
            stack.extend(refs[name])
        return seen

    roots: dict[str, tuple[set[str], set[str]]] = {}
    for m in methods:
        for root, w, r in ((m.params, m.sender, m.handler), (m.result, m.handler, m.sender)):
            if root is None:
                continue
            roots[root] = (set(w), set(r))
            for name in reach({root}):
                writers.setdefault(name, set()).update(w)
                readers.setdefault(name, set()).update(r)
                carriers.setdefault(name, set()).add(m.wire)
    # Envelopes: a def that holds method roots is written and read like them; what only
    # envelopes reach (Error, RequestId) takes the roles of every envelope that holds it.
    by_method = set(writers)
    env_w: dict[str, set[str]] = {}
    env_r: dict[str, set[str]] = {}
    for name in defs:
        held = refs[name] & set(roots)
        if name in by_method or not held:
            continue
        held_w: set[str] = set().union(*(roots[r][0] for r in held))
        held_r: set[str] = set().union(*(roots[r][1] for r in held))
        for reached in reach({name}) - by_method:
            env_w.setdefault(reached, set()).update(held_w)
            env_r.setdefault(reached, set()).update(held_r)
    for name, roles in env_w.items():
        writers[name] = roles
        readers[name] = env_r[name]
    # The document root: each message kind (anyOf branch) takes the roles of what it holds.
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        for i, branch in enumerate(branches if isinstance(branches, list) else ()):
            held_refs = refs_in(branch) & set(writers)
            if held_refs:
                writers[f"{ENVELOPE}/{key}/{i}"] = set().union(*(writers[r] for r in held_refs))
                readers[f"{ENVELOPE}/{key}/{i}"] = set().union(*(readers[r] for r in held_refs))
    return Flows(
        writers={k: frozenset(v) for k, v in writers.items()},
        readers={k: frozenset(v) for k, v in readers.items()},
        carriers={k: frozenset(v) for k, v in carriers.items()},
    )
