"""Views of the IR for ``acpgen inspect``: JSON-ready data (``--json``), and a text view.

The text view is for reading in a terminal (one line per method, capability, gate, member or
variant; the first line of a description); ``--json`` has every field of the same selection.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from acpgen.errors import AcpgenError
from acpgen.ir.describe import describe_type
from acpgen.ir.types import TypeExpr
from acpgen.load.project import Project


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


def _first_line(text: Any) -> str:
    lines = str(text or "").strip().splitlines()
    return lines[0] if lines else ""


def methods_text(methods: list[dict[str, Any]]) -> str:
    """``wire  side-that-handles-it  request|notification  params -> result``."""
    width = max((len(m["wire"]) for m in methods), default=0)
    rows = []
    for m in methods:
        result = f" -> {m['result']}" if m.get("result") else ""
        rows.append(f"{m['wire']:<{width}}  {m['side']:<6} {m['kind']:<12} {m.get('params') or '-'}{result}")
    return "\n".join(rows)


def capabilities_text(capabilities: list[dict[str, Any]]) -> str:
    """One dotted path per line (``ClientCapabilities.fs.readTextFile``) and its kind."""
    rows = [(f"{c['root']}Capabilities.{c['path']}", c["kind"]) for c in capabilities]
    width = max((len(path) for path, _ in rows), default=0)
    return "\n".join(f"{path:<{width}}  {kind}" for path, kind in rows)


def gates_text(gates: list[dict[str, Any]]) -> str:
    """``target  (sent by X)  needs capability [when ...]  requirement IDs``."""
    if not gates:
        return "no gates (the project has no schema/capabilities.toml)"
    rows = []
    for g in gates:
        when = f" when {g['condition']}" if g.get("condition") else ""
        ids = ", ".join(g.get("requirements") or [])
        rows.append(f"{g['target']}  (sent by {g['sender']})  needs {g['capability']}{when}  [{ids}]")
    return "\n".join(rows)


def definition_text(data: dict[str, Any]) -> str:
    """The def's name, shape and pointer, then one line per member, variant or enum value."""
    lines = [f"{data['name']} ({data['shape']}) {data.get('pointer', '')}".rstrip()]
    if data.get("description"):
        lines.append(f"  {_first_line(data['description'])}")
    if data.get("discriminator"):
        lines.append(f"  discriminator: {data['discriminator']}")
    for prop in data.get("properties", []):
        flags = [flag for flag, on in (("required", prop.get("required")),
                                       ("nullable", prop.get("nullable"))) if on]
        mark = f" [{', '.join(flags)}]" if flags else ""
        lines.append(f"  {prop['wire_name']}: {prop.get('type', '?')}{mark}  {_first_line(prop.get('description'))}".rstrip())
    for variant in data.get("variants", []):
        tag = f"{variant['tag']}: " if variant.get("tag") is not None else ""
        target = variant.get("ref") or variant.get("type") or "?"
        lines.append(f"  | {tag}{target}  {_first_line(variant.get('description'))}".rstrip())
    for member in data.get("enum_members", []):
        lines.append(f"  = {json.dumps(member.get('value'))}  {_first_line(member.get('description'))}".rstrip())
    return "\n".join(lines)
