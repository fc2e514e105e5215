"""Views of the IR for ``acpgen inspect`` (JSON-ready data, plus a plain-text rendering)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.ir.describe import describe_type
from acpgen.ir.types import TypeExpr
from acpgen.model.project import Project


def _plain(value: Any) -> Any:
    if isinstance(value, TypeExpr):
        return describe_type(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if getattr(value, f.name) not in (None, (), False)}
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) for v in value):
            return {k: _plain(v) for k, v in value}
        return [_plain(v) for v in value]
    return value


def definition(project: Project, name: str) -> dict[str, Any]:
    d = project.ir.defs.get(name)
    if d is None:
        raise AcpgenError(project.lock.files["schema"].path, f"no def named {name!r}")
    return _plain(d)  # type: ignore[no-any-return]


def gates(project: Project) -> list[dict[str, Any]]:
    manifest = project.capabilities
    return [g.to_json() for g in manifest.gates] if manifest else []


def as_text(data: Any) -> str:
    return json.dumps(data, indent=2)
