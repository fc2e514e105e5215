"""One schema position in a canonical spelling, so equivalent spellings compare equal.

:func:`normalise` takes the raw schema object at one position and returns its assertions
(keyed by keyword, in a canonical spelling) apart from its annotations. The rewrites are the
ones JSON Schema 2020-12 defines as equivalent:

* ``allOf`` with one branch is merged into the position (``{allOf: [{$ref: X}]}`` is ``$ref X``);
* a ``{type: null}`` branch of ``anyOf`` / ``oneOf`` is "also accepts null" (``~null``), and a
  union left with one branch is merged too (``anyOf: [X, null]`` is X, nullable);
* ``type: "string"`` is ``type: ["string"]``; ``null`` in ``type`` is ``~null``; ``integer`` is
  dropped next to ``number``;
* ``enum``, ``const`` and a union of ``const`` branches (ACP's spelling of enums) are one value
  list (``~values``); a branch with a type and no value makes it open (``~open``);
* ``additionalProperties: true`` (and ``{}``), ``unevaluatedProperties: true``, ``items: true``,
  ``uniqueItems: false``, empty ``properties`` / ``required`` say nothing and are dropped;
* ``required`` is a set.

Other unions get their branches keyed (``~variants``): by tag (a ``const`` member every tagged
branch requires), else by the def the branch is built on, else by title.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from acpgen.evolve.keywords import BINDING_KEYWORDS, is_annotation

REF_PREFIX = "#/$defs/"

# Annotation anchors: "" is the position itself, "allOf/0" a merged branch, "=<json>" the
# branch of an enum value (so reordering values does not move their documentation).
Anchor = str


@dataclass
class Norm:
    a: dict[str, Any]  # assertions, canonical spelling
    ann: dict[tuple[Anchor, str], Any] = field(default_factory=dict)
    anchors: dict[Anchor, str] = field(default_factory=dict)  # anchor -> relative pointer
    variants: dict[str, tuple[str, Any]] = field(default_factory=dict)  # key -> (rel ptr, raw)
    catch_all: bool = False  # a tagged union with an untagged branch absorbs unknown tags
    raw: dict[str, Any] = field(default_factory=dict)  # flattened, annotations removed
    nullable: bool = False


def ref_name(ref: Any) -> str | None:
    if isinstance(ref, str) and ref.startswith(REF_PREFIX):
        return ref[len(REF_PREFIX):].replace("~1", "/").replace("~0", "~")
    return None


def json_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def is_null_schema(node: Any) -> bool:
    if not isinstance(node, dict):
        return False
    rest = {k: v for k, v in node.items() if not is_annotation(k)}
    return rest == {"type": "null"} or rest == {"type": ["null"]}


def normalise(node: Any) -> Norm:
    if node is True:
        return Norm({})
    if node is False:
        return Norm({"not": {}})
    if not isinstance(node, dict):
        return Norm({"~invalid": node})
    work: dict[str, Any] = {}
    norm = Norm({}, anchors={"": ""})
    _take(node, "", work, norm)
    _flatten(work, norm)
    norm.raw = dict(work)
    norm.a = _canon(work, norm)
    return norm


def _take(node: dict[str, Any], anchor: str, work: dict[str, Any], norm: Norm) -> None:
    """Move ``node``'s keys into ``work`` (assertions) and ``norm.ann`` (annotations)."""
    norm.anchors.setdefault(anchor, anchor)
    for key, value in node.items():
        if key in BINDING_KEYWORDS:
            continue
        if is_annotation(key):
            norm.ann[(anchor, key)] = value
        elif key == "properties" and isinstance(work.get(key), dict) and isinstance(value, dict):
            work[key] = {**work[key], **value}
        elif key == "required" and isinstance(work.get(key), list) and isinstance(value, list):
            work[key] = [*work[key], *(v for v in value if v not in work[key])]
        else:
            work[key] = value


def _mergeable(work: dict[str, Any], inner: Any, skip: str) -> bool:
    if not isinstance(inner, dict):
        return False
    for key, value in inner.items():
        if key in BINDING_KEYWORDS or is_annotation(key) or key not in work or key == skip:
            continue
        if key == "properties" and isinstance(value, dict) and isinstance(work[key], dict):
            if any(n in work[key] and work[key][n] != s for n, s in value.items()):
                return False
            # additionalProperties sees only the properties of its own object: keep them apart
            closed = ("additionalProperties", "unevaluatedProperties")
            if any(k in work for k in closed) or any(k in inner for k in closed):
                return False
        elif key == "required" and isinstance(value, list) and isinstance(work[key], list):
            continue
        elif work[key] != value:
            return False
    return True


