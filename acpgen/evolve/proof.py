"""Every verdict with its evidence: witnesses for each breaking change, a counterexample
search behind the compatible ones (:mod:`acpgen.evolve.witness` says what a witness is).

The policy (:mod:`acpgen.evolve.compat`) says whom a change *would* break given its effect;
this stage keeps a side's ``breaking`` only with a witness that ``jsonschema`` confirmed in
the direction that breaks that side: a ``writer`` (or ``dropped``) witness breaks the def's
writers, a ``reader`` witness its readers. Without one the side is ``compatible`` (the search
exercised the change and every instance validated alike) or ``unproven`` (no instance reached
it, or jsonschema gives the changed keyword no meaning).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from acpgen.evolve.capabilities import capabilities
from acpgen.evolve.changes import Change
from acpgen.evolve.methods import ENVELOPE, ROLES, Flows, WireMethod
from acpgen.evolve.witness import Prover, Witness, contains, counterexample_search, has_member

# Seconds. Both searches are bounded by count (the generator's limits), so their results do
# not depend on the machine; these caps only stop a pathological schema, and the report says
# so when one is reached (then the verdicts may depend on speed).
WITNESS_BUDGET = 10.0
SEARCH_BUDGET = 3.0

_CUT_NOTE = ("the witness search reached its time limit: some verdicts rest on fewer instances "
             "than usual and may differ on a faster machine")
_METHOD_WHOLE = ("METHOD_REMOVED", "METHOD_RENAMED", "METHOD_KIND_CHANGED", "METHOD_SIDE_CHANGED")
_NO_SEARCH = ("METHOD_", "CAPABILITY_", "DEF_")


@dataclass(frozen=True)
class Proved:
    changes: tuple[Change, ...]
    notes: tuple[str, ...]


@dataclass
class _Evidence:
    """What the search found for one change: witnesses per side, instances tried."""

    broken: dict[str, Witness]
    tried: int = 0

    def add(self, witness: Witness | None, roles: Iterable[str], claimed: set[str]) -> None:
        if witness is None:
            return
        for role in sorted(set(roles) & claimed):
            self.broken.setdefault(role, witness)


def prove_all(changes: list[Change], old_schema: dict[str, Any], new_schema: dict[str, Any],
              old_methods: tuple[WireMethod, ...], new_methods: tuple[WireMethod, ...],
              flows: Flows, gated: frozenset[tuple[str, str]] = frozenset()) -> Proved:
    """``gated``: (tag member or "", value) pairs a NEW writer sends only to peers advertising a
    capability OLD lacks; a reader witness carrying one never reaches an OLD peer."""
    prover = Prover(old_schema, new_schema, gated)
    deadline = time.monotonic() + WITNESS_BUDGET
    old_m = {m.wire: m for m in old_methods}
    new_m = {m.wire: m for m in new_methods}
    out = [_prove(c, prover, flows, old_m, new_m, old_schema, deadline)
           if c.semantic and c.breaking else c for c in changes]
    out = _search(out, prover, flows, old_schema, new_schema)
    notes: tuple[str, ...] = ()
    if prover.cut:
        notes = (_CUT_NOTE,)
    return Proved(tuple(out), notes)


def _def_of(c: Change, schema: dict[str, Any]) -> str | None:
    """The def a change's witness is an instance of ("" for the document root)."""
    if c.subject == ENVELOPE:
        return ""
    return c.subject if c.subject in schema.get("$defs", {}) else None


def _claimed(c: Change) -> set[str]:
    return {r for r in ROLES if getattr(c, r) == "breaking"}


def _verdict(c: Change, ev: _Evidence, unproven: bool, why: str) -> Change:
    """Each side claimed broken keeps ``breaking`` with its witness, else becomes
    ``unproven`` (``unproven``) or ``compatible``."""
    claimed = _claimed(c)
    verdict = {r: "breaking" if r in ev.broken else
               "unproven" if r in claimed and unproven else
               "compatible" for r in ROLES}
    witnesses: list[Witness] = []
    seen: list[Witness] = []
    for role in ROLES:
        w = ev.broken.get(role)
        if w is None or any(x is w for x in seen):
            continue
        seen.append(w)
        sides = tuple(r for r in ROLES if ev.broken.get(r) is w)
        witnesses.append(dataclasses.replace(w, breaks=sides))
    lost = claimed - set(ev.broken)
    reason = c.reason if not lost else f"{why} {c.reason}".strip()
    return dataclasses.replace(c, client=verdict["client"], agent=verdict["agent"],
                               witnesses=tuple(witnesses), reason=reason)


