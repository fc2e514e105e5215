"""Compare two JSON Schema documents position by position; every difference is a Finding.

The walk starts at each ``$defs`` entry and at the document root, and descends only through
schema positions (``properties/<name>``, ``items``, union branches, ...), so keywords and
property names are never confused. At each position both sides are normalised
(:mod:`acpgen.evolve.normal`) and compared keyword by keyword; every keyword is classified
(:mod:`acpgen.evolve.keywords`), and a keyword the walker does not know is reported as
``UNCLASSIFIED``, never dropped.

Each finding carries its *effect* on the set of valid values at that position:

``narrows``       fewer values are valid: a writer generated from OLD may send what NEW rejects;
``widens``        more values are valid: a reader generated from OLD may receive what it rejects;
``both``          neither a subset nor a superset (or the meaning of an omission changed);
``none``          the same values are valid (a source-level change of the generated code only);
``annotation``    documentation or vendor data;
``unclassified``  a difference the walker cannot classify (assumed breaking for both sides).

Two ``$ref`` to the same def are not followed (that def is compared at its own position). A
``$ref`` that now names another def, or an inlined def, is expanded and compared structurally,
so a rename or an inlining with the same wire shape is ``none``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from typing import Any

from acpgen.evolve.keywords import (
    ASSERTIONS,
    LOWER_BOUNDS,
    PRECISION_FORMATS,
    UPPER_BOUNDS,
    is_doc,
    kind_of,
)
from acpgen.evolve.normal import Norm, as_union, distributed, json_key, normalise, spelling
from acpgen.ir.formats import INTEGER_FORMATS

NARROWS = "narrows"
WIDENS = "widens"
BOTH = "both"
NONE = "none"
ANNOTATION = "annotation"
UNCLASSIFIED = "unclassified"

_MISSING: Any = object()


@dataclass(frozen=True)
class Finding:
    kind: str
    pointer: str  # into OLD; into NEW for what only NEW has
    effect: str
    detail: str
    member: str | None = None  # enum value, variant key, annotation keyword, property name
    old: Any = None
    new: Any = None
    doc: str = ""  # documentation of an added variant (capability gates are read from it)
    # the variant of the def's own union the change is inside (SessionUpdate[plan]._meta),
    # so that one change made in several variants is one line for each, each named
    variant: str | None = None


def esc(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _tighten(ptr: str, keyword: str, detail: str, old: Any = None, new: Any = None) -> Finding:
    return Finding("CONSTRAINT_TIGHTENED", ptr, NARROWS, detail, keyword, old, new)


def _relax(ptr: str, keyword: str, detail: str, old: Any = None, new: Any = None) -> Finding:
    return Finding("CONSTRAINT_RELAXED", ptr, WIDENS, detail, keyword, old, new)


def _changed(ptr: str, keyword: str, detail: str, old: Any = None, new: Any = None) -> Finding:
    return Finding("CONSTRAINT_CHANGED", ptr, BOTH, detail, keyword, old, new)


def _presence(ptr: str, keyword: str, old: Any, new: Any) -> Finding:
    """An assertion added (narrows), removed (widens) or changed (both)."""
    if old is _MISSING:
        return _tighten(ptr, keyword, f"{keyword} added: {_short(new)}", None, new)
    if new is _MISSING:
        return _relax(ptr, keyword, f"{keyword} removed (was {_short(old)})", old, None)
    return _changed(ptr, keyword, f"{keyword} {_short(old)} -> {_short(new)}", old, new)


def combined(findings: list[Finding]) -> str:
    """The effect of several findings at one position taken together."""
    effects = {f.effect for f in findings} - {NONE, ANNOTATION}
    if not effects:
        return NONE
    if UNCLASSIFIED in effects:
        return UNCLASSIFIED
    if len(effects) == 1:
        return effects.pop()
    return BOTH


def _flip(effect: str) -> str:
    return {NARROWS: WIDENS, WIDENS: NARROWS}.get(effect, effect)


class Walker:
    """Compares positions of OLD and NEW; ``explained`` names defs whose union branches are
    reported as method changes (the envelope unions that route a method's params/result)."""

    def __init__(self, old_defs: dict[str, Any], new_defs: dict[str, Any],
                 explained: frozenset[str] = frozenset(),
                 routing: frozenset[str] = frozenset()) -> None:
        self.old_defs = old_defs
        self.new_defs = new_defs
        self.explained = explained
        self.routing = routing  # defs that route messages to methods (see acpgen.evolve.diff)
        self._visiting: set[tuple[str | None, str | None]] = set()
        self._explained_seen = 0  # branches left to the method changes so far

    # -- entry -------------------------------------------------------------------------------

    def compare(self, a: Any, b: Any, ptr: str) -> list[Finding]:
        na, nb = normalise(a), normalise(b)
        out = self._annotations(na, nb, ptr)
        explained_before = self._explained_seen
        one_union = ("~union" in na.a) != ("~union" in nb.a)  # a union that kept one branch
        if na.a.get("$ref") != nb.a.get("$ref") and not one_union:
            sem = self._ref_changed(na, nb, ptr)
        elif one_union and (lifted := self._lifted(na, nb, ptr)) is not None:
            sem = lifted
        else:
            sem = self._assertions(na, nb, ptr)
        if not sem and spelling(a) != spelling(b) and self._explained_seen == explained_before:
            sem = [Finding("EQUIVALENT_REWRITE", ptr, NONE,
                           "the same values are valid, spelt differently (generated code may differ)")]
        return out + sem

    def _lifted(self, na: Norm, nb: Norm, ptr: str) -> list[Finding] | None:
        """One side a union, the other a single branch merged into its position: compare
        branch by branch, with the keywords beside the union moved into each branch, so a
        member declared beside the union is not 'removed' because the other side merged it."""
        da: Norm | None
        db: Norm | None
        if "~union" in na.a:
            da, db = distributed(na), as_union(nb, str(na.a["~union"]))
        else:
            da, db = as_union(na, str(nb.a["~union"])), distributed(nb)
        if da is None or db is None:
            return None
        return self._variants(da, db, ptr)

    # -- annotations -------------------------------------------------------------------------

    def _annotations(self, na: Norm, nb: Norm, ptr: str) -> list[Finding]:
        out: list[Finding] = []
        for anchor, key in sorted(set(na.ann) | set(nb.ann)):
            old, new = na.ann.get((anchor, key), _MISSING), nb.ann.get((anchor, key), _MISSING)
            if old == new:
                continue
            rel = na.anchors.get(anchor) if old is not _MISSING else nb.anchors.get(anchor)
            at = f"{ptr}/{rel}" if rel else ptr
            how = "added" if old is _MISSING else "removed" if new is _MISSING else "changed"
            out.append(Finding("DESCRIPTION_CHANGED" if is_doc(key) else "ANNOTATION_CHANGED",
                               at or "/", ANNOTATION, f"{key} {how} at {at or '/'}", key,
                               None if old is _MISSING else old, None if new is _MISSING else new))
        return out

    # -- references ------------------------------------------------------------------------

    def _expand(self, n: Norm, defs: dict[str, Any]) -> Any:
        """The position with its ``$ref`` replaced by the def it names (siblings kept)."""
        name = n.a.get("$ref")
        rest = {k: v for k, v in n.raw.items() if k != "$ref" and not k.startswith("~")}
        target = defs.get(name) if isinstance(name, str) else None
        merged: Any = target
        if target is None:
            merged = n.raw  # no $ref here (or one to nothing, refused on loading)
        elif rest:
            merged = {"allOf": [target, rest]} if _conflicts(target, rest) else _merge(target, rest)
        if n.nullable:
            merged = {"anyOf": [merged, {"type": "null"}]}
        return merged

    def _ref_changed(self, na: Norm, nb: Norm, ptr: str) -> list[Finding]:
        ra, rb = na.a.get("$ref"), nb.a.get("$ref")
        pair = (ra, rb)
        if pair in self._visiting:
            return []  # a recursive type compared against itself: equal unless shown otherwise
        self._visiting.add(pair)
        try:
            inner = self.compare(self._expand(na, self.old_defs), self._expand(nb, self.new_defs), ptr)
        finally:
            self._visiting.discard(pair)
        inner = [f for f in inner if f.effect != ANNOTATION]
        if combined(inner) != NONE:
            return inner
        if ra and rb:
            what = f"now refers to def {rb} instead of {ra}, which has the same shape"
        elif ra:
            what = f"def {ra} inlined (same shape)"
        else:
            what = f"moved into def {rb} (same shape)"
        return [Finding("EQUIVALENT_REWRITE", ptr, NONE, what, None, ra, rb)]

    # -- assertions --------------------------------------------------------------------------

    def _assertions(self, na: Norm, nb: Norm, ptr: str) -> list[Finding]:
        a, b = na.a, nb.a
        out: list[Finding] = []
        handled = {"$ref", "type", "~null", "~values", "~open", "~union", "~variants", "~tag",
                   "properties", "required", "additionalProperties", "unevaluatedProperties",
                   "default"}
        if _integer_only(a) and _integer_only(b):
            out += self._range(a, b, ptr)
            handled |= {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
            if a.get("format") in INTEGER_FORMATS or b.get("format") in INTEGER_FORMATS:
                handled.add("format")
        out += self._types(a, b, ptr)
        out += self._values(a, b, ptr)
        out += self._variants(na, nb, ptr)
        out += self._object(a, b, ptr)
        out += self._default(na, nb, ptr)
        for key in sorted((set(a) | set(b)) - handled):
            old, new = a.get(key, _MISSING), b.get(key, _MISSING)
            if old == new:
                continue
            out += self._keyword(key, old, new, ptr)
        return out

    def _keyword(self, key: str, old: Any, new: Any, ptr: str) -> list[Finding]:
        at = f"{ptr}/{esc(key)}"
        if key in ("items", "contains", "propertyNames", "unevaluatedItems", "then", "else"):
            if old is _MISSING or new is _MISSING:
                return [_presence(ptr, key, old, new)]
            return self.compare(old, new, at)  # narrower items: narrower array
        if key == "not":
            if old is _MISSING or new is _MISSING:
                return [_presence(ptr, key, old, new)]
            inner = self.compare(old, new, at)
            effect = _flip(combined(inner))
            if effect == NONE:
                return [f for f in inner if f.effect in (NONE, ANNOTATION)]
            kind = {NARROWS: "CONSTRAINT_TIGHTENED", WIDENS: "CONSTRAINT_RELAXED",
                    UNCLASSIFIED: "UNCLASSIFIED"}.get(effect, "CONSTRAINT_CHANGED")
            return [Finding(kind, ptr, effect, "the schema under not changed", "not")]
        if key in ("patternProperties", "dependentSchemas") and isinstance(old, dict) and isinstance(
                new, dict):
            out: list[Finding] = []
            for name in sorted(set(old) | set(new)):
                x, y = old.get(name, _MISSING), new.get(name, _MISSING)
                if x is _MISSING or y is _MISSING:
                    out.append(_presence(ptr, f"{key}/{name}", x, y))
                elif x != y:
                    out += self.compare(x, y, f"{at}/{esc(name)}")
            return out
        if key == "dependentRequired" and isinstance(old, dict) and isinstance(new, dict):
            out = []
            for name in sorted(set(old) | set(new)):
                x, y = set(old.get(name, ())), set(new.get(name, ()))
                if y - x:
                    out.append(_tighten(ptr, key, f"{name} now requires {sorted(y - x)}"))
                if x - y:
                    out.append(_relax(ptr, key, f"{name} no longer requires {sorted(x - y)}"))
            return out
        if key in ("allOf", "prefixItems") and isinstance(old, list) and isinstance(new, list):
            out = []
            for i, (x, y) in enumerate(zip(old, new)):
                out += self.compare(x, y, f"{at}/{i}")
            if len(new) > len(old):
                more = "branches" if key == "allOf" else "leading items constrained"
                out.append(_tighten(ptr, key, f"{key}: {len(new) - len(old)} more {more}"))
            elif len(old) > len(new):
                out.append(_relax(ptr, key, f"{key}: {len(old) - len(new)} fewer"))
            return out
        if key in LOWER_BOUNDS or key in UPPER_BOUNDS:
            if old is _MISSING or new is _MISSING:
                return [_presence(ptr, key, old, new)]
            narrower = new > old if key in LOWER_BOUNDS else new < old
            f = _tighten if narrower else _relax
            return [f(ptr, key, f"{key} {old} -> {new}", old, new)]
        if key == "multipleOf":
            if old is _MISSING or new is _MISSING:
                return [_presence(ptr, key, old, new)]
            if _is_multiple(new, old):
                return [_tighten(ptr, key, f"multipleOf {old} -> {new}", old, new)]
            if _is_multiple(old, new):
                return [_relax(ptr, key, f"multipleOf {old} -> {new}", old, new)]
            return [_changed(ptr, key, f"multipleOf {old} -> {new}", old, new)]
        if key == "uniqueItems":
            return [_tighten(ptr, key, "items must now be unique")] if new is True else [
                _relax(ptr, key, "items no longer need to be unique")]
        if key == "format":
            if {old, new} <= PRECISION_FORMATS | {_MISSING}:
                return []  # every JSON number already has double precision: no constraint
            return [_presence(ptr, key, old, new)]
        if key in ("pattern", "if", "$defs") or key in ASSERTIONS:
            return [_presence(ptr, key, old, new)]
        if key in ("~anyOf", "~oneOf", "anyOf", "oneOf"):
            return [_presence(ptr, key, old, new)]
        why = "identifies or resolves schemas" if kind_of(key) == "identifier" else "is not a keyword acpgen knows"
        return [Finding("UNCLASSIFIED", ptr, UNCLASSIFIED,
                        f"{key} changed ({key} {why}): assumed breaking for both sides", key,
                        None if old is _MISSING else old, None if new is _MISSING else new)]

    # -- types and values ------------------------------------------------------------------

    def _types(self, a: dict[str, Any], b: dict[str, Any], ptr: str) -> list[Finding]:
        out: list[Finding] = []
        ta, tb = a.get("type"), b.get("type")
        if ta != tb and not (_values_only(a) and _values_only(b)):
            spell = f"type {_spell_types(ta)} -> {_spell_types(tb)}"
            if _subset(ta, tb):
                out.append(Finding("TYPE_WIDENED", ptr, WIDENS, spell, None, ta, tb))
            elif _subset(tb, ta):
                out.append(Finding("TYPE_NARROWED", ptr, NARROWS, spell, None, ta, tb))
            else:
                out.append(Finding("TYPE_CHANGED", ptr, BOTH, spell, None, ta, tb))
        null_a, null_b = _accepts_null(a), _accepts_null(b)
        if null_a != null_b:
            if null_b:
                out.append(Finding("NULLABLE_ADDED", ptr, WIDENS, "now accepts null"))
            else:
                out.append(Finding("NULLABLE_REMOVED", ptr, NARROWS, "no longer accepts null"))
        return out

    def _values(self, a: dict[str, Any], b: dict[str, Any], ptr: str) -> list[Finding]:
        va, vb = a.get("~values"), b.get("~values")
        if va is None and vb is None:
            return []
        if va is None:
            return [_tighten(ptr, "enum", f"restricted to {_short(vb)}", None, vb)]
        if vb is None:
            return [_relax(ptr, "enum", f"no longer restricted to {_short(va)}", va, None)]
        out: list[Finding] = []
        ka, kb = [json_key(v) for v in va], [json_key(v) for v in vb]
        open_a, open_b = "~open" in a, "~open" in b
        for v in vb:
            if json_key(v) not in ka:
                label = v if isinstance(v, str) else json_key(v)
                # An open enum's catch-all already accepts it (if it has the catch-all's type).
                effect = NONE if open_a and _json_type(v) in _widen_types(a["~open"]) else WIDENS
                out.append(Finding("ENUM_VALUE_ADDED", ptr, effect, f"value {json_key(v)} added",
                                   label, None, v))
        for v in va:
            if json_key(v) not in kb:
                label = v if isinstance(v, str) else json_key(v)
                # Even an open enum still accepts it, but as an unknown value: what an OLD
                # writer means by it is no longer understood (as for a removed property).
                out.append(Finding("ENUM_VALUE_REMOVED", ptr, NARROWS, f"value {json_key(v)} removed",
                                   label, v, None))
        if open_a != open_b:
            if open_b:
                out.append(Finding("ENUM_OPENED", ptr, WIDENS, "values outside the list are now valid"))
            else:
                out.append(Finding("ENUM_CLOSED", ptr, NARROWS, "only the listed values are now valid"))
        elif open_a and a.get("~open") != b.get("~open"):
            out.append(_changed(ptr, "enum", "the type of unlisted values changed"))
        if not out and ka != kb:
            out.append(Finding("EQUIVALENT_REWRITE", ptr, NONE, "the same values, listed in another order"))
        return out

    def _variants(self, na: Norm, nb: Norm, ptr: str) -> list[Finding]:
        ua: str | None = na.a.get("~union")
        ub: str | None = nb.a.get("~union")
        if ua is None and ub is None:
            return []
        if ua is None:
            assert ub is not None
            na, ua = as_union(na, ub), ub
        elif ub is None:
            nb, ub = as_union(nb, ua), ua
        if "~union" not in na.a or "~union" not in nb.a:  # a union of enum values vs branches
            return [Finding("TYPE_CHANGED", ptr, BOTH, "union of branches <-> enum")]
        out: list[Finding] = []
        pairs, paired_new = self._renamed_branches(na, nb, ptr)
        for key in sorted(set(na.variants) | set(nb.variants)):
            if key in pairs:
                if pairs[key] is not None:
                    out.append(pairs[key])  # type: ignore[arg-type]
                continue
            if key in paired_new:
                continue
            x, y = na.variants.get(key), nb.variants.get(key)
            if (key in self.explained or self._catch_all_route(ptr, x, y)) and (x is None or y is None):
                self._explained_seen += 1
                continue  # a method's params/result branch: reported as the method change
            if x is None and y is not None:
                effect = NONE if na.catch_all else WIDENS
                doc = _doc(y[1], self.new_defs)
                out.append(Finding("VARIANT_ADDED", _join(ptr, y[0]), effect, f"variant {key} added",
                                   key, None, key, doc))
            elif y is None and x is not None:
                out.append(Finding("VARIANT_REMOVED", _join(ptr, x[0]), NARROWS,
                                   f"variant {key} removed", key, key, None))
            elif x is not None and y is not None:
                inside = self.compare(x[1], y[1], _join(ptr, x[0]))
                if _is_def_root(ptr):
                    inside = [replace(f, variant=key) if f.variant is None else f for f in inside]
                out += inside
        if ua != ub:
            if na.a.get("~tag") and na.a.get("~tag") == nb.a.get("~tag"):
                out.append(Finding("EQUIVALENT_REWRITE", ptr, NONE,
                                   f"{ua} -> {ub} (branches are told apart by their tag)"))
            elif ub == "oneOf":
                out.append(_tighten(ptr, ub, f"{ua} -> {ub}: a value may match only one branch"))
            else:
                out.append(_relax(ptr, ub, f"{ua} -> {ub}: a value may match several branches"))
        return out

    def _catch_all_route(self, ptr: str, x: Any, y: Any) -> bool:
        """An added branch of a routing union that accepts any params: extension methods,
        opt-in like any new method (an OLD peer never calls them, and ignores or refuses
        those it is sent)."""
        if x is not None or y is None or not (ptr.startswith("/$defs/")):
            return False
        name = ptr.split("/")[2].replace("~1", "/").replace("~0", "~")
        branch = normalise(y[1]).a
        return name in self.routing and not any(k for k in branch if not k.startswith("~"))

    def _renamed_branches(self, na: Norm, nb: Norm, ptr: str
                          ) -> tuple[dict[str, Finding | None], set[str]]:
        """Branches keyed by def or title whose key changed but whose shape did not (a def
        renamed, a branch retitled): one EQUIVALENT_REWRITE each, keyed by the OLD key."""
        paired: set[str] = set()
        gone = [k for k in na.variants if k not in nb.variants and k not in self.explained]
        new = [k for k in nb.variants if k not in na.variants and k not in self.explained]
        if na.a.get("~tag") or not gone or not new:
            return {}, paired
        out: dict[str, Finding | None] = {}
        for old_key in gone:
            rel, raw = na.variants[old_key]
            for new_key in new:
                if new_key in paired:
                    continue
                explained_before = self._explained_seen
                found = self.compare(raw, nb.variants[new_key][1], _join(ptr, rel))
                if combined(found) == NONE:
                    paired.add(new_key)
                    if self._explained_seen > explained_before and not [
                            f for f in found if f.kind != "EQUIVALENT_REWRITE"]:
                        out[old_key] = None  # only a method's branches differ inside it
                        break
                    out[old_key] = Finding("EQUIVALENT_REWRITE", _join(ptr, rel), NONE,
                                           f"branch {old_key} is now {new_key} (same shape)",
                                           old_key, old_key, new_key)
                    break
        return out, paired

    # -- objects -----------------------------------------------------------------------------

    def _object(self, a: dict[str, Any], b: dict[str, Any], ptr: str) -> list[Finding]:
        out: list[Finding] = []
        pa, pb = a.get("properties", {}), b.get("properties", {})
        if not isinstance(pa, dict) or not isinstance(pb, dict):
            return [_presence(ptr, "properties", pa, pb)] if pa != pb else []
        ra, rb = set(a.get("required", ())), set(b.get("required", ()))
        closed_a = a.get("additionalProperties") is False or a.get("unevaluatedProperties") is False
        for name in sorted(set(pa) | set(pb)):
            at = f"{ptr}/properties/{esc(name)}"
            if name not in pa:
                required = name in rb
                if closed_a:
                    effect = BOTH if required else WIDENS
                else:
                    effect = NARROWS if required else NONE
                req = "required" if required else "optional"
                out.append(Finding("PROPERTY_ADDED", at, effect, f"{req} property added", name,
                                   None, req))
            elif name not in pb:
                required = name in ra
                req = "required" if required else "optional"
                out.append(Finding("PROPERTY_REMOVED", at, BOTH if required else NARROWS,
                                   f"{req} property removed", name, req, None))
            else:
                out += self.compare(pa[name], pb[name], at)
                if (name in ra) != (name in rb):
                    if name in rb:
                        out.append(Finding("PROPERTY_REQUIRED", at, NARROWS, "optional -> required",
                                           name, False, True))
                    else:
                        out.append(Finding("PROPERTY_OPTIONAL", at, WIDENS, "required -> optional",
                                           name, True, False))
        for name in sorted((ra ^ rb) - set(pa) - set(pb)):
            if name in rb:
                out.append(_tighten(ptr, "required", f"{name} (not declared) now required"))
            else:
                out.append(_relax(ptr, "required", f"{name} (not declared) no longer required"))
        for key in ("additionalProperties", "unevaluatedProperties"):
            out += self._closure(key, a.get(key, True), b.get(key, True), ptr)
        return out  # (the order members are declared in is no change: not reported)

    def _closure(self, key: str, old: Any, new: Any, ptr: str) -> list[Finding]:
        if old == new:
            return []
        if isinstance(old, dict) and isinstance(new, dict):
            return self.compare(old, new, f"{ptr}/{key}")
        if old is True and new is False:
            return [Finding("OBJECT_CLOSED", ptr, NARROWS, f"{key} false: unlisted members now invalid",
                            key)]
        if old is False and new is True:
            return [Finding("OBJECT_OPENED", ptr, WIDENS, f"{key} no longer false: unlisted members valid",
                            key)]
        if new is False or old is True:
            return [_tighten(ptr, key, f"{key} {_short(old)} -> {_short(new)}", old, new)]
        return [_relax(ptr, key, f"{key} {_short(old)} -> {_short(new)}", old, new)]

    # -- defaults ----------------------------------------------------------------------------

    def _default(self, na: Norm, nb: Norm, ptr: str) -> list[Finding]:
        da, db = na.a.get("default", _MISSING), nb.a.get("default", _MISSING)
        if da is _MISSING and db is _MISSING:
            return []
        if self._same_default(da, na, db, nb, 0):
            if da != db:
                return [Finding("EQUIVALENT_REWRITE", ptr, NONE,
                                "default restated (members equal to their own defaults)", "default",
                                da, db)]
            return []
        if da is _MISSING:
            detail = f"default added: {_short(db)}"
        elif db is _MISSING:
            detail = f"default removed (was {_short(da)})"
        else:
            detail = f"default {_short(da)} -> {_short(db)}"
        return [Finding("DEFAULT_CHANGED", ptr, BOTH, detail, None,
                        None if da is _MISSING else da, None if db is _MISSING else db)]

    def _members(self, n: Norm, defs: dict[str, Any]) -> dict[str, Any] | None:
        shape = normalise(self._expand(n, defs)) if "$ref" in n.a else n
        props = shape.a.get("properties")
        return props if isinstance(props, dict) else None

    def _same_default(self, da: Any, na: Norm, db: Any, nb: Norm, depth: int) -> bool:
        """Do two defaults mean the same, once omitted members take their own defaults?

        A member only one side declares is left out: adding or removing it is reported as
        its own change, and its default only ever applies on the side that has it.
        """
        if not (isinstance(da, dict) and isinstance(db, dict)) or depth > 8:
            return bool(da == db)
        pa, pb = self._members(na, self.old_defs), self._members(nb, self.new_defs)
        if pa is None or pb is None:
            return bool(da == db)
        for key in sorted(set(da) | set(db) | (set(pa) & set(pb))):
            if (key in pa) != (key in pb):
                continue
            if key not in pa:
                if da.get(key, _MISSING) != db.get(key, _MISSING):
                    return False
                continue
            ma, mb = normalise(pa[key]), normalise(pb[key])
            xa = da.get(key, ma.a.get("default", _MISSING))
            xb = db.get(key, mb.a.get("default", _MISSING))
            if not self._same_default(xa, ma, xb, mb, depth + 1):
                return False
        return True

    # -- integer ranges ----------------------------------------------------------------------

    def _range(self, a: dict[str, Any], b: dict[str, Any], ptr: str) -> list[Finding]:
        lo_a, hi_a = _bounds(a)
        lo_b, hi_b = _bounds(b)
        if (lo_a, hi_a) == (lo_b, hi_b):
            return []
        spell = f"integer range {_spell_range(lo_a, hi_a, a)} -> {_spell_range(lo_b, hi_b, b)}"
        inside_b = _le(lo_a, lo_b) and _ge(hi_a, hi_b)  # NEW's range inside OLD's
        inside_a = _le(lo_b, lo_a) and _ge(hi_b, hi_a)
        if inside_b:
            return [_tighten(ptr, "range", spell, (lo_a, hi_a), (lo_b, hi_b))]
        if inside_a:
            return [_relax(ptr, "range", spell, (lo_a, hi_a), (lo_b, hi_b))]
        return [_changed(ptr, "range", spell, (lo_a, hi_a), (lo_b, hi_b))]


# -- helpers -----------------------------------------------------------------------------------


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "array" if isinstance(value, list) else "object"


def _widen_types(types: Any) -> set[str]:
    """A type list with what it implies (number admits integers; no list: any type)."""
    if not types:
        return {"boolean", "integer", "number", "string", "null", "array", "object"}
    out = set(types)
    if "number" in out:
        out.add("integer")
    return out


def _is_def_root(ptr: str) -> bool:
    """Whether ``ptr`` is a def itself (``/$defs/Name``), not a position inside one."""
    parts = ptr.split("/")
    return len(parts) == 3 and parts[0] == "" and parts[1] == "$defs"


def _join(ptr: str, rel: str) -> str:
    return f"{ptr}/{rel}" if rel else ptr


def _doc(branch: Any, defs: dict[str, Any]) -> str:
    """The documentation of a branch and of the def it is built on."""
    if not isinstance(branch, dict):
        return ""
    texts = [str(branch.get("description", "") or "")]
    target = defs.get(str(normalise(branch).a.get("$ref")))
    if isinstance(target, dict):
        texts.append(str(target.get("description", "") or ""))
    return " ".join(t for t in texts if t)


def _conflicts(target: Any, rest: dict[str, Any]) -> bool:
    if not isinstance(target, dict):
        return True
    for key, value in rest.items():
        if key in target and target[key] != value and key not in ("properties", "required"):
            return True
        if (key == "properties" and isinstance(target.get(key), dict) and isinstance(value, dict)
                and any(n in target[key] and target[key][n] != s for n, s in value.items())):
            return True
    return False


def _merge(target: dict[str, Any], rest: dict[str, Any]) -> dict[str, Any]:
    out = dict(target)
    for key, value in rest.items():
        if key == "properties" and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        elif key == "required" and isinstance(out.get(key), list):
            out[key] = [*out[key], *(v for v in value if v not in out[key])]
        else:
            out[key] = value
    return out


def _integer_only(a: dict[str, Any]) -> bool:
    return a.get("type") == ("integer",)


def _values_only(a: dict[str, Any]) -> bool:
    return "~values" in a and "~open" not in a


def _subset(x: Any, y: Any) -> bool:
    """Every value of type set ``x`` is of type set ``y`` (None: any type)."""
    if y is None:
        return True
    if x is None:
        return False
    return all(t in y or (t == "integer" and "number" in y) for t in x)


def _accepts_null(a: dict[str, Any]) -> bool:
    if a.get("~null"):
        return True
    constrained = ("type", "$ref", "~values", "~union", "not", "allOf")
    return not any(k in a for k in constrained)


def _spell_types(t: Any) -> str:
    if t is None:
        return "any"
    return "|".join(t) if t else "null"


def _bounds(a: dict[str, Any]) -> tuple[float | None, float | None]:
    lo: float | None = None
    hi: float | None = None
    fmt = a.get("format")
    if fmt in INTEGER_FORMATS:
        lo, hi = INTEGER_FORMATS[fmt]
    for key, value in (("minimum", a.get("minimum")), ("exclusiveMinimum", a.get("exclusiveMinimum"))):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            bound = math.ceil(value) if key == "minimum" else math.floor(value) + 1
            lo = bound if lo is None else max(lo, bound)
    for key, value in (("maximum", a.get("maximum")), ("exclusiveMaximum", a.get("exclusiveMaximum"))):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            bound = math.floor(value) if key == "maximum" else math.ceil(value) - 1
            hi = bound if hi is None else min(hi, bound)
    return lo, hi


def _le(x: float | None, y: float | None) -> bool:
    """Lower bound x is at most lower bound y (None: unbounded below)."""
    return x is None or (y is not None and x <= y)


def _ge(x: float | None, y: float | None) -> bool:
    """Upper bound x is at least upper bound y (None: unbounded above)."""
    return x is None or (y is not None and x >= y)


def _spell_range(lo: float | None, hi: float | None, a: dict[str, Any]) -> str:
    fmt = a.get("format")
    text = f"[{'-inf' if lo is None else lo}, {'inf' if hi is None else hi}]"
    return f"{text} ({fmt})" if fmt else text


def _is_multiple(x: Any, y: Any) -> bool:
    try:
        q = x / y
    except (TypeError, ZeroDivisionError):
        return False
    return bool(abs(q - round(q)) < 1e-9)
