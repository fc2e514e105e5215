"""Evidence for every verdict: witnesses behind breaking changes, a counterexample search
behind compatible ones.

A **witness** is a small concrete JSON value of the changed def (or a message) that shows the
break in the direction the verdict claims, checked with ``jsonschema`` (Draft 2020-12, with
the integer formats acpgen enforces as ranges) against both schemas before it is reported:

``reader``   NEW accepts it and OLD rejects it: a NEW writer may send it, an OLD reader fails;
``writer``   OLD accepts it and NEW rejects it: an OLD writer may send it, a NEW reader fails;
``dropped``  OLD accepts it, NEW accepts it but no longer declares the member (or enum value)
             it carries: an OLD writer's data is silently ignored by a NEW reader;
``default``  valid on both sides with the member omitted, but the omission means OLD's
             default on one side and NEW's on the other;
``method``   a JSON-RPC message the OLD method table routes and NEW's routes elsewhere or not
             at all (its params checked against the OLD schema).

A change classified breaking whose witness cannot be found is not reported as breaking: when
the search exercised the changed position and every instance validated on both sides, it is
compatible ("no witness"); when no instance reached it (a pattern no candidate matches, a
keyword jsonschema does not know), it is **unproven**, with the reason.

Behind every compatible verdict a seeded, time-bounded search generates instances of each
changed def on both sides and validates them against the other side; a counterexample turns
the def's compatible change into a breaking one with that witness.
"""

from __future__ import annotations

import copy
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from referencing.exceptions import Unresolvable

from acpgen.evolve.instances import Instances, esc
from acpgen.evolve.normal import ref_name
from acpgen.ir.formats import INTEGER_FORMATS

SEED = 20261130
_SHORT = 80


@dataclass(frozen=True)
class Witness:
    """One concrete value showing a change's effect (see the module docstring for kinds)."""

    kind: str  # reader | writer | dropped | default | method
    of: str  # what the instance is: a def name, "(envelope)" or "message"
    instance: Any
    old: str  # what OLD says: "accepts", "rejects: <first error>", "routes ...", "default X"
    new: str
    breaks: tuple[str, ...] = ()  # the sides it proves broken: client, agent

    def short(self) -> str:
        text = json.dumps(self.instance, sort_keys=True, separators=(",", ":"))
        if len(text) > _SHORT:
            text = text[: _SHORT - 3] + "..."
        said = (self.old.split(" (")[0][:60], self.new.split(" (")[0][:60])
        return f"{self.kind} witness {self.of} {text} (OLD {said[0]}; NEW {said[1]})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "of": self.of, "instance": self.instance, "old": self.old,
                "new": self.new, "breaks": list(self.breaks)}


def _format_checker() -> FormatChecker:
    checker = FormatChecker(formats=())
    for name, (lo, hi) in INTEGER_FORMATS.items():
        def check(value: Any, lo: int = lo, hi: int = hi) -> bool:
            if isinstance(value, bool) or not isinstance(value, int):
                return True  # a format only constrains values of its own type
            return lo <= value <= hi
        checker.checks(name)(check)
    return checker


_CHECKER = _format_checker()


