"""Views of the IR for ``acpgen inspect``: JSON-ready data (``--json``), and a text view.

The text view is for reading in a terminal: one line per method, capability, gate, member or
variant, each wire name with the Python name the generated package gives it, each
description summarised (whole sentences that fit, else cut at a word, and ``...`` whenever
something was left out; ``--full`` shows every description whole). ``--json`` has every field
of the same selection.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
from dataclasses import dataclass
from typing import Any

from acpgen.cli.inspect_names import NameIndex, Target, index, resolve
from acpgen.errors import AcpgenError
from acpgen.ir.describe import describe_type
from acpgen.ir.naming import NamingError, member_name, snake_case
from acpgen.ir.types import Definition, Method, Property, SchemaIR, TypeExpr
from acpgen.load.capabilities import Manifest
from acpgen.load.project import Project

SUMMARY_WIDTH = 100  # characters of description on a member's line
ELLIPSIS = " ..."
# A sentence ends at . ! or ? followed by space and what starts a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[*])")


@dataclass(frozen=True)
class Scope:
    """One protocol surface as ``inspect`` shows it."""

    name: str
    package: str
    ir: SchemaIR
    manifest: Manifest | None
    manifest_where: str  # where the gating manifest is (or would be)

    @property
    def names(self) -> NameIndex:
        return index(self.ir, self.name)


def scopes(project: Project) -> dict[str, Scope]:
    """Every surface the project builds, the roster's first."""
    return {s.name: Scope(s.name, s.package, s.ir, s.capabilities, s.spec.capabilities) for s in project.surfaces}


def choose_scope(project: Project, name: str | None) -> Scope:
    found = scopes(project)
    chosen = found.get((name or project.primary.name).strip().lower())
    if chosen is None:
        raise AcpgenError("--surface", f"no surface {name!r}; choose one of {', '.join(found)}")
    return chosen


# -- descriptions ----------------------------------------------------------------------------


def summary(text: Any, width: int = SUMMARY_WIDTH) -> str:
    """The first paragraph's whole sentences that fit in ``width``, else its words that fit,
    with ``...`` when anything of the description is not shown."""
    paragraphs = [p for p in re.split(r"\n\s*\n", str(text or "").strip()) if p.strip()]
    if not paragraphs:
        return ""
    first = " ".join(paragraphs[0].split())
    if len(first) <= width and len(paragraphs) == 1:
        return first
    shown = ""
    for sentence in _SENTENCE_END.split(first):
        candidate = f"{shown} {sentence}".strip()
        if len(candidate) > width:
            break
        shown = candidate
    if not shown:  # the first sentence alone is too long: its words that fit
        head = first[: width - len(ELLIPSIS) + 1]
        shown = head.rsplit(" ", 1)[0] if " " in head else head[:-1]
    return shown + ELLIPSIS


def _described(head: str, text: Any, full: bool, indent: str) -> list[str]:
    """``head`` with its description: summarised on the same line, or (``full``) whole on
    the lines below it."""
    if not full:
        return [f"{head}  {summary(text)}".rstrip()]
    body = [f"{indent}{line}".rstrip() for line in str(text or "").strip().splitlines()]
    return [head.rstrip(), *body]


# -- data ------------------------------------------------------------------------------------


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


def lookup(scope: Scope, others: list[Scope], query: str) -> dict[str, Any]:
    """What ``query`` names in ``scope`` (a def, a branch class or a method), as data."""
    names = scope.names
    target = resolve(query, names, [o.names for o in others])
    if target.kind == "method" and target.method is not None:
        return method_data(scope, target.method)
    if target.kind == "branch":
        return branch_data(scope, names, target)
    return definition_data(scope, names, scope.ir.defs[target.name])


def definition_data(scope: Scope, names: NameIndex, d: Definition) -> dict[str, Any]:
    data: dict[str, Any] = {"entry": "def", "surface": scope.name, "python": f"{scope.package}.{d.name}"}
    data.update(_plain(d))
    for member in data.get("enum_members", []):
        with contextlib.suppress(NamingError):  # generate refuses such a value; inspect shows it
            member["py_name"] = member_name(member.get("value"), member.get("title"))
    for number, variant in enumerate(data.get("variants", [])):
        variant["classes"] = names.classes.get((d.name, number), [])
    return data


def _members(scope: Scope, bases: list[str], own: list[Property]) -> list[Property]:
    """A branch class's members: its bases' (the defs it subclasses), then its own."""
    found: dict[str, Property] = {}
    for base in bases:
        d = scope.ir.defs.get(base)
        for p in d.properties if d is not None else ():
            found.setdefault(p.wire_name, p)
    for p in own:
        found[p.wire_name] = p
    return list(found.values())


def branch_data(scope: Scope, names: NameIndex, target: Target) -> dict[str, Any]:
    union = target.union
    assert union is not None
    variant = union.variants[target.variant]
    bases = [b for b in names.bases.get(target.name, []) if b != "_Model"]
    own = [*union.properties, *variant.properties]
    members = [_plain(p) for p in _members(scope, bases, own)]
    if union.discriminator and variant.tag is not None:
        members.insert(0, {"wire_name": union.discriminator, "py_name": snake_case(union.discriminator),
                           "type": f"const {json.dumps(variant.tag)}", "required": True, "tag": True})
    return {
        "entry": "branch", "surface": scope.name, "name": target.name, "python": f"{scope.package}.{target.name}",
        "union": union.name, "pointer": f"{union.pointer}/{union.union_keyword}/{target.variant}",
        "tag": variant.tag, "bases": bases, "description": variant.description, "properties": members,
    }