def _flatten(work: dict[str, Any], norm: Norm) -> None:
    depth = 0
    while depth < 64:  # each round removes one keyword; the bound only guards odd input
        depth += 1
        single = next((k for k in ("allOf", "anyOf", "oneOf") if isinstance(work.get(k), list)
                       and len(work[k]) == 1 and _mergeable(work, work[k][0], k)), None)
        if single is not None:
            branch = work.pop(single)[0]
            _take(branch, f"{single}/0", work, norm)
            continue
        changed = False
        for key in ("anyOf", "oneOf"):
            branches = work.get(key)
            if not isinstance(branches, list) or len(branches) < 2:
                continue
            nulls = [i for i, b in enumerate(branches) if is_null_schema(b)]
            if len(nulls) != 1 or "null" not in _types(work.get("type", "null")):
                continue  # (a sibling type that rejects null makes the null branch dead)
            i = nulls[0]
            for k, v in branches[i].items():
                if is_annotation(k):
                    norm.ann[(f"{key}/null", k)] = v
            norm.anchors[f"{key}/null"] = f"{key}/{i}"
            norm.nullable = True
            rest = [b for j, b in enumerate(branches) if j != i]
            if len(rest) == 1 and _mergeable(work, rest[0], key):
                del work[key]
                _take(rest[0], f"{key}/{1 - i}", work, norm)
            else:
                work[key] = rest
                work[f"~{key}-indices"] = [j for j in range(len(branches)) if j != i]
            changed = True
            break
        if not changed:
            return


def _types(value: Any) -> list[Any]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return list(value)
    return [value]


def _canon(work: dict[str, Any], norm: Norm) -> dict[str, Any]:
    a: dict[str, Any] = {}
    nullable = norm.nullable
    for key, value in work.items():
        if key.startswith("~") and key.endswith("-indices"):
            continue
        if key == "type":
            types = set(map(str, _types(value)))
            if "null" in types:
                nullable = True
                types.discard("null")
            if "integer" in types and "number" in types:
                types.discard("integer")
            a["type"] = tuple(sorted(types))
        elif key == "enum":
            a["~values"] = list(value) if isinstance(value, list) else [value]
        elif key == "const":
            a["~values"] = [value]
        elif key == "$ref":
            a["$ref"] = ref_name(value) or value
        elif key == "required":
            req = tuple(sorted(set(map(str, value)))) if isinstance(value, list) else value
            if req != ():
                a["required"] = req
        elif key in ("additionalProperties", "unevaluatedProperties", "items", "unevaluatedItems",
                     "propertyNames", "contains") and (value is True or value == {}) or key == "properties" and value == {} or key == "uniqueItems" and value is False:
            continue
        elif key in ("anyOf", "oneOf") and isinstance(value, list) and "~union" not in a:
            indices = work.get(f"~{key}-indices", list(range(len(value))))
            _union(key, value, indices, a, norm)
        else:
            a[key] = value
    if "enum" in work and "const" in work:
        a["~values"] = [v for v in _types(work["enum"]) if v == work["const"]]
    if nullable:
        a["~null"] = True
    return a


def _union(key: str, branches: list[Any], indices: list[int], a: dict[str, Any],
           norm: Norm) -> None:
    norms = [normalise(b) for b in branches]
    if _is_value_union(norms):
        values: list[Any] = []
        types: set[str] = set()
        for n, i in zip(norms, indices):
            types.update(n.a.get("type", ()))
            if "~values" in n.a:
                values.extend(n.a["~values"])
                for v in n.a["~values"]:
                    anchor = "=" + json_key(v)
                    norm.anchors[anchor] = f"{key}/{i}"
                    for (_, k), doc in n.ann.items():
                        norm.ann[(anchor, k)] = doc
            else:
                a["~open"] = n.a.get("type", ())
                anchor = "=*"
                norm.anchors[anchor] = f"{key}/{i}"
                for (_, k), doc in n.ann.items():
                    norm.ann[(anchor, k)] = doc
        a["~values"] = values
        if types and "type" not in a:
            a["type"] = tuple(sorted(types))
        formats = {n.a["format"] for n in norms if "format" in n.a}
        if formats:
            a["format"] = formats.pop()
        return
    tag = _tag_property(norms)
    keys: list[str] = []
    for n, raw in zip(norms, branches):
        props = n.a.get("properties", {})
        tag_schema = props.get(tag) if tag and isinstance(props, dict) else None
        if isinstance(tag_schema, dict) and "const" in tag_schema:
            const = tag_schema["const"]
            key_ = const if isinstance(const, str) else json_key(const)
        elif "$ref" in n.a:
            key_ = str(n.a["$ref"])
        elif isinstance(raw, dict) and isinstance(raw.get("title"), str):
            key_ = raw["title"]
        else:
            key_ = json_key(n.a)
        if tag and not (isinstance(tag_schema, dict) and "const" in tag_schema):
            norm.catch_all = True
        while key_ in keys:
            key_ += "'"
        keys.append(key_)
    for key_, raw, i in zip(keys, branches, indices):
        norm.variants[key_] = (f"{key}/{i}", raw)
    a["~union"] = key
    a["~variants"] = tuple(sorted(keys))
    if tag:
        a["~tag"] = tag


