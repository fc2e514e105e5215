"""What the SDK's user changes for each schema change: the "do" line of every report.

One template per change kind (the kinds of :data:`acpgen.evolve.compat.RULES`, the vocabulary
``acpgen diff --explain`` takes), filled with where the change is and, for a side it breaks,
the handlers and calls of the generated ``Agent`` / ``Client`` interfaces that reach the
changed def (from the methods that carry it). A side the change does not break gets the
optional step, if any ("nothing required; ...").
"""

from __future__ import annotations

import re
from typing import Any

from acpgen.evolve.changes import Change
from acpgen.evolve.compat import RULES

# "{side}" is client or agent, "{where}" the changed position (Def.member, Union[variant]),
# "{def}" the def, "{member}" the member, value or variant, "{gate}" the capability, "{new}"
# NEW's value (a renamed method's new name).
BROKEN: dict[str, str] = {
    "PROPERTY_ADDED": "set {member} wherever your {side} builds {def} (NEW requires it or "
                      "{def} forbids unknown members)",
    "PROPERTY_REMOVED": "stop setting (and relying on) {where} in your {side}",
    "PROPERTY_REQUIRED": "always set {where} where your {side} builds {def}",
    "PROPERTY_OPTIONAL": "handle a missing {where} (None) where your {side} reads {def}",
    "NULLABLE_ADDED": "handle null (None) in {where} where your {side} reads it",
    "NULLABLE_REMOVED": "never send null in {where}",
    "TYPE_WIDENED": "accept the wider type of {where} where your {side} reads it",
    "TYPE_NARROWED": "send only values of NEW's type in {where}",
    "TYPE_CHANGED": "follow NEW's type of {where} wherever your {side} builds or reads it",
    "CONSTRAINT_TIGHTENED": "send only values NEW accepts in {where} (the witness shows one it rejects)",
    "CONSTRAINT_RELAXED": "accept the values NEW allows in {where} where your {side} reads it",
    "CONSTRAINT_CHANGED": "follow NEW's constraint on {where} wherever your {side} builds or reads it",
    "ENUM_VALUE_ADDED": "handle the value {member} of {def} where your {side} matches on it",
    "ENUM_VALUE_REMOVED": "stop sending the value {member} of {def}",
    "ENUM_OPENED": "handle values of {def} outside the old list where your {side} reads it",
    "ENUM_CLOSED": "send only the listed values of {def}",
    "VARIANT_ADDED": "handle the variant {member} of {def} where your {side} reads it",
    "VARIANT_REMOVED": "stop sending the variant {member} of {def}",
    "OBJECT_CLOSED": "send no members {def} does not list",
    "OBJECT_OPENED": "accept unlisted members in {def} where your {side} reads it",
    "DEFAULT_CHANGED": "set {where} explicitly where your {side} builds it, and do not rely on "
                       "its default where it reads it",
    "UNCLASSIFIED": "review {where} by hand: acpgen cannot classify this change",
    "METHOD_REMOVED": "stop calling {def} from your {side}, and drop its handler",
    "METHOD_RENAMED": "call and handle {new} instead of {def}",
    "METHOD_KIND_CHANGED": "move {def} to its new kind (request <-> notification) in your {side}'s "
                           "calls and handler",
    "METHOD_SIDE_CHANGED": "move {def}'s handler to the other side's interface",
    "METHOD_PARAMS_CHANGED": "build and read {def}'s params as NEW's def",
    "METHOD_RESULT_CHANGED": "build and read {def}'s result as NEW's def",
    "CAPABILITY_REMOVED": "stop advertising {def}",
    "CAPABILITY_CHANGED": "advertise {def} with its new kind and type",
    "DEF_ADDED": "nothing required",
    "DEF_REMOVED": "stop importing {def} from the generated models",
}
OPTIONAL: dict[str, str] = {
    "DEF_ADDED": "nothing required; the generated models gain {def}",
    "DEF_REMOVED": "stop importing {def} from the generated models (the class is gone)",
    "EQUIVALENT_REWRITE": "nothing on the wire; update imports of a renamed or inlined "
                          "generated class",
    "PROPERTY_ADDED": "nothing required; {where} is there to set and read",
    "VARIANT_ADDED": "nothing required; to receive it, advertise {gate} and handle the variant "
                     "{member} of {def}",
    "METHOD_ADDED": "nothing required; implement {handler} to support {def}",
    "CAPABILITY_ADDED": "nothing required; advertise {def} once your side supports it",
    "ENUM_VALUE_ADDED": "nothing required; the value {member} of {def} may now arrive",
    "METHOD_PARAMS_CHANGED": "nothing on the wire; the generated params class is now {new}",
    "METHOD_RESULT_CHANGED": "nothing on the wire; the generated result class is now {new}",
}
assert set(BROKEN) | set(OPTIONAL) <= set(RULES)


def where(c: Change) -> str:
    """The changed position as the report names it (``Def.member``, ``Union[variant]``)."""
    return c.describe().split(": ", 1)[0]


def handler_names(meta: dict[str, Any]) -> dict[str, str]:
    """Wire method -> ``Agent.x`` / ``Client.x`` (the generated interfaces' method names)."""
    out: dict[str, str] = {}
    for key, owner in (("agentMethods", "Agent"), ("clientMethods", "Client"),
                       ("protocolMethods", "Connection")):
        table = meta.get(key)
        if isinstance(table, dict):
            for name, wire in table.items():
                if isinstance(wire, str) and isinstance(name, str):
                    out[wire] = f"{owner}.{name}"
    return out


def reached_through(carriers: tuple[str, ...], handlers: dict[str, str]) -> list[str]:
    """The interface methods of the methods that carry a change (``method session/update``)."""
    wires = [c.removeprefix("method ") for c in carriers if c.startswith("method ")]
    return sorted({handlers.get(w, w) for w in wires})


def advice(c: Change, carriers: tuple[str, ...] = (), handlers: dict[str, str] | None = None) -> str:
    """The "do" line: what the SDK's user changes (or may do) for this change."""
    broken = [s for s in ("client", "agent") if getattr(c, s) in ("breaking", "unproven")]
    handlers = handlers or {}
    fields = {
        "where": where(c), "def": c.subject, "member": str(c.member or ""),
        "gate": c.gate or "its capability", "new": str(c.new or ""),
        "handler": handlers.get(c.subject, f"the handler of {c.subject}"),
        "side": " and ".join(broken) or "side",
    }
    template = BROKEN.get(c.kind) if broken else OPTIONAL.get(c.kind)
    if template is None:
        return "nothing required" if not broken else f"review {fields['where']} ({c.kind})"
    text = template.format(**fields)
    through = reached_through(carriers, handlers)
    if broken and through:
        text += f" (reached through {', '.join(through)})"
    return text


_WORD = re.compile(r"[A-Za-z0-9]+")


def kind_of(spelling: str) -> str | None:
    """The change kind a user typed: ``PROPERTY_REMOVED``, ``property-removed``, ``property
    removed`` or the report's phrase ``optional property removed`` (every word of the kind,
    in order, in the phrase; the longest kind wins)."""
    words = [w.upper() for w in _WORD.findall(spelling)]
    joined = "_".join(words)
    if joined in RULES:
        return joined
    best: str | None = None
    for kind in RULES:
        need = kind.split("_")
        it = iter(words)
        if all(any(w == n for w in it) for n in need) and (best is None or len(kind) > len(best)):
            best = kind
    return best
