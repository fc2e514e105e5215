# Edit acpgen/shipped/runtime/omit.py, not this file: acpgen generate writes it.
"""Omit, don't fail: leave out of an outgoing message the items the peer cannot take.

Copied verbatim into every generated package by acpgen.

Where the spec's fallback for an unadvertised capability is to leave something out, the
runtime does that instead of refusing the whole message: a boolean config option for a
client that did not advertise ``session.configOptions.boolean``
(ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY), a terminal auth method for a client without
``auth.terminal`` (ACP-V1-AUTH-AGENT-TERMINAL-METHOD-ONLY-WITH-CAPABILITY). Everything else
the guards refuse is still refused.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol

__all__ = ["OMIT_REQUIREMENTS", "ItemGate", "omit_unadvertised"]

logger = logging.getLogger(__name__)

# The requirements whose fallback is omission (the gates carrying them are item gates).
OMIT_REQUIREMENTS = frozenset(
    {
        "ACP-V1-CONFIG-NO-BOOLEAN-WITHOUT-CAPABILITY",
        "ACP-V1-AUTH-AGENT-TERMINAL-METHOD-ONLY-WITH-CAPABILITY",
    }
)


class ItemGate(Protocol):
    """What this module reads of a ``guards.Gate``."""

    @property
    def select(self) -> tuple[str, ...]: ...

    @property
    def equals(self) -> str | None: ...

    @property
    def capability(self) -> str | None: ...

    @property
    def requirements(self) -> tuple[str, ...]: ...


def omit_unadvertised(
    payload: Any, gates: Iterable[ItemGate], advertised: Callable[[str], bool], what: str
) -> tuple[Any, int]:
    """``payload`` (wire JSON) without the items of omission gates whose capability is not
    advertised; and how many were left out. The payload is not modified in place."""
    omitted = 0
    for gate in gates:
        if not (OMIT_REQUIREMENTS & set(gate.requirements)) or "[]" not in gate.select:
            continue
        if gate.capability is None or gate.equals is None or advertised(gate.capability):
            continue
        split = gate.select.index("[]")
        payload, count = _without(
            payload, gate.select[:split], gate.select[split + 1 :], gate.equals
        )
        if count:
            omitted += count
            logger.warning(
                "%s: left out %d item(s) with %s = %r: the peer did not advertise %s (%s)",
                what,
                count,
                ".".join(gate.select),
                gate.equals,
                gate.capability,
                ", ".join(sorted(OMIT_REQUIREMENTS & set(gate.requirements))),
            )
    return payload, omitted


def _without(
    node: Any, to_list: tuple[str, ...], in_item: tuple[str, ...], value: str
) -> tuple[Any, int]:
    if to_list:
        if not isinstance(node, dict) or to_list[0] not in node:
            return node, 0
        child, count = _without(node[to_list[0]], to_list[1:], in_item, value)
        return ({**node, to_list[0]: child} if count else node), count
    if not isinstance(node, list):
        return node, 0
    kept = [item for item in node if _at(item, in_item) != value]
    return kept, len(node) - len(kept)


def _at(node: Any, path: tuple[str, ...]) -> Any:
    for step in path:
        if not isinstance(node, dict):
            return None
        node = node.get(step)
    return node