def as_union(n: Norm, key: str) -> Norm:
    """A position that is not a union, as a union of its one branch, to compare it with one
    that is (a union that lost all branches but one is flattened by :func:`normalise`)."""
    out = Norm({}, anchors={"": ""})
    a: dict[str, Any] = {}
    _union(key, [n.raw], [0], a, out)
    out.variants = {k: ("", raw) for k, (_, raw) in out.variants.items()}
    out.a = a
    return out


def distributed(n: Norm) -> Norm | None:
    """A union position with the keywords beside the union moved into every branch
    (``{properties: {id}, oneOf: [A, B]}`` is ``oneOf: [A + id, B + id]``, the same values),
    to compare it with a position whose only branch was merged into it by :func:`normalise`
    (a one-branch union lifted). None when that is not a plain rewrite (a null branch split
    off, a branch that contradicts the keywords beside it)."""
    key = n.a.get("~union")
    if not isinstance(key, str):
        return None
    branches = n.raw.get(key)
    if not isinstance(branches, list) or n.nullable or f"~{key}-indices" in n.raw:
        return None
    rest = {k: v for k, v in n.raw.items() if k != key and not k.startswith("~")}
    merged: list[Any] = []
    for branch in branches:
        if not isinstance(branch, dict):
            return None
        both = dict(branch)
        for k, v in rest.items():
            if k == "properties" and isinstance(both.get(k), dict) and isinstance(v, dict):
                if any(name in both[k] and both[k][name] != sub for name, sub in v.items()):
                    return None
                both[k] = {**v, **both[k]}
            elif k == "required" and isinstance(both.get(k), list) and isinstance(v, list):
                both[k] = [*v, *(r for r in both[k] if r not in v)]
            elif k in both and both[k] != v:
                return None
            else:
                both[k] = v
        merged.append(both)
    out = Norm({}, anchors={"": ""})
    a: dict[str, Any] = {}
    _union(key, merged, list(range(len(merged))), a, out)
    out.a = a
    return out


def _is_value_union(norms: list[Norm]) -> bool:
    if not norms or not any("~values" in n.a for n in norms):
        return False
    if sum("~values" not in n.a for n in norms) > 1:
        return False
    if any(set(n.a) - {"type", "~values", "format"} for n in norms):
        return False
    return len({n.a.get("format") for n in norms}) == 1


def _tag_property(norms: list[Norm]) -> str | None:
    counts: Counter[str] = Counter()
    for n in norms:
        props = n.a.get("properties")
        if not isinstance(props, dict):
            continue
        for name, schema in props.items():
            if isinstance(schema, dict) and "const" in schema and name in n.a.get("required", ()):
                counts[name] += 1
    if not counts:
        return None
    return counts.most_common(1)[0][0]


def spelling(node: Any) -> Any:
    """The node without annotations, by position, with ``required`` as a set: two nodes with
    the same spelling are the same schema written the same way."""
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in BINDING_KEYWORDS or is_annotation(key):
                continue
            if key in ("properties", "patternProperties", "dependentSchemas", "$defs") and isinstance(
                    value, dict):
                out[key] = {k: spelling(v) for k, v in value.items()}
            elif key in ("allOf", "anyOf", "oneOf", "prefixItems") and isinstance(value, list):
                out[key] = [spelling(v) for v in value]
            elif key in ("items", "contains", "additionalProperties", "propertyNames",
                         "unevaluatedItems", "unevaluatedProperties", "not", "if", "then", "else"):
                out[key] = spelling(value)
            elif key == "required" and isinstance(value, list):
                out[key] = sorted(map(str, value))
            else:
                out[key] = value
        return out
    return node
