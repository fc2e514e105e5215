"""The rows the capability guards read, from the gating manifest (a section of ``schema.py``).

The gate data comes from ``schema/capabilities.toml`` as validated by :mod:`acpgen.load.capabilities`
(every capability path resolved in the IR, with its wire path and the attribute path on the
generated models), laid out by ``templates/schema/schema.py.jinja`` (:mod:`acpgen.emit.schema`).
The checks and decorators that read it (``guards.py``) and the rows' types (``contract.py``)
are fixed code, shipped from ``acpgen/shipped/runtime/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from acpgen.load.capabilities import Gate, Manifest, PathRule

if TYPE_CHECKING:
    from acpgen.ir.types import Capability
    from acpgen.model.generation import GenerationModel


@dataclass(frozen=True)
class CapabilityRow:
    """One capability path as the guards look it up."""

    path: str  # dotted wire path below its root
    qualified: str  # agentCapabilities.fs.readTextFile
    kind: str  # boolean | object
    wire_path: tuple[str, ...]
    py_path: tuple[str, ...]  # attribute names on the generated models

    @classmethod
    def of(cls, cap: Capability) -> CapabilityRow:
        return cls(cap.path, cap.qualified, cap.kind, tuple(cap.path.split(".")), tuple(cap.py_path))


@dataclass(frozen=True)
class GateRow:
    """One gate with its capability resolved to wire and attribute paths."""

    target: str
    method: str
    sender: str
    message: str
    select: tuple[str, ...]
    equals: str | None
    capability: str | None  # qualified; None for a "never" gate
    root: str | None
    wire_path: tuple[str, ...]
    py_path: tuple[str, ...]
    kind: str
    condition: str | None
    requirements: tuple[str, ...]

    @classmethod
    def of(cls, gate: Gate) -> GateRow:
        cap = gate.capability
        return cls(
            target=gate.target, method=gate.method, sender=gate.sender, message=gate.message,
            select=gate.select, equals=gate.equals,
            capability=cap.qualified if cap else None,
            root=cap.root if cap else None,
            wire_path=tuple(cap.path.split(".")) if cap else (),
            py_path=tuple(cap.py_path) if cap else (),
            kind=gate.kind, condition=gate.condition, requirements=gate.requirements,
        )


@dataclass(frozen=True)
class GuardPlan:
    """The capability-gate section of ``schema.py``."""

    protocol_version: int
    gates: tuple[GateRow, ...]
    paths: tuple[PathRule, ...]  # the absolute-path rules, as the manifest states them
    capabilities: dict[str, tuple[CapabilityRow, ...]]  # root (agent | client) -> its paths
    exempt: tuple[str, ...]  # methods exempt from initialize-first
    unadvertised: tuple[str, ...]  # requirement IDs cited for a capability no gate names
    initialize_first: dict[str, tuple[str, ...]]  # side -> requirement IDs


def guard_plan(model: GenerationModel, manifest: Manifest) -> GuardPlan:
    caps = sorted(model.ir.capabilities, key=lambda c: (c.root, c.path))
    return GuardPlan(
        protocol_version=model.ir.protocol_version,
        gates=tuple(GateRow.of(g) for g in manifest.gates),
        paths=tuple(manifest.absolute_paths),
        capabilities={root: tuple(CapabilityRow.of(c) for c in caps if c.root == root)
                      for root in ("agent", "client")},
        exempt=tuple(manifest.exempt_before_initialize),
        unadvertised=tuple(manifest.unadvertised),
        initialize_first={side: tuple(ids) for side, ids in sorted(manifest.initialize_first.items())},
    )
