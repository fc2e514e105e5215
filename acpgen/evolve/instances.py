"""Small concrete JSON instances of a schema position, for witnesses and counterexamples.

A bounded, deterministic generator (no third-party strategy library: the diff runs in the
product). :meth:`Instances.of` returns candidate values for a raw schema node: every enum
value and union branch, each optional member present and absent, boundary numbers of the
ranges the schema states, a few strings and arrays. Candidates are not guaranteed valid;
:mod:`acpgen.evolve.witness` validates each one with ``jsonschema`` before using it.

Diversity is spent where it matters: along the ``focus`` pointer (the position a change is
at) every alternative is enumerated; away from it, a member takes its first candidate only,
so the count stays small on large defs. Recursion through ``$ref`` is cut at a depth.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from acpgen.evolve.normal import ref_name
from acpgen.ir.formats import INTEGER_FORMATS

_MAX_DEPTH = 7
_PER_NODE = 48  # candidates kept per position on the focus path
_OFF_PATH = 2  # candidates kept per position away from it
_RANDOM_PER_OBJECT = 6
_PER_NODE_RANDOM = 10  # candidates per position in property-based mode (every position)
_STRINGS = ("a", "", "https://example.com/x", "0", "/tmp/a.txt", "2026-01-01T00:00:00Z",
            "A b!" * 300)
_INTS = (0, 1, -1, 2, 100)
_NUMBERS = (0, 1.5, -1.5)


def esc(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


class Instances:
    """Candidate instances of positions of one schema document (its ``$defs``)."""

    def __init__(self, defs: dict[str, Any], focus: str = "", extra_numbers: tuple[int, ...] = (),
                 extra_strings: tuple[str, ...] = (), rng: random.Random | None = None) -> None:
        self.defs = defs
        self.rng = rng  # property-based mode: each object also gets random member subsets
        self.limit = _PER_NODE if rng is None else _PER_NODE_RANDOM
        self._memo: dict[tuple[str, bool, int], list[Any]] = {}
        self.focus = focus
        self.numbers = extra_numbers
        self.strings = extra_strings  # constants the other side names (a tag a `not` excludes)
        self._stack: list[str] = []

    # -- entry ---------------------------------------------------------------------------

    def of_def(self, name: str) -> list[Any]:
        return self.of({"$ref": f"#/$defs/{esc(name)}"}, "")

    def of(self, node: Any, ptr: str) -> list[Any]:
        limit = self.limit if self._on_path(ptr) else _OFF_PATH
        out: list[Any] = []
        seen: set[str] = set()
        for value in self._gen(node, ptr):
            key = repr(value)
            if key in seen:
                continue
            seen.add(key)
            out.append(value)
            if len(out) >= limit:
                break
        return out

    def _on_path(self, ptr: str) -> bool:
        if not self.focus:
            return True
        return self.focus.startswith(ptr) or ptr.startswith(self.focus)

    # -- generation --------------------------------------------------------------------------

    def _gen(self, node: Any, ptr: str) -> Iterator[Any]:
        if node is True or node == {}:
            yield from ("a", 1, {"k": "v"}, None)
            return
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            name = ref_name(node["$ref"])
            target = self.defs.get(name) if name else None
            if target is None or name in self._stack or len(self._stack) >= _MAX_DEPTH:
                return
            rest = {k: v for k, v in node.items() if k != "$ref"}
            self._stack.append(name)  # type: ignore[arg-type]
            try:
                if rest:  # siblings constrain the same value: generate from both together
                    values = self.of(_merge(rest, target), ptr)
                else:
                    inner = f"/$defs/{esc(name)}"  # type: ignore[arg-type]
                    at = inner if len(self._stack) > 1 or not ptr else ptr
                    # A def met again at the same depth gives the same candidates.
                    key = (str(name), self._on_path(at), len(self._stack))
                    if key not in self._memo:
                        self._memo[key] = self.of(target, at)
                    values = self._memo[key]
            finally:
                self._stack.pop()
            yield from values
            return
        if "const" in node:
            yield node["const"]
            return
        if isinstance(node.get("enum"), list):
            yield from node["enum"]
            return
        for union in ("anyOf", "oneOf"):
            branches = node.get(union)
            if isinstance(branches, list):
                rest = {k: v for k, v in node.items() if k != union}
                per_branch = [self.of(_merge(rest, b), f"{ptr}/{union}/{i}")
                              for i, b in enumerate(branches)]
                yield from _interleave(per_branch)
                return
        if isinstance(node.get("allOf"), list):
            merged: dict[str, Any] = {k: v for k, v in node.items() if k != "allOf"}
            for branch in node["allOf"]:
                merged = _merge(merged, branch)
            yield from self.of(merged, f"{ptr}/allOf/0")
            return
        types = node.get("type")
        kinds = [types] if isinstance(types, str) else list(types) if isinstance(types, list) else []
        if not kinds:
            kinds = ["object"] if "properties" in node else ["string", "integer", "object"]
        for kind in kinds:
            yield from self._typed(kind, node, ptr)

    def _typed(self, kind: str, node: dict[str, Any], ptr: str) -> Iterator[Any]:
        if kind == "null":
            yield None
        elif kind == "boolean":
            yield from (True, False)
        elif kind == "integer":
            yield from _integers(node, self.numbers)
        elif kind == "number":
            yield from (*_integers(node, self.numbers), *_NUMBERS)
        elif kind == "string":
            yield from _strings(node)
            yield from self.strings
        elif kind == "array":
            yield from self._arrays(node, ptr)
        elif kind == "object":
            yield from self._objects(node, ptr)

    def _arrays(self, node: dict[str, Any], ptr: str) -> Iterator[Any]:
        items = self.of(node.get("items", {}), f"{ptr}/items") if "items" in node else ["a"]
        low = int(node.get("minItems", 0) or 0)
        if low == 0:
            yield []
        for item in items:
            yield [item] * max(1, low)
        if items:
            yield items[: max(2, low)]
            yield [items[0]] * max(2, low)  # duplicates (uniqueItems)
            yield [items[0]] * 300  # many (maxItems)

    def _objects(self, node: dict[str, Any], ptr: str) -> Iterator[Any]:
        declared = node.get("properties")
        props: dict[str, Any] = declared if isinstance(declared, dict) else {}
        required = [r for r in node.get("required", []) if isinstance(r, str)]
        options = {name: self.of(schema, f"{ptr}/properties/{esc(name)}")
                   for name, schema in props.items()}
        extra = node.get("additionalProperties")
        map_values = (self.of(extra, f"{ptr}/additionalProperties")
                      if isinstance(extra, dict) and extra else [])
        base: dict[str, Any] = {}
        for name in required:
            values = options.get(name) or map_values or ["a"]
            if not values:
                return  # a required member with no instance: none of this object either
            base[name] = values[0]
        yield dict(base)
        full = dict(base)
        for name, values in options.items():
            if values and name not in full:
                full[name] = values[0]
        yield full
        # Members nobody declared, and many of them: what closing or bounding an object rejects.
        if map_values:
            for value in map_values:
                yield {**base, "extraKey": value}
            yield {**base, **{f"extra{i}": map_values[0] for i in range(60)}}
        elif extra is not False and node.get("unevaluatedProperties") is not False:
            yield {**full, "unknownMember": 1}
            yield {**full, **{f"extra{i}": i for i in range(60)}}
        for name, values in options.items():
            for value in values[1:] if name in base else values:
                yield {**base, name: value}
        for name in props:
            if name not in required and name in full:
                yield {k: v for k, v in full.items() if k != name}
        if self.rng is not None:
            for _ in range(_RANDOM_PER_OBJECT):
                pick = dict(base)
                for name, values in options.items():
                    if values and (name in base or self.rng.random() < 0.5):
                        pick[name] = self.rng.choice(values)
                yield pick


def _interleave(lists: list[list[Any]]) -> Iterator[Any]:
    """The first candidate of each branch, then the second of each, ...: every branch is
    represented before any branch's tail."""
    depth = max((len(values) for values in lists), default=0)
    for i in range(depth):
        for values in lists:
            if i < len(values):
                yield values[i]


