"""Every verdict with its evidence: a witness for each breaking change, a counterexample
search behind the compatible ones (:mod:`acpgen.evolve.witness` says what a witness is).

The policy (:mod:`acpgen.evolve.compat`) says whom a change *would* break given its effect;
this stage keeps a side's ``breaking`` only with a witness that ``jsonschema`` confirmed in
the direction that breaks that side (a ``writer`` witness breaks the def's writers, a
``reader`` witness its readers). Without one the side is ``compatible`` (the search
exercised the change and found nothing) or ``unproven`` (it could not exercise it).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from acpgen.evolve.capabilities import capabilities
from acpgen.evolve.changes import Change
from acpgen.evolve.methods import ENVELOPE, ROLES, Flows, WireMethod
from acpgen.evolve.witness import Prover, Witness, counterexample_search

# Seconds: every witness search together, then the counterexample search (the diff of the
# pinned schema against a release must stay well under 3 s, bench/bench_diff.py).
WITNESS_BUDGET = 1.2
SEARCH_BUDGET = 0.8

_METHOD_WHOLE = ("METHOD_REMOVED", "METHOD_RENAMED", "METHOD_KIND_CHANGED", "METHOD_SIDE_CHANGED")


def prove_all(changes: list[Change], old_schema: dict[str, Any], new_schema: dict[str, Any],
              old_methods: tuple[WireMethod, ...], new_methods: tuple[WireMethod, ...],
              flows: Flows, gated: frozenset[tuple[str, str]] = frozenset()) -> list[Change]:
    """``gated``: (tag member or "", value) pairs a NEW writer sends only to peers advertising a
    capability OLD lacks; a reader witness carrying one never reaches an OLD peer."""
    prover = Prover(old_schema, new_schema, gated)
    deadline = time.monotonic() + WITNESS_BUDGET
    by_wire_old = {m.wire: m for m in old_methods}
    by_wire_new = {m.wire: m for m in new_methods}
    out: list[Change] = []
    for c in changes:
        if c.semantic and c.breaking:
            c = _prove(c, prover, flows, by_wire_old, by_wire_new, old_schema, deadline)
        out.append(c)
    return _search(out, prover, flows, old_schema, new_schema)


def _def_of(c: Change, schema: dict[str, Any]) -> str | None:
    """The def a change's witness is an instance of ("" for the document root)."""
    if c.subject == ENVELOPE:
        return ""
    defs = schema.get("$defs", {})
    return c.subject if c.subject in defs else None


def _verdict(c: Change, broken: set[str], witness: Witness | None, unproven: set[str],
             why: str) -> Change:
    verdict = {r: "breaking" if r in broken else "unproven" if r in unproven else "compatible"
               for r in ROLES}
    reason = c.reason if broken else f"{why} {c.reason}".strip()
    return dataclasses.replace(c, client=verdict["client"], agent=verdict["agent"],
                               witness=witness, reason=reason)


def _claimed(c: Change) -> set[str]:
    return {r for r in ROLES if getattr(c, r) == "breaking"}


def _prove(c: Change, prover: Prover, flows: Flows, old_m: dict[str, WireMethod],
           new_m: dict[str, WireMethod], old_schema: dict[str, Any], deadline: float) -> Change:
    claimed = _claimed(c)
    if c.kind in _METHOD_WHOLE:
        return _verdict(c, claimed, _method_witness(c, prover, old_m, new_m), set(), "")
    if c.kind in ("METHOD_PARAMS_CHANGED", "METHOD_RESULT_CHANGED"):
        m = old_m[c.subject]
        writers, readers = (m.sender, m.handler) if c.kind == "METHOD_PARAMS_CHANGED" else (
            m.handler, m.sender)
        return _search_change(c, prover, str(c.old), str(c.new), "", writers, readers, deadline)
    if c.kind in ("CAPABILITY_REMOVED", "CAPABILITY_CHANGED"):
        cap = next((x for x in capabilities(old_schema) if x.qualified == c.subject), None)
        if cap is None:
            return c
        member = cap.path.rpartition(".")[2]
        at = f"/$defs/{cap.owner}"
        writers, readers = flows.of(cap.owner, at)
        if c.kind == "CAPABILITY_REMOVED":
            w = prover.dropped(cap.owner, member, at, deadline)
            if w is not None:
                return _verdict(c, claimed, w, set(), "")
        focused = dataclasses.replace(c, pointer=f"{at}/properties/{member}", effect="both")
        return _search_change(focused, prover, cap.owner, cap.owner, focused.pointer, writers,
                              readers, deadline, keep=c)
    name = _def_of(c, old_schema)
    if name is None:
        return c  # a meta.json change: no schema instance can show it (kept as classified)
    writers, readers = flows.of(c.subject, c.pointer)
    if c.kind == "DEFAULT_CHANGED":
        return _verdict(c, claimed, Witness("default", name or ENVELOPE, _omitted(c),
                                            f"default {_j(c.old)}", f"default {_j(c.new)}"),
                        set(), "")
    found = _search_change(c, prover, name, name, c.pointer, writers, readers, deadline)
    if c.kind not in ("PROPERTY_REMOVED", "ENUM_VALUE_REMOVED") or not (
            claimed & set(writers)) - _claimed(found):
        return found
    # Still valid on NEW, but NEW no longer knows what it means: the OLD writer's data is lost.
    member = str(c.member)
    if c.kind == "PROPERTY_REMOVED":
        at = c.pointer.rsplit("/properties/", 1)[0]
        w = prover.dropped(name, member, at, deadline)
    else:
        w = _dropped_value(prover, name, c.old, c.pointer, deadline)
    if w is None:
        return found
    return _verdict(c, _claimed(found) | (claimed & set(writers)), found.witness or w, set(), "")