class Oracle:
    """``jsonschema`` validators of one schema document, per def (and for the root)."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.defs: dict[str, Any] = schema.get("$defs", {}) if isinstance(schema.get("$defs"),
                                                                            dict) else {}
        self._validators: dict[str, Draft202012Validator] = {}
        self._verdicts: dict[tuple[str, str], str | None] = {}  # the same instance is met often

    def validator(self, name: str) -> Draft202012Validator | None:
        """Validator of a def (``""``: the document root); None if there is no such def."""
        if name not in self._validators:
            if name == "":
                doc = self.schema
            elif name in self.defs:
                doc = {"$defs": self.defs, "$ref": f"#/$defs/{esc(name)}"}
            else:
                return None
            self._validators[name] = Draft202012Validator(doc, format_checker=_CHECKER)
        return self._validators[name]

    def verdict(self, name: str, instance: Any) -> str | None:
        """None if valid, else the first error (one line); "no such def" if missing."""
        key = (name, json.dumps(instance, sort_keys=True))
        if key not in self._verdicts:
            self._verdicts[key] = self._verdict(name, instance)
        return self._verdicts[key]

    def _verdict(self, name: str, instance: Any) -> str | None:
        v = self.validator(name)
        if v is None:
            return "no such def"
        try:
            error = next(iter(v.iter_errors(instance)), None)
        except (re.error, RecursionError, ValueError, LookupError, Unresolvable) as exc:
            # a schema jsonschema cannot evaluate (a pattern Python's re refuses, ...)
            return f"cannot evaluate: {type(exc).__name__}"
        if error is None:
            return None
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        return f"{where}: {error.message}"[:160]


class Prover:
    """Builds witnesses for the changes between two documents."""

    def __init__(self, old: dict[str, Any], new: dict[str, Any],
                 gated: frozenset[tuple[str, str]] = frozenset()) -> None:
        self.old = Oracle(old)
        self.new = Oracle(new)
        self.gated = gated
        self.cut = False  # a search stopped at its time limit
        self._candidates: dict[tuple[str, str, str], list[Any]] = {}
        self._strict: dict[tuple[str, str, str], Draft202012Validator | None] = {}

    @cached_property
    def _numbers(self) -> tuple[int, ...]:
        """Integer constants either side names (enum values of integer enums): candidates a
        catch-all or a range must be tried with."""
        found: set[int] = set()
        for doc in (self.old.schema, self.new.schema):
            stack = [doc]
            while stack:
                node = stack.pop()
                if isinstance(node, dict):
                    c = node.get("const")
                    if isinstance(c, int) and not isinstance(c, bool):
                        found.add(c)
                    stack.extend(node.values())
                elif isinstance(node, list):
                    stack.extend(node)
        return tuple(sorted(found))[:64]

    def _strings(self, name: str) -> tuple[str, ...]:
        """String constants either side's def names (not through refs)."""
        found: set[str] = set()
        stack = [self.old.defs.get(name), self.new.defs.get(name)] if name else []
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                for key in ("const", "enum"):
                    value = node.get(key)
                    for v in value if isinstance(value, list) else [value]:
                        if isinstance(v, str):
                            found.add(v)
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        return tuple(sorted(found))[:32]

    def candidates(self, side: str, name: str, focus: str,
                   rng: random.Random | None = None) -> list[Any]:
        key = (side, name, focus)
        if rng is None and key in self._candidates:
            return self._candidates[key]
        oracle = self.old if side == "old" else self.new
        gen = Instances(oracle.defs, focus, self._numbers, self._strings(name), rng)
        if name == "":
            root = {k: v for k, v in oracle.schema.items() if k != "$defs"}
            values = gen.of(root, "")
        else:
            values = gen.of_def(name) if name in oracle.defs else []
        if rng is None:
            self._candidates[key] = values
        return values

    def search(self, direction: str, old_name: str, new_name: str, focus: str,
               deadline: float, rng: random.Random | None = None,
               prefer: Callable[[Any], bool] | None = None) -> tuple[Witness | None, int]:
        """A ``writer`` (OLD accepts, NEW rejects) or ``reader`` (NEW accepts, OLD rejects)
        witness, and how many valid source instances were tried. ``prefer``: instances that
        carry the change itself (its member, value or tag) are tried first, so the witness
        shows this change rather than another one in the same def."""
        src = "old" if direction == "writer" else "new"
        src_oracle, dst_oracle = (self.old, self.new) if src == "old" else (self.new, self.old)
        src_name, dst_name = (old_name, new_name) if src == "old" else (new_name, old_name)
        values = _smallest_first(self.candidates(src, src_name, focus, rng))
        if prefer is not None:
            values = [v for v in values if prefer(v)] + [v for v in values if not prefer(v)]
        tried = 0
        for value in values:
            if time.monotonic() > deadline:
                self.cut = True
                break
            if src_oracle.verdict(src_name, value) is not None:
                continue
            if direction == "reader" and self.gated and _carries(value, self.gated):
                continue  # sent only to peers advertising a capability OLD does not have
            tried += 1
            error = dst_oracle.verdict(dst_name, value)
            if error is not None and error != "no such def":
                old_says, new_says = ("accepts", f"rejects: {error}") if src == "old" else (
                    f"rejects: {error}", "accepts")
                return Witness(direction, _label(src_name), value, old_says, new_says), tried
        return None, tried

    def dropped_value(self, name: str, value: Any, pointer: str,
                      deadline: float) -> Witness | None:
        """An OLD-valid instance carrying an enum value NEW no longer lists but still accepts
        (through its catch-all): NEW's reader does not know what it means."""
        for inst in _smallest_first(self.candidates("old", name, pointer)):
            if time.monotonic() > deadline:
                self.cut = True
                return None
            if not _contains(inst, value) or self.old.verdict(name, inst) is not None:
                continue
            if self.new.verdict(name, inst) is None:
                text = json.dumps(value)[:40]
                return Witness("dropped", name, inst, f"accepts ({text} is a listed value)",
                               f"accepts {text} only as an unlisted value")
        return None

    def capability(self, root: str, path: list[str], leaf: Any) -> Witness | None:
        """The advertisement of one capability, ``{"a": {"b": true}}`` at the capabilities def
        ``root``: OLD accepts it; NEW rejects it (``writer``) or accepts it with a member on
        the path it no longer declares (``dropped``: the capability is ignored)."""
        value: Any = leaf
        for step in reversed(path):
            value = {step: value}
        if self.old.verdict(root, value) is not None:
            return None
        error = self.new.verdict(root, value)
        if error is not None and error != "no such def":
            return Witness("writer", root, value, "accepts", f"rejects: {error}")
        node: Any = self.new.defs.get(root)
        for step in path:
            node = _member_schema(self.new.defs, node, step, set())
            if node is None:
                return Witness("dropped", root, value, "accepts (declares the capability)",
                               f"accepts, ignoring {'.'.join(path)!r} (no longer declared)")
        return None

    def declared(self, name: str, at: str) -> set[str]:
        """The member names NEW declares at the object ``at`` of a def (through its branches
        and refs): a member that moved into a branch is still known."""
        node: Any = self.new.defs.get(name)
        for step in [p.replace("~1", "/").replace("~0", "~") for p in at.split("/")[3:]]:
            node = node.get(step) if isinstance(node, dict) else (
                node[int(step)] if isinstance(node, list) and step.isdigit()
                and int(step) < len(node) else None)
        out: set[str] = set()
        _declared(self.new.defs, node, {name}, out)
        return out

    def dropped(self, name: str, member: str, at: str, deadline: float) -> Witness | None:
        """An OLD-valid instance carrying ``member`` at the object ``at`` that NEW accepts
        only as an unknown member (its data is ignored): confirmed with jsonschema on both
        schemas with unknown members refused at that object (``unevaluatedProperties: false``),
        where OLD still accepts it and NEW rejects it."""
        for value in _smallest_first(self.candidates("old", name, f"{at}/properties/{esc(member)}")):
            if time.monotonic() > deadline:
                self.cut = True
                return None
            if not _has_member(value, member) or self.old.verdict(name, value) is not None:
                continue
            if self.new.verdict(name, value) is not None or member in self.declared(name, at):
                continue
            if self.strict("old", name, at, value) is not None:
                continue  # OLD does not know every member of it either
            error = self.strict("new", name, at, value)
            if error is not None:
                return Witness("dropped", name, value, "accepts (declares every member)",
                               f"accepts {member!r} only as an unknown member (with unknown "
                               f"members refused: {error})")
        return None

    def strict(self, side: str, name: str, at: str, instance: Any) -> str | None:
        """The verdict of ``side`` on a def with unknown members refused at the object ``at``
        (None: valid; "no such position" when ``at`` does not resolve)."""
        key = (side, name, at)
        if key not in self._strict:
            oracle = self.old if side == "old" else self.new
            defs = copy.deepcopy(oracle.defs)
            node: Any = defs.get(name)
            for step in [p.replace("~1", "/").replace("~0", "~") for p in at.split("/")[3:]]:
                node = node.get(step) if isinstance(node, dict) else (
                    node[int(step)] if isinstance(node, list) and step.isdigit()
                    and int(step) < len(node) else None)
            if isinstance(node, dict):
                node["unevaluatedProperties"] = False
                doc = {"$defs": defs, "$ref": f"#/$defs/{esc(name)}"}
                self._strict[key] = Draft202012Validator(doc, format_checker=_CHECKER)
            else:
                self._strict[key] = None
        validator = self._strict[key]
        if validator is None:
            return "no such position"
        error = next(iter(validator.iter_errors(instance)), None)
        if error is None:
            return None
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        return f"{where}: {error.message}"[:160]


