"""The send path's capability work, planned once per method and capability set.

Copied verbatim into every generated package by acpgen.

An outgoing message is serialised once, to its wire JSON; omission (``omit.py``) and the
capability guards then read that JSON, never the model again. Which gates can refuse a
message depends only on the method and the peer's capabilities, so an :class:`OutboundPlan`
works it out once per ``(method, message)`` for the capabilities it was built with: gates whose
capability is advertised are dropped, gates whose fallback is omission are left to omission
(after it, nothing they select is left), and what remains is a short list of selectors to scan.
When the scan finds nothing that could be refused (the everyday case: a text chunk), the full
guard is not run; when it finds something, the full guard (``guards.check_*``) runs on the same
JSON and raises its usual error, so what is refused, and how, stays the guards' decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .omit import OMIT_REQUIREMENTS, ItemGate, omit_unadvertised

__all__ = ["OutboundPlan", "PlannedRule", "may_refuse", "plan_rules", "select"]


@dataclass(frozen=True, slots=True)
class PlannedRule:
    """One selector to scan: ``kind`` "always" (refused whatever the payload), "equals"
    (refused when a selected value equals ``value``), "in" (when one is in ``values``: the
    "equals" rules of one selector, scanned once), "present" (when one is present), "path"
    (when one is not an absolute path) or "never" (the guard decides when selected).
    """

    kind: str
    select: tuple[str, ...]
    value: str | None = None
    values: frozenset[str] = frozenset()


def select(node: Any, steps: tuple[str, ...]) -> list[Any]:
    """Every value at ``steps`` in wire JSON ("[]" walks an array)."""
    nodes = [node]
    for step in steps:
        found: list[Any] = []
        for item in nodes:
            if step == "[]":
                if isinstance(item, list):
                    found.extend(item)
            elif isinstance(item, dict) and step in item:
                found.append(item[step])
        if not found:
            return found
        nodes = found
    return nodes


def _omission_gate(gate: Any) -> bool:
    return bool(OMIT_REQUIREMENTS & set(gate.requirements)) and "[]" in gate.select


def plan_rules(
    gates: Iterable[Any],
    paths: Iterable[Any],
    advertised: Callable[[str], bool],
    omitted: bool = True,
) -> tuple[PlannedRule, ...]:
    """The rules of one ``(method, message)`` that can still refuse, given ``advertised``
    (``omitted``: the send path, where omission ran first; a receiver omits nothing)."""
    rules: list[PlannedRule] = []
    for gate in gates:
        if gate.kind == "never":
            rules.append(PlannedRule("never", gate.select))
        elif gate.capability is not None and advertised(gate.capability):
            continue
        elif omitted and _omission_gate(gate) and gate.capability is not None:
            continue  # omission has already left out every item this gate selects
        elif not gate.select:
            rules.append(PlannedRule("always", ()))
        elif gate.equals is not None:
            rules.append(PlannedRule("equals", gate.select, gate.equals))
        else:
            rules.append(PlannedRule("present", gate.select))
    rules.extend(PlannedRule("path", p.select) for p in paths)
    return _merge_equals(rules)


def _merge_equals(rules: list[PlannedRule]) -> tuple[PlannedRule, ...]:
    """The "equals" rules of one selector as one "in" rule: a prompt's content types are
    walked once, not once per gated type."""
    values: dict[tuple[str, ...], set[str]] = {}
    for rule in rules:
        if rule.kind == "equals" and rule.value is not None:
            values.setdefault(rule.select, set()).add(rule.value)
    merged: list[PlannedRule] = []
    for rule in rules:
        if rule.kind != "equals":
            merged.append(rule)
        elif rule.select in values:
            merged.append(PlannedRule("in", rule.select, None, frozenset(values.pop(rule.select))))
    return tuple(merged)


def may_refuse(rules: tuple[PlannedRule, ...], wire: Any) -> bool:
    """Whether any of ``rules`` could refuse ``wire`` (then the full guard decides).

    Run on every message sent and received: one frame, the selection (:func:`select`) and
    each kind's test inline."""
    for rule in rules:
        kind = rule.kind
        if kind == "always":
            return True
        nodes = [wire]
        for step in rule.select:
            found: list[Any] = []
            if step == "[]":
                for item in nodes:
                    if isinstance(item, list):
                        found.extend(item)
            else:
                for item in nodes:
                    if isinstance(item, dict) and step in item:
                        found.append(item[step])
            if not found:
                break
            nodes = found
        else:
            for value in nodes:
                if kind == "in":
                    if value in rule.values:
                        return True
                elif kind == "equals":
                    if value == rule.value:
                        return True
                elif kind == "present":
                    if value is not None and value != [] and value != {} and value != "":
                        return True
                elif kind == "path":
                    # A cheap "surely absolute" test; anything else goes to the guard's.
                    if value is not None and not (isinstance(value, str) and value[:1] == "/"):
                        return True
                else:  # "never": the guard knows the condition
                    return True
    return False


class OutboundPlan:
    """Per-connection plans for one capability set (rebuild when the capabilities change).

    ``gates(method, message)`` and ``paths(method, message)`` give the guard's rows;
    ``advertised(capability)`` answers from the peer's capabilities.
    """

    def __init__(
        self,
        sender: str,
        gates: Iterable[Any],
        paths: Iterable[Any],
        advertised: Callable[[str], bool],
    ) -> None:
        self._advertised = advertised
        self._gates: dict[tuple[str, str], list[Any]] = {}
        self._paths: dict[tuple[str, str], list[Any]] = {}
        for gate in gates:
            if gate.sender == sender:
                self._gates.setdefault((gate.method, gate.message), []).append(gate)
        for path in paths:
            if path.sender == sender:
                self._paths.setdefault((path.method, path.message), []).append(path)
        self._plans: dict[tuple[str, str], _Plan] = {}

    def _plan(self, key: tuple[str, str]) -> _Plan:
        gates = self._gates.get(key, [])
        omit = tuple(
            g
            for g in gates
            if _omission_gate(g)
            and g.capability is not None
            and g.equals is not None
            and not self._advertised(g.capability)
        )
        # The items omission would leave out, as rules: scanned first, so that the common
        # message (nothing to leave out) costs a dictionary walk, not the omission pass.
        found = tuple(PlannedRule("equals", g.select, g.equals) for g in omit)
        plan = _Plan(omit, found, plan_rules(gates, self._paths.get(key, []), self._advertised))
        self._plans[key] = plan
        return plan

    def apply(self, method: str, message: str, wire: Any, where: str) -> tuple[Any, int, bool]:
        """``wire`` without what the peer cannot take where the spec says to omit it; how many
        items were left out; and whether the full guard must look at the result."""
        plan = self._plans.get((method, message)) or self._plan((method, message))
        omitted = 0
        if plan.omit and may_refuse(plan.omit_found, wire):
            wire, omitted = omit_unadvertised(wire, plan.omit, self._advertised, where)
        return wire, omitted, may_refuse(plan.rules, wire)


@dataclass(frozen=True, slots=True)
class _Plan:
    omit: tuple[ItemGate, ...]  # the omission gates whose capability is not advertised
    omit_found: tuple[PlannedRule, ...]  # the same, as rules: does the message hold such items
    rules: tuple[PlannedRule, ...]  # what may still be refused after omission
