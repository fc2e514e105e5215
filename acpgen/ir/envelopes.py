"""Which defs the JSON-RPC envelopes of a schema carry: the one reading of envelope refs.

The IR builder (:mod:`acpgen.ir.build`) pairs methods with their params and result by it,
and ``acpgen diff`` (:mod:`acpgen.evolve.methods`) reads the raw documents of two schemas by
it, so the two can never disagree on which def is a method's params or result.
"""

from __future__ import annotations

from typing import Any

REF_PREFIX = "#/$defs/"
# (params, results, requests): defs referenced under an envelope's ``params``, under its
# ``result``, and the params of envelopes that require ``id`` (requests, not notifications).
EnvelopeRefs = tuple[frozenset[str], frozenset[str], frozenset[str]]


def def_ref(ref: Any) -> str | None:
    """The def a ``$ref`` value names (JSON-pointer unescaped), or None for any other ref."""
    if isinstance(ref, str) and ref.startswith(REF_PREFIX):
        return ref[len(REF_PREFIX):].replace("~1", "/").replace("~0", "~")
    return None


def refs_in(node: Any) -> set[str]:
    """Every def a node refers to, at any depth."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            name = def_ref(item.get("$ref"))
            if name:
                found.add(name)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def envelope_refs(schema: Any) -> EnvelopeRefs:
    """Defs referenced under an envelope's ``params`` / ``result``, and those of requests
    (a params member inside an envelope whose required members include ``id``)."""
    params: set[str] = set()
    results: set[str] = set()
    requests: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                if "params" in props:
                    found = refs_in(props["params"])
                    params.update(found)
                    if "id" in node.get("required", []):
                        requests.update(found)
                if "result" in props:
                    results.update(refs_in(props["result"]))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(params), frozenset(results), frozenset(requests)