def _declared(defs: dict[str, Any], node: Any, seen: set[str], out: set[str]) -> None:
    """Member names of one object position: its own, its branches' and their refs' (not the
    members of nested objects)."""
    if isinstance(node, dict):
        name = ref_name(node.get("$ref"))
        if name and name not in seen and name in defs:
            seen.add(name)
            _declared(defs, defs[name], seen, out)
        props = node.get("properties")
        if isinstance(props, dict):
            out.update(props)
        for key in ("allOf", "anyOf", "oneOf", "then", "else"):
            value = node.get(key)
            for item in value if isinstance(value, list) else [value]:
                _declared(defs, item, seen, out)


def contains(inst: Any, value: Any) -> bool:
    """Whether an instance holds ``value`` anywhere (same JSON type)."""
    return _contains(inst, value)


def has_member(inst: Any, member: str) -> bool:
    return _has_member(inst, member)


def _contains(inst: Any, value: Any) -> bool:
    if inst == value and type(inst) is type(value):
        return True
    if isinstance(inst, dict):
        return any(_contains(v, value) for v in inst.values())
    if isinstance(inst, list):
        return any(_contains(v, value) for v in inst)
    return False


def _smallest_first(values: list[Any]) -> list[Any]:
    """Shortest JSON first, so the first witness found is a small one (stable order)."""
    return sorted(values, key=lambda v: len(json.dumps(v, separators=(",", ":"))))


