"""``acpgen diff OLD NEW --migration``: per handler of OLD's interfaces, what its author changes.

Every semantic change of the diff lands on the handlers it reaches: a method's own changes
(renamed, removed, params or result changed) on that method's handler; a def's changes on
the handler of every OLD method that carries the def (its params or result reach it: the
diff's flows); an added def on the NEW methods that carry it, filed under the OLD handler of
the same name. What the author of a handler does about a change is the diff's "do" line
(:mod:`acpgen.evolve.advice`, one rule per change kind), kept when the change breaks or may
break that handler's side (an ``Agent`` handler: the agent; a ``Client`` one: the client);
each line names the changes it comes from (``KIND where``). Changes that reach no handler
(the meta version, a client's capabilities, envelopes, defs no method carries) are listed after
the handlers; an agent's capabilities land on ``Agent.initialize``, which advertises them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from acpgen.evolve.advice import advice, handler_names, where
from acpgen.evolve.changes import Change
from acpgen.evolve.diff import SchemaDiff
from acpgen.evolve.impact import Impact

_SIDE = {"Agent": "agent", "Client": "client"}
_INITIALIZE = "initialize"


@dataclass(frozen=True)
class Step:
    """One thing to do, and the changes (``KIND where``) it comes from."""

    do: str
    changes: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"do": self.do, "changes": list(self.changes)}


@dataclass(frozen=True)
class HandlerMigration:
    handler: str  # Agent.session_prompt, Client.session_update (OLD's interfaces)
    wire: str
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {"handler": self.handler, "method": self.wire,
                "steps": [s.to_json() for s in self.steps]}


@dataclass(frozen=True)
class Migration:
    handlers: tuple[HandlerMigration, ...]  # every handler of OLD's interfaces, in name order
    unattached: tuple[Step, ...]  # what reaches no handler

    def to_json(self) -> dict[str, Any]:
        return {"handlers": [h.to_json() for h in self.handlers],
                "unattached": [s.to_json() for s in self.unattached]}


def label(c: Change) -> str:
    """How a line names the change it comes from: its kind (what ``--explain`` takes) and
    where it is."""
    return f"{c.kind} {where(c)}"


def _reached(c: Change, diff: SchemaDiff) -> set[str]:
    """The OLD methods (wire names) whose handlers a change reaches."""
    old_wires = {m.wire for m in diff.old.methods}
    if c.kind.startswith("METHOD_"):
        return {c.subject} & old_wires
    if c.kind.startswith("CAPABILITY_"):
        # What an agent advertises is its initialize answer; a client's capabilities go out
        # in its initialize call, which no Client handler answers.
        return {_INITIALIZE} & old_wires if c.subject.startswith("agentCapabilities.") else set()
    if c.subject.startswith("("):
        return set()
    name = c.subject.split("[", 1)[0]
    if name in diff.old.schema.get("$defs", {}):
        return set(diff.old.flows.carriers.get(name, ()))
    return set(diff.new.flows.carriers.get(name, ())) & old_wires


def _steps(found: list[tuple[str, Change]]) -> tuple[Step, ...]:
    """One step per distinct "do" line, in first-seen order, naming all its changes."""
    merged: dict[str, list[str]] = {}
    for do, c in found:
        merged.setdefault(do, []).append(label(c))
    return tuple(Step(do, tuple(sorted(set(labels)))) for do, labels in merged.items())


def migration(diff: SchemaDiff, impact: Impact) -> Migration:
    """What the author of each handler of OLD's ``Agent`` and ``Client`` changes for NEW."""
    handlers = handler_names(diff.old.meta)
    new_handlers = {**handlers, **handler_names(diff.new.meta)}
    carriers = {id(ci.change): ci.carriers for ci in impact.changes}
    by_wire: dict[str, list[tuple[str, Change]]] = {}
    unattached: list[tuple[str, Change]] = []
    for c in sorted(diff.semantic, key=lambda c: c.sort_key):
        do = _do(c, carriers.get(id(c), ()), new_handlers)
        reached = sorted(w for w in _reached(c, diff) if handlers.get(w, "").split(".")[0] in _SIDE)
        for wire in reached:
            side = _SIDE[handlers[wire].split(".")[0]]
            # A method's own change always reaches its handler (a removed method's handler
            # goes, though only its callers break); a def's, when it breaks the handler's side.
            if c.kind.startswith("METHOD_") or getattr(c, side) in ("breaking", "unproven"):
                by_wire.setdefault(wire, []).append((do, c))
        if not reached and (c.breaking or c.unproven):
            unattached.append((do, c))
    rows = sorted((name, wire) for wire, name in handlers.items() if name.split(".")[0] in _SIDE)
    return Migration(
        tuple(HandlerMigration(name, wire, _steps(by_wire.get(wire, []))) for name, wire in rows),
        _steps(unattached),
    )


def _do(c: Change, carriers: tuple[str, ...], handlers: dict[str, str]) -> str:
    return advice(c, carriers, handlers).split(" (reached through ", 1)[0]


def render_migration(diff: SchemaDiff, result: Migration) -> str:
    """The text form: each handler with its steps, then the unchanged ones, then the rest."""
    head = (f"migration: {diff.old.label} -> {diff.new.label}: what each handler of the OLD "
            "interfaces changes (each step names the changes it comes from; "
            "`acpgen diff --explain KIND` says why)")
    lines = [head]
    changed = [h for h in result.handlers if h.steps]
    for h in changed:
        lines.append(f"\n{h.handler} ({h.wire}): {len(h.steps)} step(s)")
        for step in h.steps:
            lines.append(f"  - {step.do}")
            lines.append(f"      from: {', '.join(step.changes)}")
    same = [h.handler for h in result.handlers if not h.steps]
    lines.append(f"\nunchanged handlers ({len(same)}): {', '.join(same) or 'none'}")
    if result.unattached:
        lines.append(f"\nnot tied to a handler ({len(result.unattached)} step(s)):")
        for step in result.unattached:
            lines.append(f"  - {step.do}")
            lines.append(f"      from: {', '.join(step.changes)}")
    return "\n".join(lines)