def _prove(c: Change, prover: Prover, flows: Flows, old_m: dict[str, WireMethod],
           new_m: dict[str, WireMethod], old_schema: dict[str, Any], deadline: float) -> Change:
    claimed = _claimed(c)
    ev = _Evidence({})
    if c.kind in _METHOD_WHOLE:
        ev.add(_method_witness(c, prover, old_m, new_m), claimed, claimed)
        return _verdict(c, ev, False, "")
    if c.kind in ("METHOD_PARAMS_CHANGED", "METHOD_RESULT_CHANGED"):
        m = old_m[c.subject]
        writers, readers = (m.sender, m.handler) if c.kind == "METHOD_PARAMS_CHANGED" else (
            m.handler, m.sender)
        _search_both(c, ev, prover, str(c.old), str(c.new), "", writers, readers, deadline)
        return _conclude(c, ev, str(c.old))
    if c.kind in ("CAPABILITY_REMOVED", "CAPABILITY_CHANGED"):
        cap = next((x for x in capabilities(old_schema) if x.qualified == c.subject), None)
        if cap is None:
            return c
        member = cap.path.rpartition(".")[2]
        at = f"/$defs/{cap.owner}"
        writers, readers = flows.of(cap.owner, at)
        if c.kind == "CAPABILITY_REMOVED":
            root = f"{cap.root.capitalize()}Capabilities"
            leaf: Any = True if cap.kind == "boolean" else {}
            ev.add(prover.capability(root, cap.path.split("."), leaf) or
                   prover.dropped(cap.owner, member, at, deadline), claimed, claimed)
        else:
            focused = dataclasses.replace(c, pointer=f"{at}/properties/{member}", effect="both")
            _search_both(focused, ev, prover, cap.owner, cap.owner, focused.pointer, writers,
                         readers, deadline, roles_claimed=claimed)
        return _conclude(c, ev, cap.owner)
    name = _def_of(c, old_schema)
    if name is None:
        return c  # a meta.json change: no schema instance can show it (kept as classified)
    writers, readers = flows.of(c.subject, c.pointer)
    if c.kind == "DEFAULT_CHANGED":
        omitted = _omitted(c, prover, name)
        what = f"{c.member!r} omitted means" if c.member else "an omitted value means"
        ev.add(Witness("default", name or ENVELOPE, omitted, f"accepts; {what} {_j(c.old)}",
                       f"accepts; {what} {_j(c.new)}"), claimed, claimed)
        return _verdict(c, ev, False, "")
    _search_both(c, ev, prover, name, name, c.pointer, writers, readers, deadline)
    if c.kind in ("PROPERTY_REMOVED", "ENUM_VALUE_REMOVED") and (claimed & writers) - set(ev.broken):
        # Still valid on NEW, but NEW no longer knows it: the OLD writer's data is lost.
        if c.kind == "PROPERTY_REMOVED":
            at = c.pointer.rsplit("/properties/", 1)[0]
            w = prover.dropped(name, str(c.member), at, deadline)
        else:
            w = prover.dropped_value(name, c.old, c.pointer, deadline)
        ev.add(w, writers, claimed)
    return _conclude(c, ev, name)


def _search_both(c: Change, ev: _Evidence, prover: Prover, old_name: str, new_name: str,
                 focus: str, writers: frozenset[str], readers: frozenset[str], deadline: float,
                 roles_claimed: set[str] | None = None) -> None:
    """Search the directions the change's effect claims (both for ``both``/unclassified)."""
    claimed = roles_claimed if roles_claimed is not None else _claimed(c)
    directions = {"narrows": ("writer",), "widens": ("reader",)}.get(c.effect,
                                                                      ("writer", "reader"))
    for direction in directions:
        roles = writers if direction == "writer" else readers
        if not set(roles) & claimed:
            continue
        w, tried = prover.search(direction, old_name, new_name, focus, deadline,
                                 prefer=_exercises(c))
        ev.tried += tried
        ev.add(w, roles, claimed)


