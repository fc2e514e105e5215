"""The defs that route messages to methods, across the schema's history.

Since v0.8 the routing defs are JSON-RPC envelopes (``AgentRequest``: ``id``, ``method``,
``params``); before, they were unions of every method's params or results (``AgentRequest``:
``anyOf`` of ``WriteTextFileRequest``, ...; before v0.0.14 ``AnyAgentRequest``). A branch of a
routing def belongs to its method: a method NEW adds brings its branches with it, and they are
reported once, as the method (opt-in: a peer generated from OLD never calls it, and never
receives a response to a call it did not make). Extension catch-alls (a branch that accepts
any params: ``ExtRequest``) are opt-in in the same way.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from acpgen.evolve.methods import WireMethod
from acpgen.evolve.normal import normalise, ref_name

ROUTING = re.compile(r"^(Any)?(Agent|Client)(Request|Response|Result|Notification|OutgoingMessage)$")
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_ENVELOPE_MEMBERS = {"method", "result", "error", "id"}


def is_envelope(node: Any) -> bool:
    """A routing def that is a JSON-RPC message (it, or one of its branches, declares ``id``,
    ``method``, ``result`` or ``error``), not a union of params or results."""
    if not isinstance(node, dict):
        return False
    shapes = [node, *(b for k in ("anyOf", "oneOf") for b in node.get(k, ())
                      if isinstance(node.get(k), list) and isinstance(b, dict))]
    return any(isinstance(n.get("properties"), dict) and _ENVELOPE_MEMBERS & set(n["properties"])
               for n in shapes)


def enveloped(schema: dict[str, Any]) -> bool:
    """Whether the routing defs are envelopes rather than unions of params types."""
    return any(ROUTING.match(name) and is_envelope(node)
               for name, node in schema.get("$defs", {}).items())


def _branches(node: Any) -> list[list[Any]]:
    """Every union branch list inside a routing def (nested ``anyOf``s of params included)."""
    out: list[list[Any]] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("anyOf", "oneOf") and isinstance(value, list):
                    out.append(value)
                if key != "$defs":
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return out


def branch_key(branch: Any) -> str | None:
    """The def a branch is built on (``$ref`` or a one-branch ``allOf``), else its title."""
    if not isinstance(branch, dict):
        return None
    target = ref_name(branch.get("$ref"))
    if target is None and isinstance(branch.get("allOf"), list) and len(branch["allOf"]) == 1:
        inner = branch["allOf"][0]
        target = ref_name(inner.get("$ref")) if isinstance(inner, dict) else None
    title = branch.get("title")
    return target or (title if isinstance(title, str) else None)


def is_catch_all(branch: Any) -> bool:
    """A branch that accepts any value (``{}``, or annotations only): extension methods."""
    return isinstance(branch, dict) and not normalise(branch).a


def new_method_defs(old_methods: tuple[WireMethod, ...], new_methods: tuple[WireMethod, ...],
                    old_schema: dict[str, Any], new_schema: dict[str, Any]) -> set[str]:
    """The branch keys (defs or titles) of routing defs that belong to methods NEW adds.

    A bound method names its defs; a method NEW adds without types (meta.json lists it, no def
    is annotated) owns the new branches named after it (``terminal/create`` ->
    ``CreateTerminalRequest``); with no method table on either side (the oldest schemas), every
    new branch built on a def NEW adds is taken for a new method.
    """
    old_wires = {m.wire for m in old_methods}
    fresh = [m for m in new_methods if m.wire not in old_wires]
    out = {n for m in fresh for n in (m.params, m.result) if n}
    old_keys = _routing_keys(old_schema)
    added_keys = _routing_keys(new_schema) - old_keys
    for m in fresh:
        if m.params is not None:
            continue
        words = {w.lower() for w in re.split(r"[/_]", m.wire) if w}
        out |= {k for k in added_keys
                if words and words <= {w.lower() for w in _WORDS.findall(k)}}
    if not old_methods and not new_methods:
        added_defs = set(new_schema.get("$defs", {})) - set(old_schema.get("$defs", {}))
        out |= added_keys & added_defs
    return out


def _routing_nodes(schema: dict[str, Any]) -> dict[str, Any]:
    """The routing defs by name, and the document root (``""``), the union of all messages."""
    nodes = {name: node for name, node in schema.get("$defs", {}).items() if ROUTING.match(name)}
    nodes[""] = {k: v for k, v in schema.items() if k != "$defs"}
    return nodes


def _routing_keys(schema: dict[str, Any]) -> set[str]:
    keys: set[str] = set()
    for node in _routing_nodes(schema).values():
        for branches in _branches(node):
            keys.update(k for k in map(branch_key, branches) if k)
    return keys


def without_new_routes(new_schema: dict[str, Any], old_schema: dict[str, Any],
                       owned: set[str]) -> dict[str, Any]:
    """NEW as a peer generated from OLD meets it: the routing branches of methods NEW adds
    (and extension catch-alls OLD's routing def did not have) left out."""
    old_nodes = _routing_nodes(old_schema)
    out = {k: v for k, v in new_schema.items() if k != "$defs"}
    defs = dict(new_schema.get("$defs", {}))
    for name, node in _routing_nodes(new_schema).items():
        had_catch_all = any(is_catch_all(b) for bs in _branches(old_nodes.get(name)) for b in bs)
        pruned = copy.deepcopy(node)
        for branches in _branches(pruned):
            keep = [b for b in branches if branch_key(b) not in owned
                    and (had_catch_all or not is_catch_all(b))]
            if keep and len(keep) < len(branches):
                branches[:] = keep
        if name:
            defs[name] = pruned
        else:
            out.update(pruned)
    out["$defs"] = defs
    return out
