"""The capability tree of one schema, read from the raw document (as the IR builder reads it),
as the IR's :class:`~acpgen.ir.types.Capability` (one type for the concept; the diff walks raw
schemas of any release, which need not build an IR).

A capability is a member of ``AgentCapabilities`` / ``ClientCapabilities`` (recursively,
through members whose type is an object def): a boolean, or an object present and non-null.
``_meta`` members are extension data, not capabilities.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from acpgen.evolve.normal import normalise
from acpgen.ir.types import Capability

_ROOTS: tuple[tuple[Literal["agent", "client"], str], ...] = (
    ("agent", "AgentCapabilities"), ("client", "ClientCapabilities"),
)


def capabilities(schema: dict[str, Any]) -> tuple[Capability, ...]:
    defs = schema.get("$defs", {})
    out: list[Capability] = []

    def walk(root: Literal["agent", "client"], owner: str, prefix: str, depth: int) -> None:
        node = defs.get(owner)
        if depth > 8 or not isinstance(node, dict):
            return
        props = normalise(node).a.get("properties", {})
        for name, schema_ in (props.items() if isinstance(props, dict) else ()):
            if name.startswith("_"):
                continue
            member = normalise(schema_).a
            path = f"{prefix}{name}"
            if member.get("type") == ("boolean",):
                out.append(Capability(root, path, "boolean", None, owner=owner))
            elif isinstance(member.get("$ref"), str) and normalise(
                    defs.get(member["$ref"], {})).a.get("type") == ("object",):
                out.append(Capability(root, path, "object", member["$ref"], owner=owner))
                walk(root, member["$ref"], f"{path}.", depth + 1)

    for root, name in _ROOTS:
        walk(root, name, "", 0)
    return tuple(out)


def spellings(caps: tuple[Capability, ...]) -> dict[str, str]:
    """How documentation names a capability -> its qualified path.

    The schema documents gated additions as "MUST only send this update when the Client
    advertised [`ClientSessionCapabilities::notices`]" (or "the `session.notices` Client
    capability"): ``ClientSessionCapabilities::notices`` -> ``clientCapabilities.session.notices``.
    """
    out: dict[str, str] = {}
    for c in caps:
        member = c.path.rpartition(".")[2]
        out[f"{c.owner}::{member}"] = c.qualified
        out[f"`{c.path}` {c.root.capitalize()} capability"] = c.qualified
        out[f"`{c.qualified}`"] = c.qualified
    return out


# A sentence that makes something conditional on a capability ("Only available if the
# `terminal` Client capability is set", "MUST advertise this method only when the client
# enabled its terminal authentication capability", "when the Agent capabilities indicate
# `mcp_capabilities.http`").
_CONDITION = re.compile(r"[^.]*\b(only|when|if|unless|once)\b[^.]*\bcapabilit[^.]*", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][a-z0-9]*")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text.replace("_", " "))]


def named_in_condition(doc: str, cap: Capability) -> bool:
    """Whether a conditional sentence of ``doc`` names ``cap``: every word of its path (camel
    and snake case split) starts a word of the sentence ("auth.terminal" in "its terminal
    authentication capability")."""
    path_words = _words(re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", cap.path))
    for match in _CONDITION.finditer(doc):
        said = _words(match.group(0))
        if path_words and all(any(w.startswith(p) for w in said) for p in path_words):
            return True
    return False


def member_doc(schema: dict[str, Any], cap: Capability) -> str:
    """The description of the member that declares a capability."""
    owner = schema.get("$defs", {}).get(cap.owner, {})
    props = owner.get("properties", {}) if isinstance(owner, dict) else {}
    member = props.get(cap.path.rpartition(".")[2]) if isinstance(props, dict) else None
    doc = member.get("description", "") if isinstance(member, dict) else ""
    return doc if isinstance(doc, str) else ""


def gate_for(doc: str, tag: str | None, added: tuple[Capability, ...],
             schema: dict[str, Any]) -> str | None:
    """The capability NEW adds that gates an added variant, by the schema's own words: the
    variant's documentation names it (an explicit spelling or a conditional sentence), or the
    capability's documentation names the variant's tag in backticks ("When `true`, the agent
    may include `terminal` entries")."""
    spelled = {k: v for k, v in spellings(added).items()}
    hit = next((path for text, path in sorted(spelled.items()) if text in doc), None)
    if hit:
        return hit
    for cap in added:
        if named_in_condition(doc, cap):
            return cap.qualified
    if tag:
        for cap in added:
            if f"`{tag}`" in member_doc(schema, cap):
                return cap.qualified
    return None
