"""Who a schema change breaks: a client and an agent generated from OLD, each talking to a
peer that follows NEW (buf's wire question, asked once per side).

Every change has an *effect* on the values valid where it happens (:mod:`acpgen.evolve.walk`)
and the def it happens in has writers and readers (:mod:`acpgen.evolve.methods`): a method's
params are written by its sender and read by its handler, its result the other way round.

* ``narrows`` (fewer values valid) breaks the sides that **write** the def: an OLD writer may
  send what a NEW reader rejects;
* ``widens`` (more values valid) breaks the sides that **read** it: a NEW writer may send what
  an OLD reader rejects (an exhaustive match over enum values or union variants included);
* ``both`` breaks writers and readers;
* ``unclassified`` is assumed to break both sides, whoever reads or writes the def;
* ``none`` and annotations break nobody.

These are claims: :mod:`acpgen.evolve.proof` keeps a side's ``breaking`` only with a witness
that jsonschema confirms in the direction that breaks that side, and makes it ``compatible``
(no witness among the instances that exercise the change) or ``unproven`` otherwise.

:data:`RULES` is the policy table, one row per change kind (docs/schema-bumps.md renders it,
and ``acpgen diff --explain KIND`` prints a row). Methods and capabilities have rules of their
own (a removed method breaks its caller, ...).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from acpgen.evolve.changes import Change
from acpgen.evolve.methods import ROLES, Flows, WireMethod

# Per-side verdicts; "{side}" is "client" or "agent".
WRITERS = "breaking if the {side} writes the type"
READERS = "breaking if the {side} reads the type"
BOTH_SIDES = "breaking if the {side} writes or reads the type"
NOBODY = "compatible"
ALWAYS = "breaking"


@dataclass(frozen=True)
class Rule:
    """One row of the policy table: what the change is, whom it breaks, and why."""

    kind: str
    what: str
    breaks: str  # the verdict for one side, "{side}" standing for client or agent
    why: str

    def verdict(self, side: str) -> str:
        return self.breaks.format(side=side)


_ROWS = (
    Rule("DEF_ADDED", "a def is added", NOBODY,
         "a def is on the wire only where a position refers to it; those positions are reported "
         "where they change. The generated module gains a class."),
    Rule("DEF_REMOVED", "a def is removed", NOBODY,
         "every position that referred to it is reported where it changed (an inlined def with "
         "the same shape is wire-compatible). The generated class disappears (source-level)."),
    Rule("PROPERTY_ADDED", "a property is added", "optional: compatible; required: " + WRITERS
         + "; OLD object closed: breaking if the {side} reads (required: or writes) the type",
         "OLD readers ignore members they do not know unless the object forbids them; OLD "
         "writers do not send a member NEW requires."),
    Rule("PROPERTY_REMOVED", "a property is removed", "optional: " + WRITERS + "; required: "
         + BOTH_SIDES, "what an OLD writer sends is no longer part of the type (buf's "
         "FIELD_NO_DELETE); an OLD reader that requires it no longer gets it."),
    Rule("PROPERTY_REQUIRED", "an optional property becomes required", WRITERS,
         "an OLD writer may omit it."),
    Rule("PROPERTY_OPTIONAL", "a required property becomes optional", READERS,
         "an OLD reader relies on it being there."),
    Rule("NULLABLE_ADDED", "a position starts accepting null", READERS,
         "an OLD reader rejects null."),
    Rule("NULLABLE_REMOVED", "a position stops accepting null", WRITERS,
         "an OLD writer may send null."),
    Rule("TYPE_WIDENED", "the type accepts more (string -> string|integer, integer -> number)",
         READERS, "an OLD reader rejects the new kinds of value."),
    Rule("TYPE_NARROWED", "the type accepts less (any -> object, number -> integer)", WRITERS,
         "an OLD writer may send what NEW rejects."),
    Rule("TYPE_CHANGED", "the type changed to one that is neither wider nor narrower", BOTH_SIDES,
         "each side may send what the other rejects."),
    Rule("CONSTRAINT_TIGHTENED", "an assertion narrows what is valid (minimum raised, maxLength, "
         "pattern, uniqueItems, multipleOf, not, if/then, enum/const added, format range "
         "narrower, additionalProperties schema, ...)", WRITERS,
         "an OLD writer may send a value NEW rejects."),
    Rule("CONSTRAINT_RELAXED", "an assertion widens what is valid (a bound or pattern removed, "
         "a wider integer format, ...)", READERS,
         "an OLD reader may receive a value it rejects."),
    Rule("CONSTRAINT_CHANGED", "an assertion changed in no comparable way (a pattern replaced, "
         "an integer range moved, ...)", BOTH_SIDES,
         "each side may send what the other rejects."),
    Rule("ENUM_VALUE_ADDED", "a value is added to an enum", "closed enum: " + READERS
         + "; open enum: compatible", "an OLD reader rejects a value of a closed enum it has never "
         "seen (an exhaustive match); an open enum's catch-all keeps it."),
    Rule("ENUM_VALUE_REMOVED", "a value is removed from an enum", WRITERS,
         "an OLD writer may still send it; even an open enum, which still accepts it, no longer "
         "knows what it means (as for a removed property)."),
    Rule("ENUM_OPENED", "a closed enum gains a catch-all", READERS,
         "values outside OLD's list may now arrive."),
    Rule("ENUM_CLOSED", "an open enum loses its catch-all", WRITERS,
         "an OLD writer may send an unlisted value."),
    Rule("VARIANT_ADDED", "a branch is added to a union", READERS + "; compatible if OLD has a "
         "catch-all branch or the branch is only sent to peers advertising a capability OLD "
         "does not have (schema/capabilities.toml, or the schema's own words)",
         "an OLD reader rejects a variant it has never seen; a peer generated from OLD never "
         "advertises a capability it does not know, so it never receives a gated variant."),
    Rule("VARIANT_REMOVED", "a branch is removed from a union", WRITERS,
         "an OLD writer may still send it."),
    Rule("OBJECT_CLOSED", "an object starts forbidding unlisted members", WRITERS,
         "an OLD writer may send members NEW forbids."),
    Rule("OBJECT_OPENED", "an object stops forbidding unlisted members", READERS,
         "an OLD reader forbids members a NEW writer may send."),
    Rule("DEFAULT_CHANGED", "a default is added, removed or changed", BOTH_SIDES,
         "the generated runtime omits unset members, so an omission means the default: a NEW "
         "reader reads an OLD writer's omission as the new default, and an OLD reader reads a "
         "NEW writer's omission as the old one."),
    Rule("EQUIVALENT_REWRITE", "the same values are valid, written differently (a def inlined or "
         "renamed, allOf with one branch, nullable spelt as anyOf, a default restated, enum "
         "values reordered)", NOBODY,
         "the wire is unchanged; the generated code may differ (source-level change)."),
    Rule("UNCLASSIFIED", "a difference acpgen cannot classify (an unknown keyword, $id, ...)",
         "breaking with a witness, else unproven", "assumed breaking for both sides until "
         "proved: a diff tool must never call a change it does not understand compatible."),
    Rule("DESCRIPTION_CHANGED", "description, title, examples or $comment changed", NOBODY,
         "documentation only (reported apart, non-semantic)."),
    Rule("ANNOTATION_CHANGED", "an annotation changed: deprecated, readOnly, writeOnly, content*, "
         "discriminator, an x-* vendor key (other than x-side / x-method)", NOBODY,
         "annotations do not change what is valid (reported apart, non-semantic)."),
    Rule("METHOD_ADDED", "a method is added (meta.json, its defs and union branches)", NOBODY,
         "new methods are opt-in: an OLD handler answers \"method not found\", an OLD caller "
         "never calls it."),
    Rule("METHOD_REMOVED", "a method is removed", "breaking if the {side} calls it",
         "an OLD caller calls a method NEW no longer handles; an OLD handler is simply never "
         "called."),
    Rule("METHOD_RENAMED", "a method's wire name changes (same side, kind and types)", ALWAYS,
         "an OLD caller uses the old name, an OLD handler does not answer the new one."),
    Rule("METHOD_KIND_CHANGED", "request <-> notification", ALWAYS,
         "one side waits for a response the other never sends, or gets one it cannot route."),
    Rule("METHOD_SIDE_CHANGED", "the method is handled by the other side", ALWAYS,
         "the OLD caller and the OLD handler both address the wrong peer."),
    Rule("METHOD_PARAMS_CHANGED", "the params def is another def", "as the two defs differ: "
         "narrower: breaking if the {side} calls it; wider: breaking if the {side} handles it; "
         "same shape: compatible",
         "the caller writes the params, the handler reads them."),
    Rule("METHOD_RESULT_CHANGED", "the result def is another def", "as the two defs differ: "
         "narrower: breaking if the {side} handles it; wider: breaking if the {side} calls it; "
         "same shape: compatible",
         "the handler writes the result, the caller reads it."),
    Rule("CAPABILITY_ADDED", "a capability is added", NOBODY,
         "an OLD peer ignores an advertisement it does not know."),
    Rule("CAPABILITY_REMOVED", "a capability is removed", "breaking if the {side} advertises it",
         "it advertises a capability NEW no longer has."),
    Rule("CAPABILITY_CHANGED", "a capability's kind or type changes", ALWAYS,
         "advertiser and reader disagree on what it is."),
)

RULES: dict[str, Rule] = {r.kind: r for r in _ROWS}


def explain(kind: str) -> str | None:
    """The policy row for ``kind`` as text (``acpgen diff --explain``), or None if unknown."""
    rule = RULES.get(kind.upper())
    if rule is None:
        return None
    return (f"{rule.kind}: {rule.what}\n  client: {rule.verdict('client')}\n"
            f"  agent: {rule.verdict('agent')}\n  why: {rule.why}")


def _roles(effect: str, writers: frozenset[str], readers: frozenset[str]) -> set[str]:
    if effect == "narrows":
        return set(writers)
    if effect == "widens":
        return set(readers)
    if effect == "both":
        return set(writers | readers)
    if effect == "unclassified":
        return set(ROLES)
    return set()


def classify(change: Change, old_methods: dict[str, tuple[frozenset[str], frozenset[str]]],
             flows: Flows) -> Change:
    rule = RULES[change.kind]
    broken: set[str] = set()
    if not change.semantic:
        pass
    elif change.kind == "METHOD_REMOVED":
        broken = set(old_methods[change.subject][0])
    elif change.kind in ("METHOD_RENAMED", "METHOD_KIND_CHANGED", "METHOD_SIDE_CHANGED",
                         "CAPABILITY_CHANGED", "UNCLASSIFIED"):
        broken = set(ROLES)
    elif change.kind in ("METHOD_PARAMS_CHANGED", "METHOD_RESULT_CHANGED"):
        sender, handler = old_methods[change.subject]
        writers, readers = (sender, handler) if change.kind == "METHOD_PARAMS_CHANGED" else (
            handler, sender)
        broken = _roles(change.effect, writers, readers)
    elif change.kind == "CAPABILITY_REMOVED":
        broken = {change.subject.split("Capabilities.", 1)[0]}  # agent | client
    elif change.kind.startswith(("METHOD_", "CAPABILITY_")):
        broken = set()
    else:
        writers, readers = flows.of(change.subject, change.pointer)
        broken = _roles(change.effect, writers, readers)
    verdict = {r: ("breaking" if r in broken else "compatible") for r in ROLES}
    return dataclasses.replace(change, client=verdict["client"], agent=verdict["agent"],
                               reason=rule.why)


def classify_all(changes: Iterable[Change], flows: Flows,
                 methods: tuple[WireMethod, ...]) -> list[Change]:
    """Classify against OLD: its flows and method table say who writes and reads what."""
    by_wire = {m.wire: (m.sender, m.handler) for m in methods}
    return [classify(c, by_wire, flows) for c in changes]
