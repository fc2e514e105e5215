"""The shapes of the capability-guard data: a gate, an absolute-path rule, a capability path.

Copied verbatim into every generated package by acpgen (``acpgen/shipped/runtime/guard_rules.py``).
``guard_data.py`` (rendered from schema/capabilities.toml) holds the rows; ``guards.py`` the
checks and decorators that read them.
"""

from dataclasses import dataclass
from typing import Literal, TypeAlias

Side: TypeAlias = Literal["client", "agent"]

# A capability's kind, its path in wire names and as attributes of the generated models.
CapabilityPath: TypeAlias = tuple[Literal["boolean", "object"], tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Gate:
    """``sender`` may send ``target`` only if its peer advertised ``capability``."""

    target: str
    method: str
    sender: Side
    message: Literal["params", "result"]
    select: tuple[str, ...]  # wire-name steps into the message, "[]" walks an array
    equals: str | None  # the gate applies when a selected value equals this; None: is present
    capability: str | None  # dotted path in the peer's capabilities; None: never allowed
    wire_path: tuple[str, ...]  # the capability path in wire names
    py_path: tuple[str, ...]  # the same path as attributes of the generated models
    kind: Literal["boolean", "object", "never"]
    condition: str | None  # kind "never": the named check that decides it applies
    requirements: tuple[str, ...]


@dataclass(frozen=True)
class PathRule:
    """A string member that must hold an absolute path."""

    target: str
    method: str
    sender: Side
    message: Literal["params", "result"]
    select: tuple[str, ...]
    requirements: tuple[str, ...]