def _member_schema(defs: dict[str, Any], node: Any, member: str, seen: set[str]) -> Any:
    """The schema a position declares for ``member`` (through its branches and refs)."""
    if not isinstance(node, dict):
        return None
    name = ref_name(node.get("$ref"))
    if name and name not in seen and name in defs:
        found = _member_schema(defs, defs[name], member, seen | {name})
        if found is not None:
            return found
    props = node.get("properties")
    if isinstance(props, dict) and member in props:
        return props[member]
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(key, ()) if isinstance(node.get(key), list) else ():
            found = _member_schema(defs, branch, member, seen)
            if found is not None:
                return found
    return None


def _carries(value: Any, gated: frozenset[tuple[str, str]]) -> bool:
    """Whether an instance holds a gated tag value anywhere (("", v): under any member)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and ((key, item) in gated or ("", item) in gated):
                return True
            if _carries(item, gated):
                return True
    elif isinstance(value, list):
        return any(_carries(v, gated) for v in value)
    return False


def _has_member(value: Any, member: str) -> bool:
    if isinstance(value, dict):
        return member in value or any(_has_member(v, member) for v in value.values())
    if isinstance(value, list):
        return any(_has_member(v, member) for v in value)
    return False


def _label(name: str) -> str:
    return name or "(envelope)"


def counterexample_search(prover: Prover, defs: list[tuple[str, str, bool, bool]],
                          budget: float) -> dict[str, Witness]:
    """For each (old def, new def, writers matter, readers matter): instances of one side,
    generated with random member subsets and values (seeded, so every run tries the same
    ones), validated against the other side; bounded by count and, as a safety net, by time.
    Returns the counterexamples found, by OLD def name."""
    rng = random.Random(SEED)
    found: dict[str, Witness] = {}
    if not defs:
        return found
    deadline_all = time.monotonic() + budget
    per = budget / len(defs)
    for old_name, new_name, writers, readers in defs:
        deadline = min(deadline_all, time.monotonic() + per)
        for direction, matters in (("writer", writers), ("reader", readers)):
            if not matters:
                continue
            witness, _ = prover.search(direction, old_name, new_name, "", deadline, rng)
            if witness is not None:
                found[old_name] = witness
                break
    return found
