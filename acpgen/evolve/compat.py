"""Breaking-change classification of schema changes, for a client and for an agent.

The question asked of every change is buf's wire question: *code generated from OLD talks to
a peer that follows NEW; does it still work?* It is answered separately for a client and for
an agent, because the two sides see each type in opposite directions.

Who writes and who reads a type
    Every def is traced from the methods that carry it (``SchemaIR.methods``): a method's
    params are **written** by its sender and **read** by its handler; its result is written
    by the handler and read by the sender. (``session/prompt``: the client writes
    ``PromptRequest``, the agent reads it.) Protocol methods (``$/cancel_request``) go both
    ways. The roles propagate through every reference (properties, array items, union
    branches), so ``ToolCall`` is written by the agent and read by the client (via
    ``session/update``). A def no method reaches is treated as written and read by both.

A change breaks a role that **reads** the def when
    a property required in OLD is removed, or becomes optional (the reader relies on it);
    a property is added to an object that forbids additional properties;
    a property starts accepting null, or its default changes (omission means something else);
    a value is added to a *closed* enum, or a variant to a union with no catch-all branch
    (the reader rejects what it has never seen; open enums / catch-alls absorb it), unless
    the variant is gated by a capability that NEW adds: its documentation says it is only
    sent after the peer advertised ``XCapabilities::member`` and that capability is new, so
    a peer generated from OLD never advertises it and never receives the variant;
    a closed enum becomes open (values outside the known set may now arrive).

A change breaks a role that **writes** the def when
    a property is removed (what the writer sends is no longer understood: buf's FIELD_NO_DELETE);
    a property is added as required, or an optional property becomes required;
    a property stops accepting null; an object starts forbidding additional properties;
    an enum value or a union variant is removed (the writer may still send it).

Always breaking for both roles (if they read or write the def)
    a def is removed; its shape changes; a property's or primitive's type changes; format or
    constraints change (no widening analysis: conservative); a union's discriminator or a
    variant's payload type changes; a raw schema difference the IR does not model
    (``SCHEMA_OTHER``).

Methods and capabilities
    Adding a method or a capability is compatible (new methods are opt-in, and an OLD handler
    answers "method not found"; capabilities are advertisements an OLD peer ignores).
    Removing a method breaks its sender (it calls something NEW no longer handles).
    Changing a method's side, kind, params or result type breaks both. Removing a capability
    breaks the side that advertises it (client for ``clientCapabilities.*``); changing its
    kind or type breaks both.

Never breaking
    Adding a def; annotation-only changes (``description``, ``title``, ``x-*`` other than
    ``x-side`` / ``x-method``): they are reported apart as non-semantic.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from acpgen.evolve.changes import Change
from acpgen.ir.types import Definition, SchemaIR, TypeExpr

ROLES = ("client", "agent")


@dataclass(frozen=True)
class Rule:
    """What a kind of change breaks: readers, writers (of the subject def), or roles directly."""

    readers: bool
    writers: bool
    doc: str


# kind -> rule; kinds whose outcome depends on the change's data are refined in _rule_for.
RULES: dict[str, Rule] = {
    "DEF_ADDED": Rule(False, False, "a new def is only reachable through other (reported) changes"),
    "DEF_REMOVED": Rule(True, True, "code generated from OLD references the def"),
    "DEF_SHAPE_CHANGED": Rule(True, True, "the def's shape changed"),
    "PROPERTY_ADDED": Rule(False, False, "an optional property is ignored by OLD readers"),
    "PROPERTY_REMOVED": Rule(False, True, "OLD writers send a property NEW no longer declares"),
    "PROPERTY_REQUIRED": Rule(False, True, "OLD writers may omit a property NEW requires"),
    "PROPERTY_OPTIONAL": Rule(True, False, "OLD readers rely on a property NEW may omit"),
    "PROPERTY_TYPE_CHANGED": Rule(True, True, "the property's type changed"),
    "PROPERTY_NULLABLE_ADDED": Rule(True, False, "OLD readers reject null"),
    "PROPERTY_NULLABLE_REMOVED": Rule(False, True, "OLD writers may send null"),
    "PROPERTY_DEFAULT_CHANGED": Rule(True, False, "omission now means another value"),
    "CONSTRAINTS_CHANGED": Rule(True, True, "format or constraints changed (no widening analysis)"),
    "OBJECT_CLOSED": Rule(False, True, "NEW forbids properties OLD writers may send"),
    "OBJECT_OPENED": Rule(True, False, "OLD readers forbid properties NEW writers may send"),
    "ENUM_VALUE_ADDED": Rule(True, False, "OLD readers reject a value of a closed enum they never saw"),
    "ENUM_VALUE_REMOVED": Rule(False, True, "OLD writers may send a value NEW no longer has"),
    "ENUM_OPENED": Rule(True, False, "values outside OLD's closed set may now arrive"),
    "ENUM_CLOSED": Rule(False, True, "NEW rejects values outside its now closed set"),
    "PRIMITIVE_CHANGED": Rule(True, True, "the underlying type changed"),
    "VARIANT_ADDED": Rule(True, False, "OLD readers reject a variant they never saw"),
    "VARIANT_REMOVED": Rule(False, True, "OLD writers may send a variant NEW no longer has"),
    "VARIANT_CHANGED": Rule(True, True, "the variant's payload type changed"),
    "DISCRIMINATOR_CHANGED": Rule(True, True, "variants are told apart by another property"),
    "SCHEMA_OTHER": Rule(True, True, "a schema change the IR does not model (conservative)"),
    "METHOD_ADDED": Rule(False, False, "new methods are opt-in"),
    "METHOD_REMOVED": Rule(False, False, "OLD senders call a method NEW no longer handles"),
    "METHOD_SIDE_CHANGED": Rule(True, True, "the method moved to the other side"),
    "METHOD_KIND_CHANGED": Rule(True, True, "request <-> notification"),
    "METHOD_PARAMS_CHANGED": Rule(True, True, "the params type changed"),
    "METHOD_RESULT_CHANGED": Rule(True, True, "the result type changed"),
    "CAPABILITY_ADDED": Rule(False, False, "OLD peers ignore an advertisement they do not know"),
    "CAPABILITY_REMOVED": Rule(False, True, "the advertising side sends a capability NEW dropped"),
    "CAPABILITY_CHANGED": Rule(True, True, "the capability's kind or type changed"),
    "ANNOTATION_CHANGED": Rule(False, False, "annotation only (non-semantic)"),
    "DESCRIPTION_CHANGED": Rule(False, False, "documentation only (non-semantic)"),
}


@dataclass(frozen=True)
class Flows:
    """For each def, the roles that write it and the roles that read it (generated from OLD)."""

    writers: dict[str, frozenset[str]]
    readers: dict[str, frozenset[str]]
    carriers: dict[str, frozenset[str]]  # def -> method wire names that carry it

    def of(self, name: str) -> tuple[frozenset[str], frozenset[str]]:
        both = frozenset(ROLES)
        return self.writers.get(name, both), self.readers.get(name, both)


def def_refs(d: Definition) -> set[str]:
    """Every def a def refers to directly."""
    found: set[str] = set()

    def add(t: TypeExpr | None) -> None:
        if t is not None:
            found.update(t.refs())

    for p in d.properties:
        add(p.type)
    for v in d.variants:
        if v.ref:
            found.add(v.ref)
        add(v.inline)
        for p in v.properties:
            add(p.type)
    add(d.catch_all)
    add(d.primitive)
    return found


def compute_flows(ir: SchemaIR) -> Flows:
    refs = {name: def_refs(d) for name, d in ir.defs.items()}
    writers: dict[str, set[str]] = {}
    readers: dict[str, set[str]] = {}
    carriers: dict[str, set[str]] = {}

    def reach(root: str) -> set[str]:
        seen: set[str] = set()
        stack = [root]
        while stack:
            name = stack.pop()
            if name in seen or name not in ir.defs:
                continue
            seen.add(name)
            stack.extend(refs[name])
        return seen

    for m in ir.methods:
        handler = set(ROLES) if m.side == "protocol" else {m.side}
        sender = set(ROLES) if m.side == "protocol" else set(ROLES) - handler
        for root, w, r in ((m.params, sender, handler), (m.result, handler, sender)):
            if root is None:
                continue
            for name in reach(root):
                writers.setdefault(name, set()).update(w)
                readers.setdefault(name, set()).update(r)
                carriers.setdefault(name, set()).add(m.wire)
    return Flows(
        writers={k: frozenset(v) for k, v in writers.items()},
        readers={k: frozenset(v) for k, v in readers.items()},
        carriers={k: frozenset(v) for k, v in carriers.items()},
    )


def _subject_def(change: Change) -> str:
    """``SessionUpdate[\"tool_call\"]`` (a variant's own property) belongs to ``SessionUpdate``."""
    return change.subject.split("[", 1)[0]


def _rule_for(change: Change, old: SchemaIR) -> Rule:
    rule = RULES[change.kind]
    d = old.defs.get(_subject_def(change))
    if change.kind == "PROPERTY_ADDED":
        closed = d is not None and d.additional_properties is False
        required = change.detail.startswith("required")
        reason = "a required property is added: OLD writers do not send it" if required else rule.doc
        if closed:
            reason = "OLD forbids additional properties" + ("; " + reason if required else "")
        return Rule(closed, required, reason)
    if change.kind == "PROPERTY_REMOVED" and change.detail.startswith("required"):
        return Rule(True, True, "OLD readers require it and OLD writers send it")
    if change.kind == "ENUM_VALUE_ADDED" and d is not None and d.shape == "open_enum":
        return Rule(False, False, "the enum is open: OLD readers keep unknown values")
    if change.kind == "VARIANT_ADDED" and change.gate:
        return Rule(False, False, f"only sent to peers that advertise {change.gate}, "
                                  "a capability OLD never advertises")
    if change.kind == "VARIANT_ADDED" and d is not None and any(v.catch_all for v in d.variants):
        return Rule(False, False, "OLD has a catch-all branch that absorbs unknown variants")
    return rule


def classify(change: Change, old: SchemaIR, flows: Flows) -> Change:
    if not change.semantic:
        return dataclasses.replace(change, client="compatible", agent="compatible",
                                   reason=RULES[change.kind].doc)
    rule = _rule_for(change, old)
    broken: set[str] = set()
    if change.kind.startswith("METHOD_"):
        m = old.method(change.subject)
        sender = set(ROLES) if m is None or m.side == "protocol" else set(ROLES) - {m.side}
        if change.kind == "METHOD_REMOVED":
            broken = sender
        elif rule.readers or rule.writers:
            broken = set(ROLES)
    elif change.kind.startswith("CAPABILITY_"):
        advertiser = change.subject.split("Capabilities.", 1)[0]  # agent | client
        if rule.readers:
            broken.update(ROLES)
        if rule.writers:
            broken.add(advertiser)
    else:
        writers, readers = flows.of(_subject_def(change))
        if rule.readers:
            broken |= readers
        if rule.writers:
            broken |= writers
    verdict = {r: ("breaking" if r in broken else "compatible") for r in ROLES}
    return dataclasses.replace(change, client=verdict["client"], agent=verdict["agent"], reason=rule.doc)


def classify_all(changes: Iterable[Change], old: SchemaIR, new: SchemaIR) -> list[Change]:
    flows = compute_flows(old)
    return [classify(c, old, flows) for c in changes]
