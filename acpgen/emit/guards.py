"""The rows the capability guards read, from the gating manifest (a section of ``schema.py``).

The gate data comes from ``schema/capabilities.toml`` as validated by :mod:`acpgen.load.capabilities`
(every capability path resolved in the IR, with its wire path and the attribute path on the
generated models), laid out by ``templates/schema/schema.py.jinja`` (:mod:`acpgen.emit.schema`).
The checks and decorators that read it (``guards.py``) and the rows' types (``contract.py``)
are fixed code, shipped from ``acpgen/shipped/runtime/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acpgen.load.capabilities import Gate, Manifest, PathRule

if TYPE_CHECKING:
    from acpgen.ir.types import Capability
    from acpgen.model.generation import GenerationModel

def capability_row(cap: Capability) -> dict[str, Any]:
    return {
        "path": cap.path,
        "qualified": cap.qualified,
        "kind": cap.kind,
        "wire_path": tuple(cap.path.split(".")),
        "py_path": tuple(cap.py_path),
    }


def gate_row(gate: Gate) -> dict[str, Any]:
    cap = gate.capability
    return {
        "target": gate.target,
        "method": gate.method,
        "sender": gate.sender,
        "message": gate.message,
        "select": gate.select,
        "equals": gate.equals,
        "capability": cap.qualified if cap else None,
        "root": cap.root if cap else None,
        "wire_path": tuple(cap.path.split(".")) if cap else (),
        "py_path": tuple(cap.py_path) if cap else (),
        "kind": gate.kind,
        "condition": gate.condition,
        "requirements": gate.requirements,
    }


def path_row(rule: PathRule) -> dict[str, Any]:
    return {
        "target": rule.target,
        "method": rule.method,
        "sender": rule.sender,
        "message": rule.message,
        "select": rule.select,
        "requirements": rule.requirements,
    }


def guard_context(model: GenerationModel, manifest: Manifest) -> dict[str, Any]:
    caps = sorted(model.ir.capabilities, key=lambda c: (c.root, c.path))
    return {
        "protocol_version": model.ir.protocol_version,
        "gates": [gate_row(g) for g in manifest.gates],
        "paths": [path_row(p) for p in manifest.absolute_paths],
        "capabilities": {
            root: [capability_row(c) for c in caps if c.root == root] for root in ("agent", "client")
        },
        "exempt": list(manifest.exempt_before_initialize),
        "unadvertised": list(manifest.unadvertised),
        "initialize_first": {side: list(ids) for side, ids in sorted(manifest.initialize_first.items())},
    }