def _search_change(c: Change, prover: Prover, old_name: str, new_name: str, focus: str,
                   writers: frozenset[str], readers: frozenset[str], deadline: float,
                   keep: Change | None = None) -> Change:
    base = keep or c
    claimed = _claimed(base)
    directions = {"narrows": ("writer",), "widens": ("reader",)}.get(c.effect, ("writer", "reader"))
    tried_total = 0
    broken: set[str] = set()
    witness: Witness | None = None
    for direction in directions:
        w, tried = prover.search(direction, old_name, new_name, focus, deadline)
        tried_total += tried
        if w is not None:
            roles = writers if direction == "writer" else readers
            hit = (claimed & set(roles)) if claimed & set(roles) else set(roles) & claimed
            if not hit and c.effect == "unclassified":
                hit = set(roles)
            if hit:
                broken |= hit
                witness = witness or w
    if broken:
        return _verdict(base, broken, witness, set(), "")
    if tried_total == 0 or c.effect == "unclassified":
        why = (f"unproven: no instance of {old_name or ENVELOPE} reached the change"
               if tried_total == 0 else
               f"unproven: {tried_total} instances validate alike on both sides, but jsonschema "
               "gives this keyword no meaning acpgen can check;")
        return _verdict(base, set(), None, claimed, why)
    return _verdict(base, set(), None, set(),
                    f"no witness: {tried_total} instances exercising it validate alike on both "
                    "sides;")


def _method_witness(c: Change, prover: Prover, old_m: dict[str, WireMethod],
                    new_m: dict[str, WireMethod]) -> Witness:
    m = old_m[c.subject]
    params: Any = {}
    if m.params:
        for value in prover.candidates("old", m.params, ""):
            if prover.old.verdict(m.params, value) is None:
                params = value
                break
    message = {"jsonrpc": "2.0", "method": m.wire, "params": params}
    if m.kind == "request":
        message = {"jsonrpc": "2.0", "id": 1, "method": m.wire, "params": params}
    n = new_m.get(m.wire)
    new_says = ("no such method" if n is None else
                f"{n.kind} handled by {n.side}")
    return Witness("method", "message", message, f"{m.kind} handled by {m.side}", new_says)


def _dropped_value(prover: Prover, name: str, value: Any, pointer: str,
                   deadline: float) -> Witness | None:
    for inst in prover.candidates("old", name, pointer):
        if time.monotonic() > deadline:
            return None
        if not _contains(inst, value) or prover.old.verdict(name, inst) is not None:
            continue
        if prover.new.verdict(name, inst) is None:
            return Witness("dropped", name, inst, f"accepts ({_j(value)} is a named value)",
                           f"accepts {_j(value)} only as an unknown value")
    return None


def _contains(inst: Any, value: Any) -> bool:
    if inst == value and type(inst) is type(value):
        return True
    if isinstance(inst, dict):
        return any(_contains(v, value) for v in inst.values())
    if isinstance(inst, list):
        return any(_contains(v, value) for v in inst)
    return False


def _omitted(c: Change) -> Any:
    prop = c.member
    return {"(omitted)": prop} if prop else "(omitted)"


def _j(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True)[:60]


# -- the counterexample search behind compatible verdicts ---------------------------------------


def _search(changes: list[Change], prover: Prover, flows: Flows, old_schema: dict[str, Any],
            new_schema: dict[str, Any]) -> list[Change]:
    old_defs, new_defs = old_schema.get("$defs", {}), new_schema.get("$defs", {})
    broken_defs = {c.subject for c in changes if c.breaking}
    gated = {c.subject for c in changes if c.gate}
    targets: list[tuple[str, str, bool, bool]] = []
    seen: set[str] = set()
    for c in changes:
        if not c.semantic or c.breaking or c.subject in seen or c.subject in broken_defs:
            continue
        if c.kind.startswith(("METHOD_", "CAPABILITY_", "DEF_")) or c.unproven:
            continue
        if c.subject not in old_defs or c.subject not in new_defs:
            continue
        seen.add(c.subject)
        writers, readers = flows.of(c.subject, c.pointer)
        targets.append((c.subject, c.subject, bool(writers), bool(readers) and c.subject not in gated))
    found = counterexample_search(prover, targets, SEARCH_BUDGET)
    if not found:
        return changes
    out: list[Change] = []
    done: set[str] = set()
    for c in changes:
        w = found.get(c.subject)
        if w is not None and c.subject not in done and c.semantic and not c.breaking and not (
                c.kind.startswith(("METHOD_", "CAPABILITY_", "DEF_"))):
            done.add(c.subject)
            writers, readers = flows.of(c.subject, c.pointer)
            roles = writers if w.kind == "writer" else readers
            c = _verdict(c, set(roles), w, set(), "")
            c = dataclasses.replace(c, detail=f"{c.detail} (counterexample found)")
        out.append(c)
    return out