def method_data(scope: Scope, m: Method) -> dict[str, Any]:
    interface = {"agent": "Agent", "client": "Client"}.get(m.side)
    gates = [g.to_json() for g in (scope.manifest.gates if scope.manifest else ())
             if g.method == m.wire]
    return {
        "entry": "method", "surface": scope.name, **m.to_json(), "py_name": m.py_name,
        "python": f"{scope.package}.{interface}.{m.py_name}" if interface else None,
        "pointer": m.meta_pointer, "gates": gates,
    }


def gates(scope: Scope) -> list[dict[str, Any]]:
    return [g.to_json() for g in scope.manifest.gates] if scope.manifest else []


# -- text ------------------------------------------------------------------------------------


def methods_text(methods: list[dict[str, Any]]) -> str:
    """``wire  python-name  side-that-handles-it  request|notification  params -> result``."""
    width = max((len(m["wire"]) for m in methods), default=0)
    py_width = max((len(m["py_name"]) for m in methods), default=0)
    rows = []
    for m in methods:
        result = f" -> {m['result']}" if m.get("result") else ""
        rows.append(f"{m['wire']:<{width}}  {m['py_name']:<{py_width}}  {m['side']:<8} {m['kind']:<12} "
                    f"{m.get('params') or '-'}{result}")
    return "\n".join(rows)


def capabilities_text(capabilities: list[dict[str, Any]]) -> str:
    """One dotted path per line (``ClientCapabilities.fs.readTextFile``) and its kind."""
    rows = [(f"{c['root']}Capabilities.{c['path']}", c["kind"]) for c in capabilities]
    width = max((len(path) for path, _ in rows), default=0)
    return "\n".join(f"{path:<{width}}  {kind}" for path, kind in rows)


def gates_text(gates: list[dict[str, Any]], where: str) -> str:
    """``target  (sent by X)  needs capability [when ...]  requirement IDs``."""
    if not gates:
        return f"no gates (no {where})"
    rows = []
    for g in gates:
        when = f" when {g['condition']}" if g.get("condition") else ""
        ids = f"  [{', '.join(g['requirements'])}]" if g.get("requirements") else ""
        rows.append(f"{g['target']}  (sent by {g['sender']})  needs {g['capability']}{when}{ids}")
    return "\n".join(rows)


def _member_line(prop: dict[str, Any]) -> str:
    flags = [flag for flag, on in (("required", prop.get("required")), ("nullable", prop.get("nullable")),
                                   ("tag", prop.get("tag"))) if on]
    mark = f" [{', '.join(flags)}]" if flags else ""
    python = f" (.{prop['py_name']})" if prop.get("py_name") and prop["py_name"] != prop["wire_name"] else ""
    return f"  {prop['wire_name']}{python}: {prop.get('type', '?')}{mark}"


def definition_text(data: dict[str, Any], full: bool = False) -> str:
    """The name, shape and pointer, its Python name, then one line per member, variant or
    enum value (wire name, then the Python name where it differs)."""
    if data.get("entry") == "method":
        return method_text(data, full)
    if data.get("entry") == "branch":
        head = f"{data['name']} (branch {json.dumps(data['tag'])} of {data['union']}) {data['pointer']}"
        python = f"  python: {data['python']}" + (f", a subclass of {', '.join(data['bases'])}" if data["bases"] else "")
    else:
        head = f"{data['name']} ({data['shape']}) {data.get('pointer', '')}".rstrip()
        python = f"  python: {data['python']}"
        if data["shape"] in ("union", "tagged_union"):
            python += " (a type alias: parse with pydantic.TypeAdapter; build one of its branch classes)"
    lines = [head, python]
    if data.get("description"):
        lines.extend(_described("", data["description"], full, "  ")[1:] if full
                     else [f"  {summary(data['description'])}"])
    if data.get("discriminator"):
        lines.append(f"  discriminator: {data['discriminator']}")
    for prop in data.get("properties", []):
        lines.extend(_described(_member_line(prop), prop.get("description"), full, "      "))
    for variant in data.get("variants", []):
        tag = f"{variant['tag']}: " if variant.get("tag") is not None else ""
        built_on = variant.get("ref") or variant.get("type")
        classes = ", ".join(variant.get("classes") or [])
        target = f"{built_on} -> {classes}" if built_on and classes and classes != built_on else classes or built_on or "?"
        lines.extend(_described(f"  | {tag}{target}", variant.get("description"), full, "      "))
    for member in data.get("enum_members", []):
        python = f" (.{member['py_name']})" if member.get("py_name") else ""
        lines.extend(_described(f"  = {json.dumps(member.get('value'))}{python}", member.get("description"),
                                full, "      "))
    return "\n".join(lines)


def method_text(data: dict[str, Any], full: bool = False) -> str:
    """The method: who handles it, its Python name, params and result, and its gates."""
    handler = {"agent": "the agent", "client": "the client"}.get(data["side"], "either side")
    lines = [f"{data['wire']} ({data['kind']}, handled by {handler}) {data.get('pointer', '')}".rstrip()]
    result = f" -> {data['result']}" if data.get("result") else " -> None"
    if data.get("python"):
        lines.append(f"  python: {data['python']}(params: {data['params']}){result}; "
                     f"the other side calls conn.{data['py_name']}(...)")
    else:
        lines.append(f"  python: {data['py_name']} (the connection handles it on both sides)")
    lines.append(f"  params: {data['params']}")
    if data.get("notification_params"):
        lines.append(f"  as a notification: {data['notification_params']}")
    if data.get("result"):
        lines.append(f"  result: {data['result']}")
    for g in data.get("gates", []):
        when = f" when {g['condition']}" if g.get("condition") else ""
        ids = f"  [{', '.join(g['requirements'])}]" if g.get("requirements") else ""
        lines.append(f"  gate: {g['target']} needs {g['capability']}{when}{ids}")
    return "\n".join(lines)