def _exercises(c: Change) -> Callable[[Any], bool] | None:
    """What an instance that shows this change carries: the member, or the value or tag."""
    if c.kind.startswith("PROPERTY_") and c.member:
        member = str(c.member)
        return lambda v: has_member(v, member)
    if c.kind.startswith("ENUM_VALUE_"):
        value = c.new if c.kind == "ENUM_VALUE_ADDED" else c.old
        return lambda v: contains(v, value)
    if c.kind.startswith("VARIANT_") and isinstance(c.member, str):
        tag = c.member
        return lambda v: contains(v, tag)
    return None


def _conclude(c: Change, ev: _Evidence, name: str) -> Change:
    if ev.tried == 0 and not ev.broken:
        return _verdict(c, ev, True, f"unproven: no instance of {name or ENVELOPE} reached the "
                                     "change;")
    if c.effect == "unclassified":
        return _verdict(c, ev, True, f"unproven: {ev.tried} instances validate alike on both "
                                     "sides, but jsonschema gives this keyword no meaning acpgen "
                                     "can check;")
    return _verdict(c, ev, False, f"no witness: {ev.tried} instances exercising it validate "
                                  "alike on both sides;")


def _method_witness(c: Change, prover: Prover, old_m: dict[str, WireMethod],
                    new_m: dict[str, WireMethod]) -> Witness:
    """The call an OLD caller makes, with params OLD's schema accepts, and where NEW's method
    table routes it."""
    m = old_m[c.subject]
    params: Any = {}
    if m.params:
        params = next((v for v in prover.candidates("old", m.params, "")
                       if prover.old.verdict(m.params, v) is None), {})
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": m.wire, "params": params}
    if m.kind == "request":
        message = {"jsonrpc": "2.0", "id": 1, **{k: v for k, v in message.items()
                                                  if k != "jsonrpc"}}
    n = new_m.get(m.wire)
    new_says = "no such method" if n is None else f"{n.kind} handled by {n.side}"
    return Witness("method", "message", message, f"{m.kind} handled by {m.side}", new_says)


def _omitted(c: Change, prover: Prover, name: str) -> Any:
    """The smallest instance both sides accept that omits the member whose default changed
    (what it means is what differs); None when none is found (the default of a whole value)."""
    member = str(c.member) if c.member else None
    for value in prover.candidates("old", name, c.pointer):
        if member is not None and has_member(value, member):
            continue
        if prover.old.verdict(name, value) is None and prover.new.verdict(name, value) is None:
            return value
    return None


def _j(value: Any) -> str:
    return json.dumps(value, sort_keys=True)[:60]


# -- the counterexample search behind compatible verdicts ---------------------------------------


def _search(changes: list[Change], prover: Prover, flows: Flows, old_schema: dict[str, Any],
            new_schema: dict[str, Any]) -> list[Change]:
    """Each def with a compatible semantic change (and no breaking one) is searched on both
    sides; a counterexample turns its first compatible change into a breaking one."""
    old_defs, new_defs = old_schema.get("$defs", {}), new_schema.get("$defs", {})
    broken_defs = {c.subject for c in changes if c.breaking or c.unproven}
    targets: list[tuple[str, str, bool, bool]] = []
    for c in changes:
        if (not c.semantic or c.subject in broken_defs or c.kind.startswith(_NO_SEARCH)
                or c.subject not in old_defs or c.subject not in new_defs
                or any(t[0] == c.subject for t in targets)):
            continue
        writers, readers = flows.of(c.subject, c.pointer)
        targets.append((c.subject, c.subject, bool(writers), bool(readers)))
    found = counterexample_search(prover, targets, SEARCH_BUDGET)
    out: list[Change] = []
    done: set[str] = set()
    for c in changes:
        w = found.get(c.subject)
        if w is not None and c.subject not in done and c.semantic and not (
                c.kind.startswith(_NO_SEARCH)):
            done.add(c.subject)
            writers, readers = flows.of(c.subject, c.pointer)
            roles = writers if w.kind == "writer" else readers
            sides = tuple(r for r in ROLES if r in roles)
            c = dataclasses.replace(
                c, client="breaking" if "client" in roles else c.client,
                agent="breaking" if "agent" in roles else c.agent,
                witnesses=(dataclasses.replace(w, breaks=sides),),
                detail=f"{c.detail} (counterexample found)",
                reason=f"the counterexample search found a witness; {c.reason}")
        out.append(c)
    return out
