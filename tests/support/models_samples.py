"""Seeded instances drawn from the pinned JSON Schema, and mutants of them.

Used by the fidelity tests (``tests/test_fidelity.py``): the jsonschema validator is the
oracle, these only *propose* instances. hypothesis-jsonschema was tried first: with the
pinned hypothesis it fails on most defs ("'many' object has no attribute 'more'") and took
7-35 s per def where it worked, so the suite uses this small seeded generator instead. It
covers the keywords the schema uses: $ref, allOf, anyOf/oneOf (one branch per draw), not
(catch-all branches get an unlisted tag), const, enum, type lists, properties/required,
items, additionalProperties, minimum/maximum and the integer formats.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from typing import Any

from acpgen.ir.formats import INTEGER_FORMATS as INT_FORMATS

_REF = "#/$defs/"
_WORDS = ("a", "text", "_x", "file:///tmp/a.txt", "", "ü✓", "session-1", "42")
_EXTRA_KEYS = ("x-extra", "unknownMember", "_vendor")


class Sampler:
    def __init__(self, defs: dict[str, Any], seed: int) -> None:
        self.defs = defs
        self.rng = random.Random(seed)

    # -- values --------------------------------------------------------------------------

    def value(self, node: Any, depth: int = 0) -> Any:
        if node is True or node == {}:
            return self.any_json(depth)
        if not isinstance(node, dict):
            return None
        if "$ref" in node:
            return self.value(self.defs[node["$ref"][len(_REF) :]], depth + 1)
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return self.rng.choice(node["enum"])
        if self._is_object(node):
            return self.obj(node, depth)
        for key in ("anyOf", "oneOf"):
            if key in node:
                return self.value(self.rng.choice(node[key]), depth + 1)
        if "allOf" in node:
            return self.value(node["allOf"][0], depth + 1)
        typ = node.get("type")
        if isinstance(typ, list):
            choices = [t for t in typ if t != "null"]
            typ = "null" if ("null" in typ and self.rng.random() < 0.25) or not choices else self.rng.choice(choices)
        if typ is None:
            return self.any_json(depth)
        return self.typed(typ, node, depth)

    def typed(self, typ: str, node: dict[str, Any], depth: int) -> Any:
        rng = self.rng
        if typ == "null":
            return None
        if typ == "boolean":
            return rng.random() < 0.5
        if typ == "string":
            lo = node.get("minLength", 0)
            word = rng.choice(_WORDS) if rng.random() < 0.5 else self.word()
            return word if len(word) >= lo else word + "x" * (lo - len(word))
        if typ == "integer":
            lo, hi = INT_FORMATS.get(node.get("format", ""), (-(2**31), 2**31 - 1))
            lo = max(lo, node.get("minimum", lo))
            hi = min(hi, node.get("maximum", hi))
            if rng.random() < 0.5:
                return rng.randint(lo, hi) if rng.random() < 0.5 else rng.randint(lo, min(hi, lo + 1000))
            return rng.choice([lo, hi, min(max(0, lo), hi), min(max(1, lo), hi)])
        if typ == "number":
            return rng.choice([0, 1.5, -2.25, 1e10, 3])
        if typ == "array":
            count = 0 if depth > 6 else rng.randint(node.get("minItems", 0), min(3, node.get("maxItems", 3)))
            return [self.value(node.get("items", {}), depth + 1) for _ in range(count)]
        if typ == "object":
            return self.obj(node, depth)
        return None

    def word(self) -> str:
        letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/é"
        return "".join(self.rng.choice(letters) for _ in range(self.rng.randint(1, 12)))

    def any_json(self, depth: int) -> Any:
        kinds = ["str", "int", "bool", "null", "float"] + ([] if depth > 4 else ["list", "dict"])
        kind = self.rng.choice(kinds)
        if kind == "list":
            return [self.any_json(depth + 1) for _ in range(self.rng.randint(0, 2))]
        if kind == "dict":
            return {k: self.any_json(depth + 1) for k in self.rng.sample(_EXTRA_KEYS, self.rng.randint(0, 2))}
        return {"str": "v", "int": 7, "bool": True, "null": None, "float": 0.5}[kind]

    # -- objects -------------------------------------------------------------------------

    @staticmethod
    def _is_object(node: dict[str, Any]) -> bool:
        return node.get("type") == "object" or "properties" in node

    def parts(self, node: dict[str, Any], depth: int) -> list[dict[str, Any]]:
        """The object schemas an instance must satisfy together: the node, its allOf
        parts and one branch of each anyOf/oneOf (recursively)."""
        if "$ref" in node:
            return self.parts(self.defs[node["$ref"][len(_REF) :]], depth)
        out = [node]
        for sub in node.get("allOf", []):
            out += self.parts(sub, depth)
        for key in ("anyOf", "oneOf"):
            if key in node:
                out += self.parts(self.rng.choice(node[key]), depth)
        return out

    def obj(self, node: dict[str, Any], depth: int) -> dict[str, Any]:
        parts = self.parts(node, depth)
        props: dict[str, Any] = {}
        required: set[str] = set()
        open_object = True
        for part in parts:
            required |= set(part.get("required", []))
            for name, sub in part.get("properties", {}).items():
                # A const (the tag) is more specific than a plain string of the catch-all.
                if name not in props or (isinstance(sub, dict) and "const" in sub):
                    props[name] = sub
            if part.get("additionalProperties") is False:
                open_object = False
        if not props and not required:
            extra = node.get("additionalProperties", True)
            if extra not in (True, {}):
                return {k: self.value(extra, depth + 1) for k in self.rng.sample(_EXTRA_KEYS, self.rng.randint(0, 2))}
        out: dict[str, Any] = {}
        for name, sub in props.items():
            keep = 0.0 if depth > 6 else 0.6
            if name in required or self.rng.random() < keep:
                out[name] = self.value(sub, depth + 1)
        if open_object and depth < 4 and self.rng.random() < 0.3:
            key = self.rng.choice(_EXTRA_KEYS)
            if key not in props:
                out[key] = self.any_json(depth + 1)
        return out


def samples(defs: dict[str, Any], name: str) -> Iterator[Any]:
    """Instances proposed for ``$defs[name]``, endlessly (seeded by the name: reproducible)."""
    sampler = Sampler(defs, zlib.crc32(name.encode()))
    node = {"$ref": _REF + name}
    while True:
        yield sampler.value(node)


# -- mutants ---------------------------------------------------------------------------------

# Replacement values by the JSON type they replace, each with the kind of mutation it is.
_WRONG: dict[type, tuple[tuple[str, Any], ...]] = {
    str: (("wrong_type", 12345), ("wrong_type", None), ("outside_set", "__bogus_tag__")),
    bool: (("wrong_type", "true"), ("wrong_type", 1)),
    int: (("wrong_type", "12"), ("wrong_type", True), ("negative", -1), ("out_of_range", 2**64),
          ("wrong_type", 1.5)),
    float: (("wrong_type", "1.5"), ("wrong_type", True)),
    list: (("wrong_type", {"a": 1}), ("wrong_type", "x")),
    dict: (("wrong_type", [1]), ("wrong_type", "x"), ("wrong_type", 5)),
    type(None): (("wrong_type", "x"), ("wrong_type", 0)),
}
MUTATION_KINDS = ("drop_member", "wrong_type", "outside_set", "negative", "out_of_range")


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield prefix, value
    if isinstance(value, dict):
        for key in value:
            yield from _paths(value[key], (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*prefix, i))


def _replace(root: Any, path: tuple[Any, ...], new: Any, drop: bool = False) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(root, dict):
        copy = dict(root)
        if drop and not rest:
            del copy[head]
        else:
            copy[head] = _replace(root[head], rest, new, drop)
        return copy
    copy_list = list(root)
    copy_list[head] = _replace(root[head], rest, new, drop)
    return copy_list


def mutants(instance: Any, rng: random.Random, limit: int) -> list[tuple[str, Any]]:
    """``(kind, instance)`` near a valid one: a member dropped (``drop_member``), a value of
    the wrong JSON type, a string outside its set (a wrong tag, an unknown enum value), a
    negative or out-of-range integer. Whether each is still valid is for the oracle to say."""
    out: list[tuple[str, Any]] = []
    for path, value in _paths(instance):
        if path and isinstance(path[-1], str):
            out.append(("drop_member", _replace(instance, path, None, drop=True)))
        for kind, wrong in _WRONG.get(type(value), ()):
            out.append((kind, _replace(instance, path, wrong)))
    if len(out) > limit:
        out = rng.sample(out, limit)
    return out