def _merge(a: dict[str, Any], b: Any) -> dict[str, Any]:
    if not isinstance(b, dict):
        return dict(a)
    out = dict(a)
    for key, value in b.items():
        if key == "properties" and isinstance(out.get(key), dict) and isinstance(value, dict):
            out[key] = {**out[key], **value}
        elif key == "required" and isinstance(out.get(key), list) and isinstance(value, list):
            out[key] = [*out[key], *(v for v in value if v not in out[key])]
        elif key in ("anyOf", "oneOf", "allOf") and key in out:
            out["allOf"] = [*out.get("allOf", []), {key: value}] if key != "allOf" else [
                *out["allOf"], *value]
        else:
            out[key] = value
    return out


def _integers(node: dict[str, Any], extra: tuple[int, ...]) -> Iterator[int]:
    yield from _INTS
    fmt = node.get("format")
    if fmt in INTEGER_FORMATS:
        lo, hi = INTEGER_FORMATS[fmt]
        yield from (lo, hi, lo - 1, hi + 1)
    for key, delta in (("minimum", 0), ("maximum", 0), ("exclusiveMinimum", 1),
                       ("exclusiveMaximum", -1)):
        bound = node.get(key)
        if isinstance(bound, (int, float)) and not isinstance(bound, bool):
            b = int(bound) + delta
            yield from (b, b - 1, b + 1)
    yield from extra
    yield from (2**31, -(2**31) - 1, 2**32, 2**63, -1000)


def _strings(node: dict[str, Any]) -> Iterator[str]:
    low = int(node.get("minLength", 0) or 0)
    for text in _STRINGS:
        yield text if len(text) >= low else text + "a" * (low - len(text))
    high = node.get("maxLength")
    if isinstance(high, int):
        yield "a" * high
        yield "a" * (high + 1)

