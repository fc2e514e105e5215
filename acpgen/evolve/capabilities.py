"""The capability tree of one schema, read from the raw document (as the IR builder reads it).

A capability is a member of ``AgentCapabilities`` / ``ClientCapabilities`` (recursively,
through members whose type is an object def): a boolean, or an object present and non-null.
``_meta`` members are extension data, not capabilities.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from acpgen.evolve.normal import normalise

_ROOTS = (("agent", "AgentCapabilities"), ("client", "ClientCapabilities"))


@dataclass(frozen=True)
class Capability:
    root: str  # agent | client
    path: str  # sessionCapabilities.resume
    kind: str  # boolean | object
    type: str | None  # the def of an object capability
    owner: str  # the def that declares the member

    @property
    def qualified(self) -> str:
        return f"{self.root}Capabilities.{self.path}"


def capabilities(schema: dict[str, Any]) -> tuple[Capability, ...]:
    defs = schema.get("$defs", {})
    out: list[Capability] = []

    def walk(root: str, owner: str, prefix: str, depth: int) -> None:
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
                out.append(Capability(root, path, "boolean", None, owner))
            elif isinstance(member.get("$ref"), str) and normalise(
                    defs.get(member["$ref"], {})).a.get("type") == ("object",):
                out.append(Capability(root, path, "object", member["$ref"], owner))
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
